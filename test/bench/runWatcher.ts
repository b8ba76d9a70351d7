// The run watcher's bench (#13): 200 watched workspaces whose runs change on the emulator's clock, the built server
// watching them over stdio as an editor's views would (hcpTerraform/watchWorkspaces). Measures what the server asks
// of the service (requests per minute per endpoint against its limits: 30/s per caller, 30/min on run lists; 429s)
// and freshness: a run's state changing on the emulator → the hcpTerraform/runsChanged that reports it.
//
// Time is compressed: the emulator's run progress goes `speed` times faster and one simulated hour of run activity
// (one run per workspace, at a random minute; half of them wait for a confirmation, which another user gives within
// a simulated minute) is played in `realMinutes`. The server's cadence (list spacing,
// polls) and the service's rate windows stay in real time, so request rates are per real minute, and freshness is
// real (wall-clock) time, not scaled: a change is reported when the watcher next looks, which does not depend on the
// speed. Compression packs `speed` times more runs into each real minute than a real hour would, so request rates
// here are an upper bound. Runs queued here are new to the watcher (another caller queued them): it finds them with
// the organization's run list; the workspaces' own lists (their first list, 200 of them at 4 a minute) do not all
// come within the run, and need not.
//
// The emulator runs in this process (its store and run engine at hand): workspaces are added to the store, runs
// are queued over HTTP with another caller's token (the owners team; rate limits count per caller), and each run's
// state changes are read in-process every few milliseconds, so observing them spends none of the server's budget.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock } from '../../emulator/src/clock';
import { FaultInjector } from '../../emulator/src/http/faults';
import { RateLimiter } from '../../emulator/src/http/rateLimit';
import { RequestLog } from '../../emulator/src/http/requestLog';
import { createPipeline } from '../../emulator/src/http/server';
import { addConfigurationVersion, addWorkspace, grant } from '../../emulator/src/seeds/builders';
import { runsChangedNotification, watchWorkspacesNotification } from '../../server/src/protocol';
import type { RunsChangedParams } from '../../server/src/protocol';
import { startLspProcess } from '../helpers/lspProcess';
import { createRunsEmulator } from '../emulator/runsEmulator';
import { summary } from './client';

const organization = 'acme-bench';
const drainMs = 5_000;
const mainTf = 'resource "aws_instance" "web" {\n  ami = "ami-123"\n}\n';

export interface RunWatcherBenchOptions {
  workspaces?: number;
  realMinutes: number;
  simulatedMinutes?: number;
}

export async function runWatcherScenario(options: RunWatcherBenchOptions) {
  const workspaceCount = options.workspaces ?? 200;
  const simulatedMinutes = options.simulatedMinutes ?? 60;
  const durationMs = options.realMinutes * 60_000;
  const speed = simulatedMinutes / options.realMinutes;

  const clock = new Clock({ mode: 'real', speed });
  const { store, router, engine, tokens, people } = await createRunsEmulator(clock, organization);
  const workspaceIds: string[] = [];
  for (let i = 0; i < workspaceCount; i++) {
    // Half apply on their own (runs go to the end), half wait for a confirmation (the watcher backs off on them).
    const workspace = addWorkspace(store, organization, `service-${String(i).padStart(3, '0')}`, { createdDaysAgo: 30, autoApply: i % 2 === 0 });
    grant(people.developers, workspace, 'plan');
    addConfigurationVersion(store, workspace, 'v1', { files: new Map([['main.tf', Buffer.from(mainTf)]]) });
    workspaceIds.push(workspace.id);
  }
  const log = new RequestLog();
  const server: Server = createServer(
    createPipeline({
      store,
      router,
      rateLimiter: new RateLimiter(clock), // the service's limits
      faults: new FaultInjector(),
      log,
      control: async (_req, res) => void res.writeHead(404).end(),
      serviceHeaders: {},
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const hostname = new URL(url).host;

  // Every state each run reached, with the wall-clock time it was first seen here (in-process, every 10 ms).
  const created = new Set<string>();
  /** When each run was queued (ms after the start): the profile of the runs never reported. */
  const queuedAt = new Map<string, number>();
  const states = new Map<string, Array<{ status: string; at: number }>>();
  let confirmUntil = Infinity;
  const confirmations: Promise<unknown>[] = [];
  const observe = () => {
    const now = Date.now();
    for (const id of created) {
      const status = engine.run(id)?.status;
      const seen = states.get(id) ?? [];
      if (status && seen.at(-1)?.status !== status) {
        seen.push({ status, at: now });
        // Someone confirms a planned run in the service's UI within a minute (compressed like the runs): the watcher
        // follows it already (it polls a run awaiting confirmation, backing off to 30 s), so its apply is a change
        // to a run it knows, not a new run to find.
        if (status === 'planned' && now + 60_000 / speed < confirmUntil) confirmations.push(confirmLater(id, Math.random() * (60_000 / speed)));
      }
      states.set(id, seen);
    }
  };
  const confirmLater = async (runId: string, delayMs: number) => {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    await fetch(`${url}/api/v2/runs/${runId}/actions/apply`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tokens.team}`, 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ comment: 'bench' }),
    }).catch(() => undefined);
  };
  const observer = setInterval(observe, 10);

  const notices: Array<{ at: number; params: RunsChangedParams }> = [];
  const lsp = await startLspProcess({ initializationOptions: { address: url, token: tokens.owner } }, {}, (connection) => {
    connection.onNotification(runsChangedNotification.method, (params: RunsChangedParams) => void notices.push({ at: Date.now(), params }));
  });
  const started = Date.now();
  confirmUntil = started + durationMs;
  const queueErrors: string[] = [];
  try {
    await lsp.connection.sendNotification(watchWorkspacesNotification, { hostname, workspaceIds });
    // One run per workspace at a random moment of the (compressed) hour, queued by another caller.
    const schedule = workspaceIds.map((id) => ({ id, at: Math.random() * durationMs })).sort((a, b) => a.at - b.at);
    for (const { id, at } of schedule) {
      const wait = started + at - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const response = await fetch(`${url}/api/v2/runs`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${tokens.team}`, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'runs', attributes: { message: 'bench' }, relationships: { workspace: { data: { type: 'workspaces', id } } } } }),
      });
      const body = (await response.json().catch(() => undefined)) as { data?: { id?: string } } | undefined;
      if (response.status === 201 && body?.data?.id) {
        created.add(body.data.id);
        queuedAt.set(body.data.id, Date.now() - started);
        observe();
      } else queueErrors.push(`POST /runs answered ${response.status}`);
    }
    const rest = started + durationMs - Date.now();
    if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    await Promise.all(confirmations);
    // The runs queued (or confirmed) in the last seconds get the time the target gives them (3 s) to be reported,
    // instead of counting as never reported because the bench stopped first.
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  } finally {
    clearInterval(observer);
    await lsp.stop().catch(() => lsp.child.kill());
    clock.dispose();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
  const ended = Date.now();

  // Freshness: each (run, state) the server reported, from the moment the run reached that state.
  const reported = new Set<string>();
  const freshness = { newRun: [] as number[], followedRun: [] as number[] };
  let unmatched = 0;
  for (const { at, params } of notices) {
    for (const run of params.runs) {
      if (!created.has(run.id)) continue;
      const key = `${run.id}\u0000${run.status}`;
      if (reported.has(key)) continue;
      const isNew = ![...reported].some((k) => k.startsWith(`${run.id}\u0000`));
      reported.add(key);
      const reached = [...(states.get(run.id) ?? [])].reverse().find((state) => state.status === run.status && state.at <= at);
      if (!reached) {
        unmatched++;
        continue;
      }
      (isNew ? freshness.newRun : freshness.followedRun).push(at - reached.at);
    }
  }
  const reportedRuns = new Set([...reported].map((key) => key.split('\u0000')[0]));
  let finalStatesReached = 0;
  let finalStatesReported = 0;
  for (const [id, seen] of states) {
    const last = seen.at(-1);
    if (!last) continue;
    finalStatesReached++;
    if (reported.has(`${id}\u0000${last.status}`)) finalStatesReported++;
  }

  // What the server asked of the service (its own token), per endpoint and per real minute.
  const own = log.all().filter((entry) => entry.tokenRole === 'owner' && Date.parse(entry.time) >= started);
  const endpoint = (path: string) =>
    path
      .split('?')[0]!
      .replace(/\/(ws|run|org|cv|plan|apply|team|user|ot|at)-[A-Za-z0-9]+/g, '/$1-:id')
      .replace(/\/organizations\/[^/]+/, '/organizations/:name');
  const minutes = Math.max(1, Math.ceil((ended - started) / 60_000));
  const perEndpoint: Record<string, { total: number; perMinuteMean: number; perMinuteMax: number; perSecondMax: number }> = {};
  const byEndpoint = new Map<string, number[]>();
  for (const entry of own) {
    const key = `${entry.method} ${endpoint(entry.path)}`;
    const list = byEndpoint.get(key) ?? [];
    list.push(Date.parse(entry.time) - started);
    byEndpoint.set(key, list);
  }
  const maxPer = (times: number[], windowMs: number) => {
    const buckets = new Map<number, number>();
    for (const time of times) buckets.set(Math.floor(time / windowMs), (buckets.get(Math.floor(time / windowMs)) ?? 0) + 1);
    return Math.max(0, ...buckets.values());
  };
  for (const [key, times] of byEndpoint) {
    perEndpoint[key] = { total: times.length, perMinuteMean: Math.round((times.length / minutes) * 10) / 10, perMinuteMax: maxPer(times, 60_000), perSecondMax: maxPer(times, 1_000) };
  }
  const allTimes = own.map((entry) => Date.parse(entry.time) - started);
  // Both run lists share the service's 30 a minute, so they are counted together.
  const runListTimes = own.filter((entry) => entry.method === 'GET' && /\/(workspaces|organizations)\/[^/]+\/runs$/.test(entry.path.split('?')[0]!)).map((entry) => Date.parse(entry.time) - started);
  return {
    workspaces: workspaceCount,
    runsQueued: created.size,
    queueErrors: queueErrors.length,
    simulatedMinutes,
    realMinutes: Math.round(((ended - started) / 60_000) * 10) / 10,
    speed,
    requests: { total: own.length, perSecondMax: maxPer(allTimes, 1_000), perEndpoint },
    runLists: { total: runListTimes.length, perMinuteMean: Math.round((runListTimes.length / minutes) * 10) / 10, perMinuteMax: maxPer(runListTimes, 60_000) },
    rateLimited: own.filter((entry) => entry.status === 429).length,
    rateLimitedAnyCaller: log.all().filter((entry) => entry.status === 429).length,
    freshnessMs: { all: summary([...freshness.newRun, ...freshness.followedRun]), newRun: summary(freshness.newRun), followedRun: summary(freshness.followedRun) },
    runsReported: reportedRuns.size,
    runsNotReported: created.size - reportedRuns.size,
    // A run that reaches its end before the watcher's first look at its organization is part of the starting state.
    notReportedQueuedAtMs: [...created].filter((id) => !reportedRuns.has(id)).map((id) => queuedAt.get(id)!).sort((a, b) => a - b),
    finalStatesReached,
    finalStatesReported,
    reportsWithoutObservedState: unmatched,
  };
}
