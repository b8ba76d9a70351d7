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
import type { Run, ServiceClient } from '../api';
import { allRunOperations, isApiError, isFinalRunStatus, RateLimitedError, relatedId, ServiceError } from '../api';
import { mayHaveSkippedRuns, newestCreatedAt, newOrganizationWatch, nextOrganization, runsByWatchedWorkspace } from './organizationRunReads';
import type { OrganizationWatch } from './organizationRunReads';
import { runSignature } from './runSummary';
import type { Timers } from './timers';
import { awaitsSomeone, isCovered, markAnswered, newHostState, readableOrganizations, recordRuns, startsView, watchedOrganizations } from './watchedHost';
import type { HostState, RunWatch, WorkspaceWatch } from './watchedHost';

export interface RunWatcherOptions {
  timers: Timers;
  clientFor(hostname: string): ServiceClient | undefined;
  /**
   * `runs`: every run this fetch returned (for knowledge); `changed`: those whose status or actions changed;
   * `fromList`: a workspace list (the newest runs) rather than one run's poll.
   */
  onRuns(hostname: string, workspaceId: string, runs: Run[], changed: Run[], fromList: boolean): void;
  onProblem?(message: string): void;
  listSpacingMs?: number;
  listInterval?: { baseMs: number; maxMs: number };
  runInterval?: { baseMs: number; maxMs: number };
  maxRunPollsPerSecond?: number;
  /** Runs per list request (the newest ones). */
  listPageSize?: number;
  /** Least time between two organization run lists of a host (default 2.5 s: 24 a minute). */
  organizationReadSpacingMs?: number;
  /** Runs per organization list (default 100, the service's maximum page size). */
  organizationPageSize?: number;
  /** Least time between two workspace run lists while organization lists go (default 30 s: 2 a minute). */
  coveredListSpacingMs?: number;
  /** Host pause while the service does not answer: base doubling to max (default 1 s to 8 s). */
  outageBackoff?: { baseMs: number; maxMs: number };
}

const rateLimitPauseMs = 60_000;
/** A refused organization list is tried again after this (or at once with a new token). */
const organizationRefusalMs = 600_000;
/** A workspace whose organization could not be looked up (other than 404) is looked up again after this. */
const lookupRetryMs = 60_000;
/** Unchanged polls of a working run at the base cadence before it backs off like a waiting one. */
const maxQuietPollsAtBase = 30;

export class RunWatcher {
  private readonly hosts = new Map<string, HostState>();
  private readonly timers: Timers;
  private readonly listSpacingMs: number;
  private readonly coveredListSpacingMs: number;
  private readonly organizationReadSpacingMs: number;
  private readonly organizationPageSize: number;
  private readonly listInterval: { baseMs: number; maxMs: number };
  private readonly runInterval: { baseMs: number; maxMs: number };
  private readonly maxRunPollsPerSecond: number;
  private readonly outageBackoff: { baseMs: number; maxMs: number };
  private disposed = false;

  constructor(private readonly options: RunWatcherOptions) {
    this.timers = options.timers;
    this.listSpacingMs = options.listSpacingMs ?? 3_000;
    this.coveredListSpacingMs = options.coveredListSpacingMs ?? 30_000;
    this.organizationReadSpacingMs = options.organizationReadSpacingMs ?? 2_500;
    this.organizationPageSize = options.organizationPageSize ?? 100;
    this.listInterval = options.listInterval ?? { baseMs: 15_000, maxMs: 300_000 };
    this.runInterval = options.runInterval ?? { baseMs: 1_000, maxMs: 30_000 };
    this.maxRunPollsPerSecond = options.maxRunPollsPerSecond ?? 10;
    this.outageBackoff = options.outageBackoff ?? { baseMs: 1_000, maxMs: 8_000 };
  }

  /** Starts listing a workspace's runs (first list as soon as the host's list spacing allows). */
  watchWorkspace(hostname: string, workspaceId: string, options: { reportFirstList?: boolean } = {}): void {
    const host = this.host(hostname);
    if (!host.workspaces.has(workspaceId)) {
      const now = this.timers.now();
      host.workspaces.set(workspaceId, {
        nextListAt: now,
        intervalMs: this.listInterval.baseMs,
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
    host.runs.set(runId, { workspaceId, nextPollAt: this.timers.now() + this.runInterval.baseMs, intervalMs: this.runInterval.baseMs, asked: true });
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
    watch.intervalMs = this.listInterval.baseMs;
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
    const listSpacing = organizations.length > 0 ? this.coveredListSpacingMs : this.listSpacingMs;
    const listsFrom = now + this.listsWait(host, now);
    for (const watch of host.workspaces.values()) {
      // A list in flight schedules the host again when it ends.
      if (!host.listing) consider(Math.max(watch.nextListAt, host.lastListAt + listSpacing, listsFrom));
      if (watch.organization === undefined) consider(watch.lookupAt);
    }
    if (!host.readingOrganization) {
      for (const name of watchedOrganizations(host)) {
        const organization = host.organizations.get(name)!;
        consider(Math.max(host.lastOrganizationReadAt + this.organizationReadSpacingMs, organization.refusedUntil, organization.retryAt, listsFrom));
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
      if (host.pollTimes.length >= this.maxRunPollsPerSecond) {
        watch.nextPollAt = now + 1_000;
        continue;
      }
      host.pollTimes.push(now);
      work.push(this.pollRun(client, host, runId, watch));
    }
    // Organization lookups after the polls, on what is left of the same per-second allowance.
    for (const [workspaceId, watch] of host.workspaces) {
      if (watch.organization !== undefined || watch.lookupAt > now) continue;
      if (host.pollTimes.length >= this.maxRunPollsPerSecond) {
        watch.lookupAt = now + 1_000;
        continue;
      }
      host.pollTimes.push(now);
      work.push(this.lookUpOrganization(client, host, workspaceId, watch));
    }
    const organizations = readableOrganizations(host, now);
    // Each list starts only when its budget has room now (the views may have spent it): queued behind the limiter,
    // it would only push the user's own reads back. It is tried again when the budget frees (nextDue).
    if (!host.readingOrganization && now >= host.lastOrganizationReadAt + this.organizationReadSpacingMs && this.listsWait(host, now) === 0) {
      const next = nextOrganization(host.organizations, organizations, now);
      if (next) {
        host.lastOrganizationReadAt = now;
        host.readingOrganization = this.besideTicks(host, this.readOrganization(client, host, next, host.organizations.get(next)!), () => (host.readingOrganization = undefined));
      }
    }
    const listSpacing = organizations.length > 0 ? this.coveredListSpacingMs : this.listSpacingMs;
    if (!host.listing && now >= host.lastListAt + listSpacing && this.listsWait(host, now) === 0) {
      const next = [...host.workspaces].filter(([, watch]) => watch.nextListAt <= now).sort((a, b) => a[1].nextListAt - b[1].nextListAt)[0];
      if (next) {
        host.lastListAt = now;
        host.listing = this.besideTicks(host, this.listWorkspace(client, host, next[0], next[1]), () => (host.listing = undefined));
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

  private async listWorkspace(client: ServiceClient, host: HostState, workspaceId: string, watch: WorkspaceWatch): Promise<void> {
    try {
      // Every operation, so plan-only runs (plan local changes) are seen too; only the newest page matters here.
      const page = await client.runs.listForWorkspace(workspaceId, { pageSize: this.options.listPageSize ?? 10, operations: [...allRunOperations] });
      if (host.workspaces.get(workspaceId) !== watch) return;
      const firstForView = startsView(watch);
      const recorded = recordRuns(host, page.items, watch.listedOnce || firstForView);
      // A view starts from this list: every run of it is pushed.
      const changed = firstForView ? page.items : recorded;
      if (changed.some((run) => isFinalRunStatus(run.attributes.status))) this.queueMoved(host, workspaceId);
      for (const run of page.items) {
        if (!isFinalRunStatus(run.attributes.status) && !host.runs.has(run.id)) {
          host.runs.set(run.id, { workspaceId, nextPollAt: this.timers.now() + this.runInterval.baseMs, intervalMs: this.runInterval.baseMs });
        }
      }
      markAnswered(host);
      watch.listedOnce = true;
      watch.intervalMs = changed.length > 0 ? this.listInterval.baseMs : Math.min(watch.intervalMs * 2, this.listInterval.maxMs);
      // Covered: the organization's list finds what is new here from now on.
      watch.nextListAt = isCovered(host, watch, this.timers.now()) ? Infinity : this.timers.now() + watch.intervalMs;
      this.report(host, workspaceId, page.items, changed, true);
    } catch (error) {
      if (this.unanswered(host, error)) watch.nextListAt = this.timers.now(); // again as soon as the host's pause ends
      else {
        watch.intervalMs = Math.min(watch.intervalMs * 2, this.listInterval.maxMs * 2);
        watch.nextListAt = this.timers.now() + watch.intervalMs;
      }
      this.failed(host, error, `list the runs of workspace ${workspaceId}`, 'run-list');
    }
  }

  /** Reads which organization a workspace belongs to, so that its organization's list can cover it. */
  private async lookUpOrganization(client: ServiceClient, host: HostState, workspaceId: string, watch: WorkspaceWatch): Promise<void> {
    try {
      const { workspace } = await client.workspaces.getById(workspaceId);
      markAnswered(host);
      if (host.workspaces.get(workspaceId) !== watch || watch.organization !== undefined) return;
      this.learnOrganization(host, watch, relatedId(workspace, 'organization') ?? null);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) {
        // Not readable with this token: its own list says why (the list reports it); nothing to look up again.
        watch.organization = null;
        return;
      }
      watch.lookupAt = this.unanswered(host, error) ? this.timers.now() : this.timers.now() + lookupRetryMs;
      // Only a 429 is acted on (the host pauses). Nothing is reported: the workspace keeps its own list meanwhile,
      // which reports the same problem once per list, where 200 lookups failing at once would say it 200 times.
      if (error instanceof RateLimitedError) this.failed(host, error, `look up the organization of workspace ${workspaceId}`);
    }
  }

  private learnOrganization(host: HostState, watch: WorkspaceWatch, organization: string | null): void {
    watch.organization = organization;
    if (organization !== null && !host.organizations.has(organization)) host.organizations.set(organization, newOrganizationWatch());
  }

  /**
   * One page of the organization's runs, newest first: a run of a watched workspace that the watcher does not know is
   * new (once a read has seen that workspace's runs), reported and followed exactly as a workspace's list would.
   */
  private async readOrganization(client: ServiceClient, host: HostState, name: string, organization: OrganizationWatch): Promise<void> {
    const startSeq = host.watchSeq;
    organization.lastReadAt = this.timers.now();
    try {
      // Every operation (the organization list leaves none out by default, but the workspace list does: be explicit).
      // No filter[workspace_names]: 200 names make a long URL, and a renamed workspace would silently drop out.
      const page = await client.runs.listForOrganization(name, { pageSize: this.organizationPageSize, operations: [...allRunOperations] });
      markAnswered(host);
      organization.errorMs = 0;
      const now = this.timers.now();
      const grouped = runsByWatchedWorkspace(page.items, (workspaceId) => host.workspaces.has(workspaceId));
      for (const [workspaceId, runs] of grouped) {
        const watch = host.workspaces.get(workspaceId)!;
        // The page shows the workspace is in this organization: no lookup needed.
        if (watch.organization === undefined) this.learnOrganization(host, watch, name);
        if (watch.organization !== name) continue;
        const firstForView = startsView(watch);
        const recorded = recordRuns(host, runs, watch.seq <= organization.baselineSeq);
        const changed = firstForView ? runs : recorded;
        if (changed.some((run) => isFinalRunStatus(run.attributes.status))) this.queueMoved(host, workspaceId);
        for (const run of runs) {
          const followed = host.runs.get(run.id);
          if (isFinalRunStatus(run.attributes.status)) host.runs.delete(run.id); // ended: nothing left to poll
          else if (!followed) host.runs.set(run.id, { workspaceId, nextPollAt: now + this.runInterval.baseMs, intervalMs: this.runInterval.baseMs });
          else if (changed.includes(run)) {
            // Moved while its poll was backed off (confirmed elsewhere): the service works on it again, read it at
            // the working cadence so the next phase's end is seen within a second.
            followed.intervalMs = this.runInterval.baseMs;
            followed.quietPolls = 0;
            followed.nextPollAt = Math.min(followed.nextPollAt, now + this.runInterval.baseMs);
          }
        }
        // Not a complete list of the workspace (the page is the organization's): `fromList` false.
        this.report(host, workspaceId, runs, changed, false);
      }
      if (mayHaveSkippedRuns(page.items, this.organizationPageSize, organization.newestCreatedAt)) {
        // More runs than a page were queued since the last read (over 2,000 a minute): list each workspace instead.
        for (const watch of host.workspaces.values()) if (watch.organization === name) watch.nextListAt = Math.min(watch.nextListAt, now);
      }
      organization.newestCreatedAt = newestCreatedAt(page.items) ?? organization.newestCreatedAt;
      organization.baselineSeq = startSeq;
    } catch (error) {
      const now = this.timers.now();
      if (error instanceof ServiceError && (error.status === 403 || error.status === 404)) {
        // This token may not read the organization's runs: back to each workspace's own list, in turn.
        organization.refusedUntil = now + organizationRefusalMs;
        organization.baselineSeq = 0;
        organization.newestCreatedAt = undefined;
        for (const watch of host.workspaces.values()) if (watch.organization === name) watch.nextListAt = Math.min(watch.nextListAt, now);
        this.options.onProblem?.(`Cannot list the runs of organization ${name} (${error.status}): each workspace's runs are listed in turn instead, so runs queued outside the editor are seen later.`);
        return;
      }
      if (!this.unanswered(host, error)) {
        organization.errorMs = Math.min(organization.errorMs > 0 ? organization.errorMs * 2 : this.organizationReadSpacingMs, this.listInterval.maxMs);
        organization.retryAt = now + organization.errorMs;
      }
      this.failed(host, error, `list the runs of organization ${name}`, 'run-list');
    }
  }

  /**
   * A run of the workspace just ended, so the run waiting behind it starts now: a pending run backs off while it
   * waits its turn, and without this its start (and its plan's end) would be seen up to a backed-off poll late.
   */
  private queueMoved(host: HostState, workspaceId: string): void {
    const now = this.timers.now();
    for (const watch of host.runs.values()) {
      if (watch.workspaceId !== workspaceId) continue;
      watch.intervalMs = this.runInterval.baseMs;
      watch.quietPolls = 0;
      watch.nextPollAt = Math.min(watch.nextPollAt, now);
    }
  }

  private async pollRun(client: ServiceClient, host: HostState, runId: string, watch: RunWatch): Promise<void> {
    try {
      const { run } = await client.runs.get(runId);
      markAnswered(host);
      const changed = recordRuns(host, [run], true);
      const workspaceId = relatedId(run, 'workspace') ?? watch.workspaceId;
      if (isFinalRunStatus(run.attributes.status)) {
        host.runs.delete(runId);
        if (changed.length > 0) this.queueMoved(host, workspaceId);
      } else {
        // While the service works on the run, each phase's end is news (a plan's end puts it on the code): keep the
        // base cadence. Only a run waiting for a person or for its turn backs off.
        // A working run that stays unchanged for long (a stuck phase) backs off too.
        watch.quietPolls = changed.length > 0 ? 0 : (watch.quietPolls ?? 0) + 1;
        const waiting = awaitsSomeone(run) || watch.quietPolls > maxQuietPollsAtBase;
        watch.intervalMs = changed.length > 0 || !waiting ? this.runInterval.baseMs : Math.min(Math.round(watch.intervalMs * 1.5), this.runInterval.maxMs);
        watch.nextPollAt = this.timers.now() + watch.intervalMs;
      }
      this.report(host, workspaceId, [run], changed, false);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404) {
        host.runs.delete(runId); // gone, or no longer visible to this token
        return;
      }
      if (this.unanswered(host, error)) watch.nextPollAt = this.timers.now();
      else {
        watch.intervalMs = Math.min(watch.intervalMs * 2, this.runInterval.maxMs * 2);
        watch.nextPollAt = this.timers.now() + watch.intervalMs;
      }
      this.failed(host, error, `read run ${runId}`);
    }
  }

  /**
   * Whether `error` says the service is not answering (rather than refusing this one request); if so the whole host
   * pauses, doubling up to the cap, so that it is probed again within the cap of its recovery.
   */
  private unanswered(host: HostState, error: unknown): boolean {
    const outage =
      isApiError(error) &&
      (error.kind === 'network' || error.kind === 'timeout' || (error instanceof ServiceError && error.status >= 500));
    if (!outage) return false;
    host.outageMs = Math.min(this.outageBackoff.maxMs, host.outageMs > 0 ? host.outageMs * 2 : this.outageBackoff.baseMs);
    host.outageUntil = Math.max(host.outageUntil, this.timers.now() + host.outageMs);
    return true;
  }

  /** Hands what a read found to onRuns, counting each run it reports as changed (changesReported). */
  private report(host: HostState, workspaceId: string, runs: Run[], changed: Run[], fromList: boolean): void {
    for (const run of changed) host.changeCounts.set(run.id, (host.changeCounts.get(run.id) ?? 0) + 1);
    this.options.onRuns(host.hostname, workspaceId, runs, changed, fromList);
  }

  /**
   * Reports a failed read. A 429 pauses what spends the budget it hit: a run list's, only the lists (the run polls
   * have their own budget, and a run the user waits on must not stall because another window or tool spent the
   * lists'); any other, the whole host.
   */
  private failed(host: HostState, error: unknown, what: string, bucket: 'general' | 'run-list' = 'general'): void {
    if (error instanceof RateLimitedError) {
      const until = this.timers.now() + Math.max(rateLimitPauseMs, error.retryAfterMs ?? 0);
      if (bucket === 'run-list') host.listsPausedUntil = until;
      else host.pausedUntil = until;
    }
    if (isApiError(error) && error.kind === 'cancelled') return;
    this.options.onProblem?.(isApiError(error) ? error.message : `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
