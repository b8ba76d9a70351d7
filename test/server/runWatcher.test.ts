// The run watcher on simulated time against the emulator: the run-list budget (30/min, shared by all workspaces)
// is never exceeded even with 200 watched workspaces, lists back off when nothing changes, active runs are
// followed through GET /runs/:id, each change is reported once, and a 429 pauses the host.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ServiceClient } from '../../server/src/api';
import type { Run } from '../../server/src/api';
import { RunWatcher } from '../../server/src/workspaces/runWatcher';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { ManualClock } from '../helpers/manualClock';

const isRunList = (path: string) => /^\/api\/v2\/workspaces\/[^/]+\/runs(\?|$)/.test(path);

describe('RunWatcher', () => {
  let emulator: RunningEmulator;
  let workspaceIds: Map<string, string>;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(async () => {
    await emulator.close();
  });
  beforeEach(async () => {
    // Fresh seed, request log and rate windows for every test.
    await emulator.control.reset();
    const lookup = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
    workspaceIds = new Map((await lookup.workspaces.list('acme-demo', { pageSize: 50 })).items.map((w) => [w.attributes.name, w.id]));
    await lookup.close();
  });

  /** A watcher and client on one manual clock; `step` moves both clocks and waits for the released work. */
  function harness() {
    const clock = new ManualClock(emulator.control.now().getTime());
    // One attempt per request: a 429 reaches the watcher at once instead of waiting on the manual clock.
    const client = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner, clock, retry: { maxAttempts: 1 } });
    const reports: Array<{ workspaceId: string; changed: Run[]; fromList: boolean }> = [];
    const watcher = new RunWatcher({
      timers: clock,
      clientFor: () => client,
      onRuns: (_host, workspaceId, _runs, changed, fromList) => reports.push({ workspaceId, changed, fromList }),
    });
    const step = async (ms: number) => {
      await emulator.control.advance(ms);
      await clock.advance(ms);
      await watcher.whenIdle();
    };
    const dispose = async () => {
      watcher.dispose();
      await client.close();
    };
    return { clock, client, watcher, reports, step, dispose };
  }

  test('200 watched workspaces: never more than 30 run lists per minute, and not one 429', async () => {
    const { watcher, step, dispose } = harness();
    const ids = [...workspaceIds.values()];
    // The emulator cannot create workspaces; the rest are ids this token cannot see (404), still listed on the same budget.
    for (let i = ids.length; i < 200; i++) ids.push(`ws-unseen${String(i).padStart(11, '0')}`);
    const start = emulator.control.now().getTime();
    for (const id of ids) watcher.watchWorkspace('emulator', id);
    for (let elapsed = 0; elapsed < 10 * 60_000; elapsed += 500) await step(500);
    await dispose();
    const lists = emulator.control.requests().filter((r) => isRunList(r.path));
    assert.ok(lists.length >= 150, `lists kept going round-robin (${lists.length})`);
    assert.equal(emulator.control.requests().filter((r) => r.status === 429).length, 0);
    const times = lists.map((r) => Date.parse(r.time) - start);
    for (let i = 0; i < times.length; i++) {
      const inWindow = times.filter((t) => t >= times[i]! && t < times[i]! + 60_000).length;
      assert.ok(inWindow <= 30, `${inWindow} run lists within a minute from t=${times[i]}`);
    }
    // Every workspace got its turn.
    const listed = new Set(lists.map((r) => r.path.split('/')[4]));
    assert.equal(listed.size, 200);
  });

  test('a quiet workspace is listed less and less often', async () => {
    const { watcher, step, dispose } = harness();
    watcher.watchWorkspace('emulator', workspaceIds.get('legacy-batch')!);
    for (let elapsed = 0; elapsed < 10 * 60_000; elapsed += 1_000) await step(1_000);
    await dispose();
    const lists = emulator.control.requests().filter((r) => isRunList(r.path));
    assert.ok(lists.length >= 3 && lists.length <= 8, `${lists.length} lists in 10 minutes`);
    const gaps = lists.slice(1).map((r, i) => Date.parse(r.time) - Date.parse(lists[i]!.time));
    for (let i = 1; i < gaps.length; i++) assert.ok(gaps[i]! >= gaps[i - 1]!, `gaps grow: ${gaps.join(', ')}`);
  });

  test('an active run is followed through GET /runs/:id and each change is reported once', async () => {
    const { watcher, reports, step, dispose } = harness();
    const workspaceId = workspaceIds.get('staging-api')!;
    watcher.watchWorkspace('emulator', workspaceId);
    for (let elapsed = 0; elapsed < 3 * 60_000; elapsed += 1_000) await step(1_000);
    await dispose();
    const polls = emulator.control.requests().filter((r) => /^\/api\/v2\/runs\/run-[^/?]+$/.test(r.path));
    assert.ok(polls.length > 0, 'the auto-applying run was polled');
    const changes = reports.flatMap((report) => report.changed.map((run) => `${run.id} ${run.attributes.status}`));
    assert.ok(changes.some((change) => change.endsWith(' applied')), changes.join('\n'));
    assert.equal(new Set(changes).size, changes.length, `each change once: ${changes.join(', ')}`);
    const initial = reports.find((report) => report.fromList);
    assert.deepEqual(initial?.changed, [], 'the first list is the starting state, not a change');
  });

  test('a run the service is working on is read every second; one awaiting a person backs off', async () => {
    const { watcher, step, dispose } = harness();
    const lookup = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner });
    const demoRuns = (await lookup.runs.listForWorkspace(workspaceIds.get('demo-app')!, { pageSize: 10 })).items;
    await lookup.close();
    const awaiting = demoRuns.find((run) => run.attributes.actions?.['is-confirmable'] === true)!;
    assert.ok(awaiting, 'the demo has a run awaiting confirmation');
    const creator = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner });
    const working = await creator.runs.create({ workspaceId: workspaceIds.get('sandbox')!, planOnly: true, message: 'working' });
    await creator.close();
    watcher.followRun('emulator', workspaceIds.get('demo-app')!, awaiting.id);
    watcher.followRun('emulator', workspaceIds.get('sandbox')!, working.id);
    const pollTimes = (id: string) => emulator.control.requests().filter((r) => r.path === `/api/v2/runs/${id}`).map((r) => Date.parse(r.time));
    for (let elapsed = 0; elapsed < 20_000; elapsed += 500) await step(500);
    await dispose();
    // The working run is read every second until it ends (the end of its plan is news at once: it goes on the code);
    // the waiting one backs off (1, 1.5, 2.25, 3.4, 5.1, 7.6 s…).
    const working_ = pollTimes(working.id);
    const gaps = working_.slice(1).map((time, index) => time - working_[index]!);
    // (A moment `pending` in the queue counts as waiting: one 1.5 s step there.)
    assert.ok(working_.length >= 5 && gaps.every((gap) => gap <= 1_500) && gaps.filter((gap) => gap === 1_000).length >= gaps.length - 2, `working run read at gaps of ${gaps.join(', ')} ms`);
    assert.ok(pollTimes(awaiting.id).length <= 7, `waiting run read ${pollTimes(awaiting.id).length} times in 20 s`);
  });

  test('a run waiting its turn is read again as soon as the run ahead of it ends, however far it backed off', async () => {
    const { watcher, reports, step, dispose } = harness();
    const sandbox = workspaceIds.get('sandbox')!;
    const creator = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
    // The first run stops for confirmation and holds the workspace; the second waits behind it (pending).
    const ahead = await creator.runs.create({ workspaceId: sandbox, message: 'ahead', autoApply: false });
    const behind = await creator.runs.create({ workspaceId: sandbox, message: 'behind', autoApply: false });
    watcher.followRun('emulator', sandbox, ahead.id);
    // Followed 4 s apart, so the two runs' backed-off polls do not fall together by chance.
    for (let elapsed = 0; elapsed < 4_000; elapsed += 500) await step(500);
    watcher.followRun('emulator', sandbox, behind.id);
    const pollTimes = (id: string) => emulator.control.requests().filter((r) => r.path === `/api/v2/runs/${id}`).map((r) => Date.parse(r.time));
    // Long enough for the waiting run's polls to back off past 10 s apart.
    for (let elapsed = 0; elapsed < 45_000; elapsed += 500) await step(500);
    const before = pollTimes(behind.id);
    assert.ok(before.length >= 2 && before.at(-1)! - before.at(-2)! >= 7_000, `the waiting run backed off (polls ${before.length}, last gap ${before.at(-1)! - before.at(-2)!} ms)`);
    await creator.runs.discard(ahead.id);
    await creator.close();
    let endedAt: number | undefined;
    for (let elapsed = 0; elapsed < 60_000 && endedAt === undefined; elapsed += 500) {
      await step(500);
      if (reports.some((r) => r.changed.some((run) => run.id === ahead.id && run.attributes.status === 'discarded'))) endedAt = emulator.control.now().getTime();
    }
    assert.ok(endedAt !== undefined, 'the discard was seen');
    await step(1_500);
    await dispose();
    const after = pollTimes(behind.id).filter((time) => time >= endedAt! - 500);
    assert.ok(after.length >= 1, `the waiting run was read within 1.5 s of the run ahead ending (last read ${endedAt! - pollTimes(behind.id).at(-1)!} ms before)`);
  });

  test('a 429 pauses the host instead of hammering the service', async () => {
    const { watcher, step, dispose } = harness();
    emulator.control.injectFault({ path: /\/runs$/, kind: 'rate-limit', times: 1 });
    watcher.watchWorkspace('emulator', workspaceIds.get('legacy-batch')!);
    watcher.watchWorkspace('emulator', workspaceIds.get('demo-app')!);
    for (let elapsed = 0; elapsed < 50_000; elapsed += 1_000) await step(1_000);
    const during = emulator.control.requests().filter((r) => isRunList(r.path));
    assert.equal(during.length, 1, 'nothing more is listed during the pause');
    assert.equal(during[0]!.status, 429);
    for (let elapsed = 0; elapsed < 30_000; elapsed += 1_000) await step(1_000);
    await dispose();
    assert.ok(emulator.control.requests().filter((r) => isRunList(r.path) && r.status === 200).length >= 1, 'listing resumes after the pause');
  });

  test('after a 300 s outage the watcher is back within 10 s of recovery, without hammering the service meanwhile (#14 item 12)', async () => {
    const { watcher, step, dispose } = harness();
    const demoApp = workspaceIds.get('demo-app')!;
    watcher.watchWorkspace('emulator', demoApp);
    await step(1_000);
    // Every API request fails, as in an outage (the run polls too, not only the lists).
    emulator.control.injectFault({ path: /^\/api\/v2\//, kind: 'status', status: 503, times: Infinity });
    const outageStart = emulator.control.requests().length;
    for (let elapsed = 0; elapsed < 300_000; elapsed += 1_000) await step(1_000);
    const duringOutage = emulator.control.requests().slice(outageStart).filter((r) => isRunList(r.path)).length;
    emulator.control.clearFaults();
    const recovered = emulator.control.requests().length;
    let backAfterMs: number | undefined;
    for (let elapsed = 1_000; elapsed <= 15_000 && backAfterMs === undefined; elapsed += 1_000) {
      await step(1_000);
      if (emulator.control.requests().slice(recovered).some((r) => isRunList(r.path) && r.status === 200)) backAfterMs = elapsed;
    }
    await dispose();
    assert.ok(backAfterMs !== undefined && backAfterMs <= 10_000, `listed again ${backAfterMs ?? 'more than 15 000'} ms after the service recovered`);
    // Probes at most every 8 s once backed off: about 40 in 300 s, not one per second.
    assert.ok(duringOutage <= 50, `${duringOutage} lists during the outage`);
  });

  test('a user action ends the outage pause at once (#14 item 12)', async () => {
    const { watcher, step, dispose } = harness();
    const demoApp = workspaceIds.get('demo-app')!;
    watcher.watchWorkspace('emulator', demoApp);
    emulator.control.injectFault({ path: /^\/api\/v2\//, kind: 'reset', times: Infinity });
    for (let elapsed = 0; elapsed < 60_000; elapsed += 1_000) await step(1_000);
    emulator.control.clearFaults();
    const recovered = emulator.control.requests().length;
    watcher.wake('emulator');
    await step(0);
    await dispose();
    assert.ok(emulator.control.requests().slice(recovered).some((r) => isRunList(r.path) && r.status === 200), 'listed at once after the user acted');
  });
});
