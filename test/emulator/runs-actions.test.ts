// The five run actions (spec §4.2, §7): who may call them (404 otherwise, organization tokens included), in which
// states (409 otherwise; 403 for force-execute's own preconditions), and what they do.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { grant } from '../../emulator/src/seeds/builders';
import { forceCancelCoolOffMs } from '../../emulator/src/runs';
import { startHarness, statesReached, type Harness, resetToPlainWorkspace } from './runs-harness';

const minute = 60_000;

describe('run actions', () => {
  let h: Harness;
  const post = (id: string, action: string, options: Parameters<Harness['api']>[2] = {}) =>
    h.api('POST', `/api/v2/runs/${id}/actions/${action}`, options);

  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());
  beforeEach(() => resetToPlainWorkspace(h));

  /** A run paused for confirmation (cost_estimated on the premium edition). */
  async function pausedRun(): Promise<string> {
    const id = await h.createRun();
    await h.clock.advance(minute);
    assert.equal((await h.run(id)).attributes.status, 'cost_estimated');
    return id;
  }

  /** A run in `planning` (5 s after creation). */
  async function planningRun(): Promise<string> {
    const id = await h.createRun();
    await h.clock.advance(5000);
    assert.equal((await h.run(id)).attributes.status, 'planning');
    return id;
  }

  describe('apply', () => {
    test('202 with no body on a paused run; the comment is recorded', async () => {
      const id = await pausedRun();
      const result = await post(id, 'apply', { body: { comment: 'approved in standup' } });
      assert.equal(result.status, 202);
      assert.equal(result.text, '');
      const comments = await h.api('GET', `/api/v2/runs/${id}/comments`);
      assert.equal(comments.body.data[0].attributes.body, 'approved in standup');
    });

    test('409 "transition not allowed" on a run that is not paused for confirmation', async () => {
      const id = await planningRun();
      const result = await post(id, 'apply');
      assert.equal(result.status, 409);
      assert.deepEqual(result.body, { errors: [{ status: '409', title: 'transition not allowed' }] });
    });

    test('404 for a member (may queue, not apply), a reader and the organization token; 202 for the owners team token', async () => {
      const id = await pausedRun();
      for (const token of ['member', 'reader', 'organization'] as const) {
        const result = await post(id, 'apply', { token });
        assert.equal(result.status, 404, token);
        assert.equal(result.body.errors[0].title, 'not found');
      }
      assert.equal((await h.run(id)).attributes.status, 'cost_estimated', 'nothing changed');
      assert.equal((await post(id, 'apply', { token: 'team' })).status, 202);
    });

    test('401 without a valid token, 404 for an unknown run', async () => {
      assert.equal((await post('run-doesnotexist0000', 'apply', { token: 'not-a-token' })).status, 401);
      assert.equal((await post('run-doesnotexist0000', 'apply')).status, 404);
    });

    test('415 without the JSON:API content type, and every accepted body shape', async () => {
      const id = await pausedRun();
      assert.equal((await post(id, 'apply', { contentType: null })).status, 415);
      assert.equal((await post(id, 'apply', { contentType: 'application/json' })).status, 415);
      assert.equal((await post(id, 'apply', { body: { comment: 42 } })).status, 422);
      assert.equal((await post(id, 'apply', { body: { data: { attributes: { comment: 'old style' } } } })).status, 202);
    });

    test('the run\'s actions and permissions agree with what the endpoints accept, per caller', async () => {
      const id = await pausedRun();
      const asOwner = await h.run(id);
      assert.deepEqual(asOwner.attributes.actions, { 'is-cancelable': false, 'is-confirmable': true, 'is-discardable': true, 'is-force-cancelable': false });
      assert.equal(asOwner.attributes.permissions['can-apply'], true);
      const asMember = (await h.api('GET', `/api/v2/runs/${id}`, { token: 'member' })).body.data;
      assert.equal(asMember.attributes.permissions['can-apply'], false);
      assert.equal(asMember.attributes.permissions['can-force-cancel'], false);
      const asOrg = (await h.api('GET', `/api/v2/runs/${id}`, { token: 'organization' })).body.data;
      assert.equal(asOrg.attributes.permissions['can-discard'], false);
    });
  });

  describe('discard', () => {
    test('202 on pending, paused and policy_override runs; each ends discarded and frees the workspace', async () => {
      const paused = await pausedRun();
      const pending = await h.createRun();
      assert.equal((await post(pending, 'discard', { body: { comment: 'not needed' } })).status, 202);
      assert.equal((await h.run(pending)).attributes.status, 'discarded');
      assert.equal((await post(paused, 'discard')).status, 202);
      const discarded = await h.run(paused);
      assert.equal(discarded.attributes.status, 'discarded');
      assert.deepEqual(discarded.attributes.actions, { 'is-cancelable': false, 'is-confirmable': false, 'is-discardable': false, 'is-force-cancelable': false });
      assert.equal(h.workspace.lockedBy, null);

      h.workspace.policySets = [{ name: 'limits', enforcement: 'soft-mandatory', passes: false }];
      const overriding = await h.createRun();
      await h.clock.advance(minute);
      assert.equal((await h.run(overriding)).attributes.status, 'policy_override');
      assert.equal((await post(overriding, 'discard')).status, 202);
    });

    test('409 on a planning run and on a finished one; 404 for a member', async () => {
      const id = await planningRun();
      assert.equal((await post(id, 'discard', { token: 'member' })).status, 404);
      assert.equal((await post(id, 'discard')).status, 409);
      await h.clock.advance(minute);
      await post(id, 'discard');
      assert.equal((await post(id, 'discard')).status, 409);
    });
  });

  describe('cancel and force-cancel', () => {
    test('cancel: 409 unless planning or applying; 202 interrupts a plan, which ends canceled shortly after', async () => {
      const pending = await h.createRun();
      assert.equal((await post(pending, 'cancel')).status, 409, 'pending is not planning');
      await h.clock.advance(5000);
      assert.equal((await h.run(pending)).attributes.actions['is-cancelable'], true);
      assert.equal((await post(pending, 'cancel', { token: 'organization' })).status, 404);
      assert.equal((await post(pending, 'cancel')).status, 202);
      const interrupted = await h.run(pending);
      assert.equal(interrupted.attributes.status, 'planning', 'the process stops safely, not at once');
      assert.ok(interrupted.attributes['force-cancel-available-at']);
      assert.equal(interrupted.attributes['force_cancel_available_at'], interrupted.attributes['force-cancel-available-at']);
      await h.clock.advance(2000);
      const canceled = await h.run(pending);
      assert.equal(canceled.attributes.status, 'canceled');
      assert.ok(canceled.attributes['canceled-at']);
      assert.equal(canceled.relationships['canceled-by'].data.id, h.people.owner.id);
      assert.equal((await h.api('GET', `/api/v2/runs/${pending}/plan`)).body.data.attributes.status, 'canceled');
      assert.equal(h.workspace.lockedBy, null);
      assert.equal((await post(pending, 'cancel')).status, 409);
    });

    test('force-cancel: 409 without an earlier cancel, 409 during the cool-off, 202 after it; ends canceled at once', async () => {
      h.workspace.autoApply = true;
      const id = await h.createRun();
      await h.clock.advance(20_000);
      assert.equal((await h.run(id)).attributes.status, 'applying');
      assert.equal((await post(id, 'force-cancel')).status, 409, 'no normal cancel yet');
      assert.equal((await post(id, 'cancel')).status, 202);
      const cooling = await h.run(id);
      assert.equal(cooling.attributes['is-force-cancelable'], false);
      assert.equal((await post(id, 'force-cancel')).status, 409, 'cool-off not over');
      await h.clock.advance(forceCancelCoolOffMs);
      const ready = await h.run(id);
      assert.equal(ready.attributes.status, 'applying', 'an apply waits for its in-flight operation');
      assert.equal(ready.attributes['is-force-cancelable'], true);
      assert.equal(ready.attributes.actions['is-force-cancelable'], true);
      assert.equal((await post(id, 'force-cancel', { body: { comment: 'stuck' } })).status, 202);
      const ended = await h.run(id);
      assert.equal(ended.attributes.status, 'canceled');
      assert.ok(statesReached(ended).includes('force-canceled'));
      assert.equal(h.workspace.lockedBy, null, 'the workspace is unlocked at once');
      assert.equal((await h.api('GET', `/api/v2/runs/${id}/apply`)).body.data.attributes.status, 'canceled');
    });

    test('force-cancel needs admin access: a writer may cancel but gets 404 on force-cancel', async () => {
      const { workspace } = h.addWorkspace('writers-app', { autoApply: true });
      grant(h.people.developers, workspace, 'write');
      const id = await h.createRun({}, { workspaceId: workspace.id, token: 'member' });
      await h.clock.advance(20_000);
      assert.equal((await h.run(id)).attributes.status, 'applying');
      assert.equal((await post(id, 'cancel', { token: 'member' })).status, 202);
      await h.clock.advance(forceCancelCoolOffMs);
      assert.equal((await post(id, 'force-cancel', { token: 'member' })).status, 404);
      assert.equal((await post(id, 'force-cancel')).status, 202);
    });
  });

  describe('force-execute', () => {
    test('202: discards the paused holder, cancels earlier pending runs and starts the target at once', async () => {
      const holder = await pausedRun();
      const earlier = await h.createRun();
      const target = await h.createRun();
      assert.equal((await post(target, 'force-execute')).status, 202);
      assert.equal((await h.run(holder)).attributes.status, 'discarded');
      assert.equal((await h.run(earlier)).attributes.status, 'canceled');
      assert.deepEqual(h.workspace.lockedBy, { type: 'runs', id: target });
      await h.clock.advance(minute);
      assert.equal((await h.run(target)).attributes.status, 'cost_estimated');
    });

    test('403 when the run is not pending, or the workspace is not locked by another run', async () => {
      const holder = await pausedRun();
      assert.equal((await post(holder, 'force-execute')).status, 403, 'not pending');
      await post(holder, 'discard');
      h.workspace.lockedBy = { type: 'users', id: h.people.owner.id };
      const blockedByUser = await h.createRun();
      const result = await post(blockedByUser, 'force-execute');
      assert.equal(result.status, 403, 'locked by a user, not a run');
      assert.equal(result.body.errors[0].status, '403');
    });

    test('409 when the run holding the workspace is not discardable (planning)', async () => {
      await planningRun();
      const target = await h.createRun();
      assert.equal((await post(target, 'force-execute')).status, 409);
      assert.equal((await h.run(target)).attributes.status, 'pending');
    });

    test('404 for callers without apply permission, including the organization token', async () => {
      await pausedRun();
      const target = await h.createRun();
      for (const token of ['member', 'reader', 'organization'] as const) {
        assert.equal((await post(target, 'force-execute', { token })).status, 404, token);
      }
    });
  });
});
