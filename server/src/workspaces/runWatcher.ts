// Keeps the runs a user can see fresh within the service's limits (spec §8): per host (one token, one budget),
//  - NEW runs (queued outside the editor: VCS, another user) are found with the ORGANIZATION's run list, newest
//    first, one page of `organizationPageSize` (100, the service's maximum): one read finds a new run in any watched
//    workspace of that organization, where listing each workspace in turn found it only on its turn (every 10 min
//    with 200 workspaces sharing 30 lists a minute). Reads go at most once per `organizationReadSpacingMs` (2.5 s →
//    24/min) per host, round robin over the organizations that have watched workspaces, so with N organizations each
//    is read every 2.5·N s (a new run is reported within about 2.5·N s; the budget, not the freshness, is what is
//    fixed). 2.5 s rather than 3: a change waits for the next read, so its p99 is the spacing plus one answer, and
//    the target is 3 s. The read also shows the current state of every listed run, so a change to a run the watcher
//    follows with a backed-off poll (one awaiting a confirmation that someone gives elsewhere) is seen as soon;
//  - each workspace's OWN run list (the same 30/min budget: both lists share it) is still read where it is needed:
//    once when the workspace is first watched (its starting state, complete for the views; it also finds an old
//    active run beyond the organization page), when a command pokes it, and for every workspace the organization
//    list does not cover (its organization not known yet, or the list refused with 403/404, for a token that may read
//    the workspace but not the organization's runs; refused organizations are tried again after 10 min or a new
//    token). While organization reads go, these lists are spaced `coveredListSpacingMs` (30 s → 2/min) apart, so
//    200 first lists take 100 min (the organization list reports new runs meanwhile); with none, `listSpacingMs`
//    (3 s → 20/min) as before, a quiet workspace waiting longer each time (15 s doubling to 5 min). Together at most
//    26 run lists a minute, leaving 4 for the views' own list reads (the client's limiter queues them past 30).
//    The watcher's own lists never queue there: each starts only when the budget has room now, and runs beside the
//    polls, so a user paging through the views delays the lists, never the reads of a run someone waits on;
//  - a workspace's organization is read once from GET /workspaces/:id (general budget), or learned when the
//    organization's list shows one of its runs;
//  - ACTIVE runs (non-final) through GET /runs/:id (30/s budget): every 1 s while the service works on them (so a
//    plan's end reaches the code within a second), ×1.5 up to 30 s while they wait for a person or their turn (or
//    stay unchanged for 30 reads), and at most `maxRunPollsPerSecond` per host (workspace lookups included);
//  - a service that does not answer (network, timeout, 5xx, a proxy's error page) pauses the whole host,
//    1 s doubling to `outageBackoff.maxMs` (8 s): the watcher is back within 10 s of the service's recovery, and at
//    once when the user acts (wake); other errors back off per workspace/run/organization; a 429 (after the client's
//    own retries) pauses for a minute what spends its budget: on a run list, the lists (another window or tool with
//    the same token may have spent them), elsewhere the whole host.
// Each change (status or action flags) is reported once, through onRuns(…, changed).
import type { Run } from '../api';
import { nextOrganization } from './organizationRunReads';
import { runSignature } from './runSummary';
import type { RunWatcherOptions, WatchContext, WatchSettings } from './runWatcherOptions';
import { watchSettings } from './runWatcherOptions';
import { listWorkspace, lookUpOrganization, pollRun, readOrganization } from './runWatcherReads';
import type { Timers } from './timers';
import { isCovered, newHostState, readableOrganizations, watchedOrganizations } from './watchedHost';
import type { HostState } from './watchedHost';
import { rateLimitPauseMs } from './watchFailures';

export class RunWatcher {
  private readonly hosts = new Map<string, HostState>();
  private readonly timers: Timers;
  private readonly settings: WatchSettings;
  /** What the reads (runWatcherReads.ts) are handed of this watcher. */
  private readonly context: WatchContext;
  private disposed = false;

  constructor(private readonly options: RunWatcherOptions) {
    this.timers = options.timers;
    this.settings = watchSettings(options);
    this.context = { timers: this.timers, settings: this.settings, options };
  }

  /** Starts listing a workspace's runs (first list as soon as the host's list spacing allows). */
  watchWorkspace(hostname: string, workspaceId: string, options: { reportFirstList?: boolean } = {}): void {
    const host = this.host(hostname);
    if (!host.workspaces.has(workspaceId)) {
      const now = this.timers.now();
      host.workspaces.set(workspaceId, {
        nextListAt: now,
        intervalMs: this.settings.listInterval.baseMs,
        listedOnce: false,
        seq: ++host.watchSeq,
        lookupAt: now,
        ...(options.reportFirstList ? { reportFirstList: true } : {}),
      });
      this.schedule(host);
    }
  }

  unwatchWorkspace(hostname: string, workspaceId: string): void {
    const host = this.hosts.get(hostname);
    if (!host) return;
    host.workspaces.delete(workspaceId);
    for (const [runId, watch] of host.runs) if (watch.workspaceId === workspaceId && !watch.asked) host.runs.delete(runId);
    this.schedule(host);
  }

  /** The host's token changed (signed in): end a sign-in or rate-limit pause and look again now. */
  resume(hostname: string): void {
    const host = this.hosts.get(hostname);
    if (!host) return;
    host.pausedUntil = 0;
    host.listsPausedUntil = 0;
    // Another token may read what this one could not.
    for (const organization of host.organizations.values()) organization.refusedUntil = 0;
    for (const watch of host.workspaces.values()) {
      if (watch.organization === null) {
        watch.organization = undefined;
        watch.lookupAt = 0;
      }
    }
    host.timer?.cancel();
    host.timer = undefined;
    host.timerDue = undefined;
    this.schedule(host);
  }

  /**
   * The user acted (a view refreshed, a command ran): end a pause for an unanswering service and look at every
   * watched workspace now, instead of waiting out the backoff. A rate-limit pause stays: the service asked for it.
   */
  wake(hostname: string): void {
    const host = this.hosts.get(hostname);
    if (!host) return;
    const now = this.timers.now();
    // After an outage the user's action is the news to act on: the next list goes now, not after the list spacing.
    if (host.outageMs > 0) {
      host.lastListAt = -Infinity;
      host.lastOrganizationReadAt = -Infinity;
    }
    host.outageUntil = 0;
    // A workspace the organization list covers is looked at by the next organization read (within its spacing):
    // listing each of them again would spend the whole budget for nothing.
    for (const watch of host.workspaces.values()) if (!isCovered(host, watch, now) || !watch.listedOnce) watch.nextListAt = Math.min(watch.nextListAt, now);
    host.timer?.cancel();
    host.timer = undefined;
    host.timerDue = undefined;
    this.schedule(host);
  }

  watchedWorkspaces(hostname: string): string[] {
    return [...(this.hosts.get(hostname)?.workspaces.keys() ?? [])];
  }

  /** Polls a run until it is final (a run the user just queued or acted on). `known`: its state as last read. */
  followRun(hostname: string, workspaceId: string, runId: string, known?: Run): void {
    const host = this.host(hostname);
    if (known) host.signatures.set(runId, runSignature(known));
    host.runs.set(runId, { workspaceId, nextPollAt: this.timers.now() + this.settings.runInterval.baseMs, intervalMs: this.settings.runInterval.baseMs, asked: true });
    this.schedule(host);
  }

  /**
   * How many changes of the run were reported so far: a reader that saw this number move while it read the run knows
   * a newer state may already be with the client (see freshRead).
   */
  changesReported(hostname: string, runId: string): number {
    return this.hosts.get(hostname)?.changeCounts.get(runId) ?? 0;
  }

  /** Something changed on the workspace (a command ran): list it at the next opportunity. */
  pokeWorkspace(hostname: string, workspaceId: string): void {
    const watch = this.hosts.get(hostname)?.workspaces.get(workspaceId);
    if (!watch) return;
    watch.nextListAt = this.timers.now();
    watch.intervalMs = this.settings.listInterval.baseMs;
    this.wake(hostname);
  }

  /** Resolves once no poll or list is in flight (tests step simulated time and wait for the work it released). */
  async whenIdle(): Promise<void> {
    for (;;) {
      const busy = [...this.hosts.values()].flatMap((host) => [host.busy, host.listing, host.readingOrganization]).filter((p): p is Promise<void> => p !== undefined);
      if (busy.length === 0) return;
      await Promise.all(busy);
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const host of this.hosts.values()) host.timer?.cancel();
    this.hosts.clear();
  }

  // ---- scheduling ----

  private host(hostname: string): HostState {
    let host = this.hosts.get(hostname);
    if (!host) {
      host = newHostState(hostname);
      this.hosts.set(hostname, host);
    }
    return host;
  }

  private nextDue(host: HostState): number | undefined {
    let due: number | undefined;
    const consider = (time: number) => {
      if (Number.isFinite(time)) due = due === undefined ? time : Math.min(due, time);
    };
    const now = this.timers.now();
    const organizations = readableOrganizations(host, now);
    const listSpacing = organizations.length > 0 ? this.settings.coveredListSpacingMs : this.settings.listSpacingMs;
    const listsFrom = now + this.listsWait(host, now);
    for (const watch of host.workspaces.values()) {
      // A list in flight schedules the host again when it ends.
      if (!host.listing) consider(Math.max(watch.nextListAt, host.lastListAt + listSpacing, listsFrom));
      if (watch.organization === undefined) consider(watch.lookupAt);
    }
    if (!host.readingOrganization) {
      for (const name of watchedOrganizations(host)) {
        const organization = host.organizations.get(name)!;
        consider(Math.max(host.lastOrganizationReadAt + this.settings.organizationReadSpacingMs, organization.refusedUntil, organization.retryAt, listsFrom));
      }
    }
    for (const watch of host.runs.values()) consider(watch.nextPollAt);
    return due === undefined ? undefined : Math.max(due, host.pausedUntil, host.outageUntil);
  }

  private schedule(host: HostState): void {
    if (this.disposed || host.busy) return; // a busy host reschedules itself when its tick ends
    const due = this.nextDue(host);
    if (due === undefined) {
      host.timer?.cancel();
      host.timer = undefined;
      return;
    }
    if (host.timer && host.timerDue !== undefined && host.timerDue <= due) return;
    host.timer?.cancel();
    host.timerDue = due;
    host.timer = this.timers.setTimer(Math.max(0, due - this.timers.now()), () => {
      host.timer = undefined;
      host.timerDue = undefined;
      host.busy = this.tick(host)
        .catch((error: unknown) => this.options.onProblem?.(`Watching runs failed, will retry: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => {
          host.busy = undefined;
          this.schedule(host);
        });
    });
  }

  private async tick(host: HostState): Promise<void> {
    const now = this.timers.now();
    if (now < host.pausedUntil || now < host.outageUntil) return;
    const client = this.options.clientFor(host.hostname);
    if (!client) {
      // Signed out: look again later, without requests.
      host.pausedUntil = now + rateLimitPauseMs;
      return;
    }
    const work: Promise<void>[] = [];
    const duePolls = [...host.runs].filter(([, watch]) => watch.nextPollAt <= now).sort((a, b) => a[1].nextPollAt - b[1].nextPollAt);
    host.pollTimes = host.pollTimes.filter((time) => time > now - 1_000);
    for (const [runId, watch] of duePolls) {
      if (host.pollTimes.length >= this.settings.maxRunPollsPerSecond) {
        watch.nextPollAt = now + 1_000;
        continue;
      }
      host.pollTimes.push(now);
      work.push(pollRun(this.context, client, host, runId, watch));
    }
    // Organization lookups after the polls, on what is left of the same per-second allowance.
    for (const [workspaceId, watch] of host.workspaces) {
      if (watch.organization !== undefined || watch.lookupAt > now) continue;
      if (host.pollTimes.length >= this.settings.maxRunPollsPerSecond) {
        watch.lookupAt = now + 1_000;
        continue;
      }
      host.pollTimes.push(now);
      work.push(lookUpOrganization(this.context, client, host, workspaceId, watch));
    }
    const organizations = readableOrganizations(host, now);
    // Each list starts only when its budget has room now (the views may have spent it): queued behind the limiter,
    // it would only push the user's own reads back. It is tried again when the budget frees (nextDue).
    if (!host.readingOrganization && now >= host.lastOrganizationReadAt + this.settings.organizationReadSpacingMs && this.listsWait(host, now) === 0) {
      const next = nextOrganization(host.organizations, organizations, now);
      if (next) {
        host.lastOrganizationReadAt = now;
        host.readingOrganization = this.besideTicks(host, readOrganization(this.context, client, host, next, host.organizations.get(next)!), () => (host.readingOrganization = undefined));
      }
    }
    const listSpacing = organizations.length > 0 ? this.settings.coveredListSpacingMs : this.settings.listSpacingMs;
    if (!host.listing && now >= host.lastListAt + listSpacing && this.listsWait(host, now) === 0) {
      const next = [...host.workspaces].filter(([, watch]) => watch.nextListAt <= now).sort((a, b) => a[1].nextListAt - b[1].nextListAt)[0];
      if (next) {
        host.lastListAt = now;
        host.listing = this.besideTicks(host, listWorkspace(this.context, client, host, next[0], next[1]), () => (host.listing = undefined));
      }
    }
    await Promise.all(work);
  }

  /** How long the run lists must wait now: a 429's pause, the client's limiter, or reads of the views waiting there. */
  private listsWait(host: HostState, now: number): number {
    const client = this.options.clientFor(host.hostname);
    return Math.max(0, host.listsPausedUntil - now, client ? client.backgroundDelay('run-list') : 0);
  }

  /** Runs a list beside the ticks; when it ends, `done` clears its slot and the host is scheduled again. */
  private besideTicks(host: HostState, work: Promise<void>, done: () => void): Promise<void> {
    return work
      .catch((error: unknown) => this.options.onProblem?.(`Watching runs failed, will retry: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        done();
        this.schedule(host);
      });
  }
}
