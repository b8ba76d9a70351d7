// What a RunWatcher is given (its clock, its clients, its listeners, the spacing of its reads), with the defaults
// for the spacing a caller leaves out (runWatcher.ts's header says why these numbers). Apart from the class so that
// the reads (runWatcherReads.ts) and the failure rules (watchFailures.ts) can take what they need of a watcher
// without importing the watcher itself.
import type { Run, ServiceClient } from '../api';
import type { Timers } from './timers';

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

/** The spacing and backoff a watcher runs with: its options, the defaults filled in. */
export interface WatchSettings {
  readonly listSpacingMs: number;
  readonly coveredListSpacingMs: number;
  readonly organizationReadSpacingMs: number;
  readonly organizationPageSize: number;
  readonly listInterval: { baseMs: number; maxMs: number };
  readonly runInterval: { baseMs: number; maxMs: number };
  readonly maxRunPollsPerSecond: number;
  readonly outageBackoff: { baseMs: number; maxMs: number };
}

export function watchSettings(options: RunWatcherOptions): WatchSettings {
  return {
    listSpacingMs: options.listSpacingMs ?? 3_000,
    coveredListSpacingMs: options.coveredListSpacingMs ?? 30_000,
    organizationReadSpacingMs: options.organizationReadSpacingMs ?? 2_500,
    organizationPageSize: options.organizationPageSize ?? 100,
    listInterval: options.listInterval ?? { baseMs: 15_000, maxMs: 300_000 },
    runInterval: options.runInterval ?? { baseMs: 1_000, maxMs: 30_000 },
    maxRunPollsPerSecond: options.maxRunPollsPerSecond ?? 10,
    outageBackoff: options.outageBackoff ?? { baseMs: 1_000, maxMs: 8_000 },
  };
}

/** What the reads and the failure rules need of their watcher: built once, by the watcher's constructor. */
export interface WatchContext {
  readonly timers: Timers;
  readonly settings: WatchSettings;
  /** The options as given: listeners are called on them, and `listPageSize` is read at each list. */
  readonly options: RunWatcherOptions;
}
