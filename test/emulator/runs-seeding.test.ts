// Runs with a history (seedRun), runs queued by an upload, and the runs module inside the whole emulator
// (startEmulator): the demo's runs answer over HTTP, progress on the clock, and reset brings them back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { seedRun } from '../../emulator/src/runs';
import { stateInstances } from '../../emulator/src/runs/stateInstances';
import { addConfigurationVersion } from '../../emulator/src/seeds/builders';
import { startHarness, statesReached, type Harness } from './runs-harness';

describe('seeded runs', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const input = (extra: Record<string, unknown> = {}) => ({
    workspaceId: h.workspace.id,
    createdByUserId: h.people.owner.id,
    queuerMayApply: true,
    ...extra,
  });

  test('a run from days ago is played through to its end with timestamps from its own past', async () => {
    const createdAt = new Date(h.clock.nowMs() - 3 * 24 * 3600 * 1000);
    const run = seedRun(h.engine, input(), { createdAt, afterPause: { action: 'apply', userId: h.people.owner.id, comment: 'go' } });
    assert.equal(run.status, 'applied');
    const body = await h.run(run.id);
    assert.equal(body.attributes['created-at'], createdAt.toISOString());
    const applied = Date.parse(body.attributes['status-timestamps']['applied-at']);
    assert.ok(applied < h.clock.nowMs() - 2 * 24 * 3600 * 1000, 'applied long ago, not now');
    assert.equal(body.relationships['confirmed-by'].data.id, h.people.owner.id);
    assert.equal(stateInstances(h.store.stateVersions.current(h.workspace.id)?.state).size, 2, 'the apply wrote both instances to the state');
    assert.equal(h.workspace.lockedBy, null);
  });

  test('a run created seconds ago is caught mid-phase and carries on live', async () => {
    const run = seedRun(h.engine, input({ autoApply: true }), { createdAt: new Date(h.clock.nowMs() - 5000) });
    assert.equal(run.status, 'planning');
    await h.clock.advance(60_000);
    assert.equal((await h.run(run.id)).attributes.status, 'applied');
  });

  test('a run whose user has not acted yet waits for confirmation, holding the workspace; the next one waits pending', async () => {
    const paused = seedRun(h.engine, input(), {
      createdAt: new Date(h.clock.nowMs() - 60_000),
      afterPause: { action: 'discard', userId: h.people.owner.id },
      thinkMs: 10 * 60_000,
    });
    assert.equal(paused.status, 'cost_estimated');
    const behind = seedRun(h.engine, input(), { createdAt: new Date(h.clock.nowMs() - 1000) });
    assert.equal(behind.status, 'pending');
    assert.deepEqual(h.workspace.lockedBy, { type: 'runs', id: paused.id });
    assert.throws(() => seedRun(h.engine, input(), { createdAt: new Date(h.clock.nowMs() + 1000) }), /future/);
    await h.api('POST', `/api/v2/runs/${paused.id}/actions/discard`);
    await h.api('POST', `/api/v2/runs/${behind.id}/actions/discard`);
  });

  test('an upload to a version with auto-queue-runs queues a run from the configuration version', async () => {
    const version = addConfigurationVersion(h.store, h.workspace, 'uploaded', { autoQueueRuns: true, speculative: true });
    for (const hook of h.store.uploadHooks) hook(version);
    const queued = h.engine.records.runsOfWorkspace(h.workspace.id)[0]!;
    assert.equal(queued.configurationVersionId, version.id);
    assert.equal(queued.source, 'svc-configuration-version');
    assert.equal(queued.planOnly, true);
    await h.clock.advance(60_000);
    assert.deepEqual(statesReached(await h.run(queued.id)).at(-1), 'planned-and-finished');
  });
});

describe('runs inside the whole emulator (demo seed)', () => {
  let emulator: RunningEmulator;
  const api = async (method: string, path: string, token = emulator.tokens.owner) => {
    const response = await fetch(`${emulator.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  };

  before(async () => {
    emulator = await startEmulator({ clock: 'manual' });
  });
  after(() => emulator.close());

  test('demo-app has a run awaiting confirmation and a member\'s run pending behind it; force-execute jumps the queue', async () => {
    const workspace = (await api('GET', `/api/v2/organizations/${emulator.organization}/workspaces/demo-app`)).body.data;
    const runs = (await api('GET', `/api/v2/workspaces/${workspace.id}/runs`)).body.data;
    const pending = runs.find((run: any) => run.attributes.status === 'pending');
    const holder = runs.find((run: any) => run.attributes.actions['is-confirmable']);
    const statuses = runs.map((run: any) => run.attributes.status).join(', ');
    assert.ok(pending && holder, `the seed leaves one run waiting behind a paused one (demo-app runs: ${statuses})`);
    assert.equal((await api('POST', `/api/v2/runs/${pending.id}/actions/force-execute`, emulator.tokens.member)).status, 404);
    assert.equal((await api('POST', `/api/v2/runs/${pending.id}/actions/force-execute`)).status, 202);
    assert.equal((await api('GET', `/api/v2/runs/${holder.id}`)).body.data.attributes.status, 'discarded');
    await emulator.control.advance(60_000);
    assert.notEqual((await api('GET', `/api/v2/runs/${pending.id}`)).body.data.attributes.status, 'pending');
  });

  test('reset drops runs made since and brings the seeded ones back', async () => {
    const before = (await api('GET', `/api/v2/organizations/${emulator.organization}/runs`)).body.data.length;
    await emulator.control.reset();
    const after = (await api('GET', `/api/v2/organizations/${emulator.organization}/runs`)).body.data;
    assert.equal(after.length, before);
    assert.ok(after.some((run: any) => run.attributes.status === 'pending'), 'the pending run is pending again');
  });
});
