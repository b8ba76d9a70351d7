// What the run watcher keeps per host (one token, one budget): the watched workspaces, the followed runs, the
// organizations read for new runs, the pauses, and the runs' last signatures, with the pure questions asked of it.
// The scheduling is runWatcher.ts; the reads, runWatcherReads.ts.
import type { Run } from '../api';
import type { OrganizationWatch } from './organizationRunReads';
import { runSignature } from './runSummary';
import type { TimerHandle } from './timers';

export interface WorkspaceWatch {
  /** Infinity: no list planned (the organization list covers it). */
  nextListAt: number;
  intervalMs: number;
  listedOnce: boolean;
  /** The host's watch counter when this watch began (see OrganizationWatch.baselineSeq). */
  seq: number;
  /** undefined: not known yet; null: cannot be known (the workspace is not readable): its own list only. */
  organization?: string | null;
  /** When to look its organization up (again). */
  lookupAt: number;
  /**
   * Report every run of the first look too (a client view asked for the workspace and starts from what the watcher
   * saw): the first of its own list or an organization read that shows its runs, whichever comes first (the next
   * organization read, within 2.5 s, where its own first list may wait its turn for minutes).
   */
  reportFirstList?: boolean;
  /** The starting runs were reported (see reportFirstList). */
  startReported?: boolean;
}

export interface RunWatch {
  workspaceId: string;
  nextPollAt: number;
  intervalMs: number;
  /** Polls in a row that found the run unchanged. */
  quietPolls?: number;
  /**
   * Followed because someone asked (a command acted on it, a view opened it): read until it ends, even once its
   * workspace is no longer watched (unpinned while its plan runs), where runs found by a list go with the workspace.
   */
  asked?: boolean;
}

export interface HostState {
  hostname: string;
  workspaces: Map<string, WorkspaceWatch>;
  runs: Map<string, RunWatch>;
  /** Last signature seen of every run (listed or polled), to report each change once. */
  signatures: Map<string, string>;
  /** How many changes of each run were reported (see RunWatcher.changesReported). */
  changeCounts: Map<string, number>;
  lastListAt: number;
  lastOrganizationReadAt: number;
  organizations: Map<string, OrganizationWatch>;
  /** Counts watchWorkspace calls: orders watches against organization reads. */
  watchSeq: number;
  pausedUntil: number;
  /** While the service does not answer: the current pause (0 = it answers) and when the next probe may go. */
  outageMs: number;
  outageUntil: number;
  pollTimes: number[];
  /** After a 429 on a run list: no list before this (the run polls go on, on their own budget). */
  listsPausedUntil: number;
  timer?: TimerHandle;
  timerDue?: number;
  /** The tick in flight: run polls and organization lookups, on the general budget. */
  busy?: Promise<void>;
  /**
   * The run lists in flight, beside the ticks: a list may wait on its budget (30 a minute, shared with the views),
   * and the run polls must not wait with it.
   */
  listing?: Promise<void>;
  readingOrganization?: Promise<void>;
}

/** A host's state before anything was watched on it. */
export function newHostState(hostname: string): HostState {
  return {
    hostname,
    workspaces: new Map(),
    runs: new Map(),
    signatures: new Map(),
    changeCounts: new Map(),
    lastListAt: -Infinity,
    lastOrganizationReadAt: -Infinity,
    organizations: new Map(),
    watchSeq: 0,
    pausedUntil: 0,
    outageMs: 0,
    outageUntil: 0,
    pollTimes: [],
    listsPausedUntil: 0,
  };
}

/** Whether this look at the workspace's runs is the one a view starts from (reportFirstList); marks it taken. */
export function startsView(watch: WorkspaceWatch): boolean {
  if (watch.reportFirstList !== true || watch.startReported === true) return false;
  watch.startReported = true;
  return true;
}

/** Whether the organization list finds this workspace's new runs (its organization is known and readable). */
export function isCovered(host: HostState, watch: WorkspaceWatch, now: number): boolean {
  if (typeof watch.organization !== 'string') return false;
  const organization = host.organizations.get(watch.organization);
  return organization !== undefined && organization.refusedUntil <= now;
}

/** Organizations with at least one watched workspace. */
export function watchedOrganizations(host: HostState): Set<string> {
  const names = new Set<string>();
  for (const watch of host.workspaces.values()) if (typeof watch.organization === 'string') names.add(watch.organization);
  return names;
}

/** …of which the list is not refused now. */
export function readableOrganizations(host: HostState, now: number): string[] {
  return [...watchedOrganizations(host)].filter((name) => host.organizations.get(name)!.refusedUntil <= now);
}

/** Updates signatures; returns the runs that changed (new runs count only after the workspace's first list). */
export function recordRuns(host: HostState, runs: Run[], reportNew: boolean): Run[] {
  const changed: Run[] = [];
  for (const run of runs) {
    const signature = runSignature(run);
    const previous = host.signatures.get(run.id);
    host.signatures.set(run.id, signature);
    if (previous === undefined ? reportNew : previous !== signature) changed.push(run);
  }
  return changed;
}

/** The service answered: any outage is over. */
export function markAnswered(host: HostState): void {
  host.outageMs = 0;
  host.outageUntil = 0;
}

/** The run stands still until a user acts (confirm, override, a decision) or another run frees the workspace. */
export function awaitsSomeone(run: Run): boolean {
  const status = run.attributes.status;
  return status === 'pending' || status.endsWith('_awaiting_decision') || status.endsWith('policy_override') || run.attributes.actions?.['is-confirmable'] === true;
}
