// A saved plan (save-plan run) stands only while nothing else has applied on its workspace: once another run applies,
// the service discards it, so `terraform apply FILE` cannot roll the newer changes back.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, statesReached, type Harness, resetToPlainWorkspace } from './runs-harness';

const minute = 60_000;

describe('saved plans outdated by another apply', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());
  beforeEach(() => resetToPlainWorkspace(h));

  /** Advances the manual clock half a second at a time until the run is in `status` (at most two minutes). */
  const advanceUntil = async (id: string, status: string) => {
    for (let step = 0; step < 240; step++) {
      if ((await h.run(id)).attributes.status === status) return;
      await h.clock.advance(500);
    }
    assert.fail(`run ${id} never reached ${status}; it is ${(await h.run(id)).attributes.status}`);
  };

  test('a planned_and_saved run is discarded the moment another run applies, and can no longer be applied', async () => {
    const saved = await h.createRun({ 'save-plan': true });
    await advanceUntil(saved, 'planned_and_saved');
    const other = await h.createRun({ 'auto-apply': true });
    await advanceUntil(other, 'applying');
    assert.equal((await h.run(saved)).attributes.status, 'planned_and_saved', 'still usable while the other run applies');
    await advanceUntil(other, 'applied');
    const discarded = await h.run(saved);
    assert.equal(discarded.attributes.status, 'discarded');
    assert.equal(discarded.attributes['status-timestamps']['discarded-at'], (await h.run(other)).attributes['status-timestamps']['applied-at']);
    assert.equal(discarded.attributes.actions['is-confirmable'], false);
    assert.equal((await h.api('POST', `/api/v2/runs/${saved}/actions/apply`)).status, 409);
  });

  test('a saved plan still planning when another run applies is discarded once planned, never saved', async () => {
    const other = await h.createRun({ 'auto-apply': true });
    await advanceUntil(other, 'applying');
    const saved = await h.createRun({ 'save-plan': true });
    await advanceUntil(saved, 'planning');
    await advanceUntil(other, 'applied');
    assert.equal((await h.run(saved)).attributes.status, 'planning', 'its plan started from the state before that apply');
    await advanceUntil(saved, 'discarded');
    assert.deepEqual(statesReached(await h.run(saved)).slice(-3), ['planning', 'planned', 'discarded']);
  });

  test('a plan-only run and a confirmed saved plan are left alone: the spec discards only runs paused for confirmation', async () => {
    const speculative = await h.createRun({ 'plan-only': true });
    const saved = await h.createRun({ 'save-plan': true });
    await advanceUntil(saved, 'planned_and_saved');
    const holder = await h.createRun();
    await advanceUntil(holder, 'cost_estimated');
    // Confirmed while the holder has the workspace: it queues, and applies after the holder.
    assert.equal((await h.api('POST', `/api/v2/runs/${saved}/actions/apply`)).status, 202);
    assert.equal((await h.api('POST', `/api/v2/runs/${holder}/actions/apply`)).status, 202);
    await advanceUntil(holder, 'applied');
    await advanceUntil(saved, 'applied');
    assert.equal((await h.run(speculative)).attributes.status, 'planned_and_finished');
  });
});
