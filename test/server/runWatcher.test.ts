// The run watcher on simulated time against the emulator: the run-list budget (30/min, shared by all workspaces and
// the organization list) is never exceeded even with 200 watched workspaces, new runs are found by one read of the
// organization's list, lists back off when nothing changes, active runs are followed through GET /runs/:id, each
// change is reported once, and a 429 pauses the host.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ServiceClient } from '../../server/src/api';
import { isFinalRunStatus } from '../../server/src/api';
import type { Run } from '../../server/src/api';
import { RunWatcher } from '../../server/src/workspaces/runWatcher';
import type { RunWatcherOptions } from '../../server/src/workspaces/runWatcherOptions';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { ManualClock } from '../helpers/manualClock';

const isRunList = (path: string) => /^\/api\/v2\/workspaces\/[^/]+\/runs(\?|$)/.test(path);
const isOrganizationRunList = (path: string) => /^\/api\/v2\/organizations\/[^/]+\/runs(\?|$)/.test(path);
/** Either list: they share the service's 30 a minute. */
const isAnyRunList = (path: string) => isRunList(path) || isOrganizationRunList(path);
/** The most requests matching `times` (ms) in any window of `windowMs` starting at one of them. */
const mostInAnyWindow = (times: number[], windowMs: number) => Math.max(0, ...times.map((start) => times.filter((t) => t >= start && t < start + windowMs).length));

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
  function harness(options: Partial<RunWatcherOptions> = {}) {
    const clock = new ManualClock(emulator.control.now().getTime());
    // One attempt per request: a 429 reaches the watcher at once instead of waiting on the manual clock.
    const client = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner, clock, retry: { maxAttempts: 1 } });
    const reports: Array<{ workspaceId: string; changed: Run[]; fromList: boolean }> = [];
    const problems: string[] = [];
    const watcher = new RunWatcher({
      ...options,
      onProblem: (message) => problems.push(message),
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
    return { clock, client, watcher, reports, problems, step, dispose };
  }

  test('200 watched workspaces: never more than 26 run lists of the watcher per minute, 30 requests a second, not one 429', async () => {
    const { watcher, step, dispose } = harness();
    const ids = [...workspaceIds.values()];
    // The emulator cannot create workspaces; the rest are ids this token cannot see (404): their organization cannot
    // be looked up, so they stay on their own lists, on the same budget.
    for (let i = ids.length; i < 200; i++) ids.push(`ws-unseen${String(i).padStart(11, '0')}`);
    const start = emulator.control.now().getTime();
    for (const id of ids) watcher.watchWorkspace('emulator', id);
    for (let elapsed = 0; elapsed < 10 * 60_000; elapsed += 500) await step(500);
    await dispose();
    const requests = emulator.control.requests();
    assert.equal(requests.filter((r) => r.status === 429).length, 0);
    const at = (r: { time: string }) => Date.parse(r.time) - start;
    const lists = requests.filter((r) => isAnyRunList(r.path));
    // 24 organization reads a minute (one every 2.5 s) and 2 workspace lists: 4 left for the views' own reads. (The
    // emulator logs a request at the end of the 500 ms step that released it, so one more can fall in a window.)
    assert.ok(mostInAnyWindow(lists.map(at), 60_000) <= 27, `${mostInAnyWindow(lists.map(at), 60_000)} run lists within a minute`);
    assert.ok(mostInAnyWindow(requests.map(at), 1_000) <= 30, `${mostInAnyWindow(requests.map(at), 1_000)} requests within a second`);
    const organizationReads = requests.filter((r) => isOrganizationRunList(r.path));
    assert.ok(organizationReads.length >= 220, `the organization list is read every 2.5 s (${organizationReads.length} in 10 min)`);
    assert.ok(organizationReads.every((r) => r.path.startsWith('/api/v2/organizations/acme-demo/runs')));
    // Each readable workspace got its first list (its starting state), and is not listed again: the organization
    // list covers it. The unreadable ones keep their turns in the rotation.
    const listedTimes = (id: string) => requests.filter((r) => isRunList(r.path) && r.path.split('/')[4] === id).length;
    for (const id of workspaceIds.values()) assert.ok(listedTimes(id) >= 1 && listedTimes(id) <= 2, `${id} listed ${listedTimes(id)} times`);
    assert.ok(requests.filter((r) => isRunList(r.path)).length >= 18, 'the other workspaces are still listed in turn (2 a minute)');
  });

  test('a quiet workspace is listed less and less often when the organization list is refused', async () => {
    const { watcher, step, dispose } = harness();
    emulator.control.injectFault({ path: /^\/api\/v2\/organizations\/[^/]+\/runs$/, kind: 'status', status: 404, times: Infinity });
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
    const counted = new Map(reports.flatMap((report) => report.changed).map((run) => [run.id, watcher.changesReported('emulator', run.id)]));
    await dispose();
    const polls = emulator.control.requests().filter((r) => /^\/api\/v2\/runs\/run-[^/?]+$/.test(r.path));
    assert.ok(polls.length > 0, 'the auto-applying run was polled');
    const changes = reports.flatMap((report) => report.changed.map((run) => `${run.id} ${run.attributes.status}`));
    assert.ok(changes.some((change) => change.endsWith(' applied')), changes.join('\n'));
    assert.equal(new Set(changes).size, changes.length, `each change once: ${changes.join(', ')}`);
    // What a details read compares to know it may be older than the news (freshRead): one count per reported change.
    const applied = changes.find((change) => change.endsWith(' applied'))!.split(' ')[0]!;
    const reportedChanges = reports.flatMap((report) => report.changed).filter((run) => run.id === applied).length;
    assert.equal(counted.get(applied), reportedChanges);
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
    const during = emulator.control.requests().filter((r) => isAnyRunList(r.path));
    assert.equal(during.length, 1, 'nothing more is listed during the pause');
    assert.equal(during[0]!.status, 429);
    for (let elapsed = 0; elapsed < 30_000; elapsed += 1_000) await step(1_000);
    await dispose();
    assert.ok(emulator.control.requests().filter((r) => isAnyRunList(r.path) && r.status === 200).length >= 1, 'listing resumes after the pause');
  });

  /** A plan-only run the service starts working on at once, on the sandbox workspace. */
  async function workingRun(): Promise<Run> {
    const creator = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
    try {
      return await creator.runs.create({ workspaceId: workspaceIds.get('sandbox')!, planOnly: true, message: 'working' });
    } finally {
      await creator.close();
    }
  }
  const statusesOf = (reports: Array<{ changed: Run[] }>, runId: string) => reports.flatMap((r) => r.changed.filter((run) => run.id === runId).map((run) => run.attributes.status));

  // Bounded: before the fix, the tick waited on a list held by the limiter until simulated time moved past the window,
  // and nothing moved it, so the test hung instead of failing.
  test('lists held back by a budget the views spent never hold up the polls of a working run', { timeout: 30_000 }, async () => {
    const { client, watcher, reports, step, dispose } = harness();
    const sandbox = workspaceIds.get('sandbox')!;
    // The views' own reads (same client, as in the server) spend the 30 run lists of this minute, a few a second (the
    // overall 30 a second stays free: a wait there would hold this harness's step).
    for (let i = 0; i < 30; i++) {
      await client.runs.listForWorkspace(sandbox, { pageSize: 1 });
      await step(100);
    }
    const spent = emulator.control.requests().length;
    const working = await workingRun();
    watcher.watchWorkspace('emulator', sandbox);
    watcher.followRun('emulator', sandbox, working.id);
    for (let elapsed = 0; elapsed < 30_000; elapsed += 500) await step(500);
    const during = emulator.control.requests().slice(spent);
    assert.ok(statusesOf(reports, working.id).includes('planned_and_finished'), `the run's end was seen: ${statusesOf(reports, working.id).join(', ')}`);
    assert.equal(during.filter((r) => isAnyRunList(r.path)).length, 0, 'no list was sent into a spent budget');
    assert.equal(during.filter((r) => r.status === 429).length, 0);
    // The budget frees 63 s after the views' reads (the window and its margin): the watcher lists then.
    for (let elapsed = 0; elapsed < 40_000; elapsed += 500) await step(500);
    await dispose();
    assert.ok(emulator.control.requests().slice(spent).some((r) => isAnyRunList(r.path) && r.status === 200), 'the lists resume once the budget has room');
  });

  test('a run someone asked to follow is read until it ends, even once its workspace is no longer watched', async () => {
    const { watcher, reports, step, dispose } = harness();
    const sandbox = workspaceIds.get('sandbox')!;
    const working = await workingRun();
    watcher.watchWorkspace('emulator', sandbox); // pinned…
    watcher.followRun('emulator', sandbox, working.id); // …and a plan the user queued there
    await step(500);
    watcher.unwatchWorkspace('emulator', sandbox); // unpinned while the plan runs
    for (let elapsed = 0; elapsed < 30_000; elapsed += 500) await step(500);
    await dispose();
    assert.ok(statusesOf(reports, working.id).includes('planned_and_finished'), `the run's end was seen: ${statusesOf(reports, working.id).join(', ')}`);
  });

  test("a view's read waiting for the run-list budget gets the freed slot before the watcher's list", async () => {
    const { client, watcher, step, dispose } = harness();
    const sandbox = workspaceIds.get('sandbox')!;
    const legacy = workspaceIds.get('legacy-batch')!;
    for (let i = 0; i < 30; i++) {
      await client.runs.listForWorkspace(sandbox, { pageSize: 1 });
      await step(100);
    }
    // The watcher plans its first list for the moment the budget frees…
    watcher.watchWorkspace('emulator', legacy);
    await step(500);
    // …and then a view asks for a page, which waits in the limiter for that same moment.
    const viewRead = client.runs.listForWorkspace(sandbox, { pageSize: 7 });
    for (let elapsed = 0; elapsed < 70_000; elapsed += 500) await step(500);
    await viewRead;
    await dispose();
    const lists = emulator.control.requests().filter((r) => isAnyRunList(r.path)).slice(30);
    assert.ok(lists.length >= 2, `${lists.length} lists after the budget freed`);
    assert.match(lists[0]!.path, /page%5Bsize%5D=7|page\[size\]=7/, `the view's read went first, not ${lists[0]!.path}`);
    assert.equal(emulator.control.requests().filter((r) => r.status === 429).length, 0);
  });

  test('a 429 on a run list pauses the lists; a working run is still read every second', async () => {
    const { watcher, reports, step, dispose } = harness();
    const sandbox = workspaceIds.get('sandbox')!;
    const working = await workingRun();
    // After the run is queued (POST /runs would take the fault): the watcher's first list gets the 429.
    emulator.control.injectFault({ path: /\/runs$/, kind: 'rate-limit', times: 1 });
    watcher.watchWorkspace('emulator', sandbox);
    watcher.followRun('emulator', sandbox, working.id);
    for (let elapsed = 0; elapsed < 30_000; elapsed += 500) await step(500);
    await dispose();
    const lists = emulator.control.requests().filter((r) => isAnyRunList(r.path));
    assert.deepEqual(lists.map((r) => r.status), [429], 'nothing more is listed during the pause');
    assert.ok(statusesOf(reports, working.id).includes('planned_and_finished'), `the run's end was seen: ${statusesOf(reports, working.id).join(', ')}`);
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
    const duringOutage = emulator.control.requests().slice(outageStart).filter((r) => isAnyRunList(r.path)).length;
    emulator.control.clearFaults();
    const recovered = emulator.control.requests().length;
    let backAfterMs: number | undefined;
    for (let elapsed = 1_000; elapsed <= 15_000 && backAfterMs === undefined; elapsed += 1_000) {
      await step(1_000);
      if (emulator.control.requests().slice(recovered).some((r) => isAnyRunList(r.path) && r.status === 200)) backAfterMs = elapsed;
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
    assert.ok(emulator.control.requests().slice(recovered).some((r) => isAnyRunList(r.path) && r.status === 200), 'listed at once after the user acted');
  });

  describe('new runs through the organization list', () => {
    /** Queues a run as another user would (VCS, the service's UI): the watcher is not told. */
    async function queueElsewhere(workspaceName: string): Promise<Run> {
      const other = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
      try {
        return await other.runs.create({ workspaceId: workspaceIds.get(workspaceName)!, message: 'queued elsewhere', autoApply: false });
      } finally {
        await other.close();
      }
    }
    const sinceIndex = (index: number) => emulator.control.requests().slice(index);

    test('a run queued outside the editor is reported after one organization read, without listing its workspace', async () => {
      const { watcher, reports, step, dispose } = harness();
      // legacy-batch: a new run goes through its plan to an error, so it has states to follow.
      const legacyBatch = workspaceIds.get('legacy-batch')!;
      watcher.watchWorkspace('emulator', legacyBatch);
      watcher.watchWorkspace('emulator', workspaceIds.get('demo-app')!);
      // The first lists and a first organization read: the starting state.
      for (let elapsed = 0; elapsed < 20_000; elapsed += 500) await step(500);
      const mark = emulator.control.requests().length;
      const run = await queueElsewhere('legacy-batch');
      let reported: (typeof reports)[number] | undefined;
      for (let elapsed = 0; elapsed < 10_000 && !reported; elapsed += 500) {
        await step(500);
        reported = reports.find((report) => report.changed.some((changed) => changed.id === run.id));
      }
      assert.ok(reported, 'the new run was reported');
      assert.equal(reported.workspaceId, legacyBatch);
      assert.equal(reported.fromList, false, 'found by the organization list');
      const between = sinceIndex(mark);
      assert.equal(between.filter((r) => isOrganizationRunList(r.path)).length, 1, 'one organization read found it');
      assert.equal(between.filter((r) => isRunList(r.path)).length, 0, 'no workspace was listed for it');
      // From then on it is followed like any run the watcher found: through GET /runs/:id, each change once.
      for (let elapsed = 0; elapsed < 30_000; elapsed += 1_000) await step(1_000);
      await dispose();
      assert.ok(sinceIndex(mark).some((r) => r.path === `/api/v2/runs/${run.id}`), 'the new run is polled');
      const changes = reports.flatMap((report) => report.changed.filter((changed) => changed.id === run.id).map((changed) => changed.attributes.status));
      assert.ok(changes.length >= 2 && new Set(changes).size === changes.length, `each state once: ${changes.join(', ')}`);
    });

    test('a run confirmed elsewhere while its poll is backed off is seen by the next organization read, then read every second', async () => {
      const { watcher, reports, step, dispose } = harness();
      const demoApp = workspaceIds.get('demo-app')!;
      watcher.watchWorkspace('emulator', demoApp);
      // Its run awaiting confirmation is followed, backing off towards 30 s between reads.
      for (let elapsed = 0; elapsed < 90_000; elapsed += 500) await step(500);
      const lookup = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner });
      const awaiting = (await lookup.runs.listForWorkspace(demoApp, { pageSize: 10 })).items.find((run) => run.attributes.actions?.['is-confirmable'] === true)!;
      await lookup.close();
      assert.ok(awaiting, 'the demo has a run awaiting confirmation');
      const other = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
      await other.runs.apply(awaiting.id, { comment: 'confirmed in the service' });
      await other.close();
      const mark = emulator.control.requests().length;
      let seenAfter: number | undefined;
      for (let elapsed = 500; elapsed <= 10_000 && seenAfter === undefined; elapsed += 500) {
        await step(500);
        if (reports.some((report) => report.changed.some((run) => run.id === awaiting.id && run.attributes.status !== awaiting.attributes.status))) seenAfter = elapsed;
      }
      for (let elapsed = 0; elapsed < 5_000; elapsed += 500) await step(500);
      await dispose();
      assert.ok(seenAfter !== undefined && seenAfter <= 3_000, `the confirmation was seen ${seenAfter ?? 'more than 10 000'} ms later`);
      const polls = sinceIndex(mark).filter((r) => r.path === `/api/v2/runs/${awaiting.id}`).map((r) => Date.parse(r.time));
      const gaps = polls.slice(1).map((time, index) => time - polls[index]!);
      assert.ok(polls.length >= 3 && gaps.every((gap) => gap <= 1_500), `read at gaps of ${gaps.join(', ')} ms after it moved`);
    });

    test('a workspace a view asks for gets its starting runs from the next organization read, not after its list\'s turn', async () => {
      const { watcher, reports, step, dispose } = harness();
      watcher.watchWorkspace('emulator', workspaceIds.get('demo-app')!);
      for (let elapsed = 0; elapsed < 10_000; elapsed += 500) await step(500);
      // The workspace lists' turn is taken (2 a minute while the organization list goes).
      const stagingApi = workspaceIds.get('staging-api')!;
      watcher.watchWorkspace('emulator', stagingApi, { reportFirstList: true });
      let first: (typeof reports)[number] | undefined;
      for (let elapsed = 500; elapsed <= 10_000 && !first; elapsed += 500) {
        await step(500);
        first = reports.find((report) => report.workspaceId === stagingApi && report.changed.length > 0);
      }
      await dispose();
      assert.ok(first, 'the starting runs were reported');
      assert.equal(first.fromList, false, 'by the organization read');
      assert.ok(first.changed.some((run) => !isFinalRunStatus(run.attributes.status)), 'with the live run');
      assert.equal(emulator.control.requests().filter((r) => isRunList(r.path) && r.path.split('/')[4] === stagingApi).length, 0, 'before its own list');
    });

    test('runs of workspaces nobody watches are ignored', async () => {
      const { watcher, reports, step, dispose } = harness();
      watcher.watchWorkspace('emulator', workspaceIds.get('sandbox')!);
      for (let elapsed = 0; elapsed < 20_000; elapsed += 500) await step(500);
      const mark = emulator.control.requests().length;
      const unwatched = await queueElsewhere('legacy-batch');
      const watched = await queueElsewhere('sandbox');
      for (let elapsed = 0; elapsed < 20_000; elapsed += 500) await step(500);
      await dispose();
      const reportedIds = new Set(reports.flatMap((report) => report.changed.map((run) => run.id)));
      assert.ok(reportedIds.has(watched.id), 'the watched workspace\'s run is reported');
      assert.ok(!reportedIds.has(unwatched.id), 'the other workspace\'s run is not');
      assert.ok(reports.every((report) => report.workspaceId === workspaceIds.get('sandbox')), 'reports name only the watched workspace');
      assert.ok(!sinceIndex(mark).some((r) => r.path.includes(unwatched.id)), 'nor is it polled');
    });

    test('two organizations share the budget: each is read in turn, no faster together than one alone', async () => {
      const { watcher, reports, step, dispose } = harness();
      const lookup = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner });
      const helloWorld = (await lookup.workspaces.list('acme-free', { pageSize: 10 })).items.find((w) => w.attributes.name === 'hello-world')!;
      await lookup.close();
      watcher.watchWorkspace('emulator', workspaceIds.get('demo-app')!);
      watcher.watchWorkspace('emulator', helloWorld.id);
      const start = emulator.control.now().getTime();
      for (let elapsed = 0; elapsed < 20_000; elapsed += 500) await step(500);
      // A run in the free organization's workspace is found by that organization's read (within two spacings, 5 s). Its
      // user queues it elsewhere (the owners team of acme-demo has no access there).
      const other = new ServiceClient({ address: emulator.url, token: emulator.tokens.owner });
      const run = await other.runs.create({ workspaceId: helloWorld.id, message: 'queued elsewhere' });
      await other.close();
      let foundAfter: number | undefined;
      for (let elapsed = 500; elapsed <= 10_000 && foundAfter === undefined; elapsed += 500) {
        await step(500);
        if (reports.some((report) => report.changed.some((changed) => changed.id === run.id))) foundAfter = elapsed;
      }
      for (let elapsed = 0; elapsed < 3 * 60_000; elapsed += 500) await step(500);
      await dispose();
      assert.ok(foundAfter !== undefined && foundAfter <= 5_500, `found ${foundAfter ?? 'not within 10 000'} ms after it was queued`);
      const reads = emulator.control.requests().filter((r) => isOrganizationRunList(r.path));
      const times = (organization: string) => reads.filter((r) => r.path.startsWith(`/api/v2/organizations/${organization}/`)).map((r) => Date.parse(r.time) - start);
      const demo = times('acme-demo');
      const free = times('acme-free');
      // Together one read every 2.5 s (24 a minute), so each organization every 5 s.
      assert.ok(mostInAnyWindow([...demo, ...free].sort((a, b) => a - b), 60_000) <= 25, `${mostInAnyWindow([...demo, ...free], 60_000)} organization reads in a minute`);
      for (const [name, list] of [['acme-demo', demo], ['acme-free', free]] as const) {
        assert.ok(list.length >= 30, `${name} read ${list.length} times in 3 min 20 s`);
        const gaps = list.slice(1).map((time, index) => time - list[index]!);
        assert.ok(gaps.every((gap) => gap >= 4_500), `${name} read at gaps of ${gaps.join(', ')} ms`);
      }
    });

    test('a refused organization list falls back to each workspace\'s own list, and is not asked again for 10 minutes', async () => {
      const { watcher, reports, problems, step, dispose } = harness();
      // A token that may read the workspaces but not the organization's runs.
      emulator.control.injectFault({ path: /^\/api\/v2\/organizations\/[^/]+\/runs$/, kind: 'status', status: 404, times: Infinity });
      const sandbox = workspaceIds.get('sandbox')!;
      watcher.watchWorkspace('emulator', sandbox);
      watcher.watchWorkspace('emulator', workspaceIds.get('demo-app')!);
      for (let elapsed = 0; elapsed < 20_000; elapsed += 500) await step(500);
      const run = await queueElsewhere('sandbox');
      let reported: (typeof reports)[number] | undefined;
      for (let elapsed = 0; elapsed < 5 * 60_000 && !reported; elapsed += 1_000) {
        await step(1_000);
        reported = reports.find((report) => report.changed.some((changed) => changed.id === run.id));
      }
      for (let elapsed = 0; elapsed < 4 * 60_000; elapsed += 1_000) await step(1_000);
      await dispose();
      assert.ok(reported, 'the new run was found');
      assert.equal(reported.fromList, true, 'by its workspace\'s list');
      const refused = emulator.control.requests().filter((r) => isOrganizationRunList(r.path));
      assert.equal(refused.length, 1, 'asked once within 10 minutes');
      assert.equal(problems.filter((problem) => problem.includes('acme-demo')).length, 1, problems.join('\n'));
      assert.ok(emulator.control.requests().filter((r) => isRunList(r.path)).length >= 4, 'the workspaces are listed in turn');
    });

    test('more new runs than a page between two reads: each workspace of the organization is listed', async () => {
      const { watcher, step, dispose } = harness({ organizationPageSize: 2 });
      const sandbox = workspaceIds.get('sandbox')!;
      watcher.watchWorkspace('emulator', sandbox);
      for (let elapsed = 0; elapsed < 60_000; elapsed += 500) await step(500);
      const mark = emulator.control.requests().length;
      // Three runs elsewhere in the organization: a page of two shows none the last read saw.
      for (const name of ['staging-api', 'legacy-batch', 'prod-network']) await queueElsewhere(name);
      for (let elapsed = 0; elapsed < 20_000; elapsed += 500) await step(500);
      await dispose();
      assert.ok(sinceIndex(mark).some((r) => isRunList(r.path) && r.path.split('/')[4] === sandbox), 'sandbox listed again');
    });
  });
});
