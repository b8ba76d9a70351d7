// How the run watcher takes a read that failed: a service that does not answer pauses the whole host (an outage), a
// 429 pauses what spends the budget it hit, and an organization that refuses its run list sends its workspaces back
// to their own lists. Apart from the reads (runWatcherReads.ts): the same rules hold for every read, and the pauses
// they set are what the scheduling (runWatcher.ts) waits out.
import { isApiError, RateLimitedError, ServiceError } from '../api';
import type { OrganizationWatch } from './organizationRunReads';
import type { WatchContext } from './runWatcherOptions';
import type { HostState } from './watchedHost';

/** A 429's pause (longer if the service says so); a signed-out host looks again after as long. */
export const rateLimitPauseMs = 60_000;
/** A refused organization list is tried again after this (or at once with a new token). */
const organizationRefusalMs = 600_000;
/** A workspace whose organization could not be looked up (other than 404) is looked up again after this. */
export const lookupRetryMs = 60_000;

/**
 * Whether `error` says the service is not answering (rather than refusing this one request); if so the whole host
 * pauses, doubling up to the cap, so that it is probed again within the cap of its recovery.
 */
export function unanswered(watcher: WatchContext, host: HostState, error: unknown): boolean {
  const outage =
    isApiError(error) &&
    (error.kind === 'network' || error.kind === 'timeout' || (error instanceof ServiceError && error.status >= 500));
  if (!outage) return false;
  const { outageBackoff } = watcher.settings;
  host.outageMs = Math.min(outageBackoff.maxMs, host.outageMs > 0 ? host.outageMs * 2 : outageBackoff.baseMs);
  host.outageUntil = Math.max(host.outageUntil, watcher.timers.now() + host.outageMs);
  return true;
}

/**
 * Reports a failed read. A 429 pauses what spends the budget it hit: a run list's, only the lists (the run polls
 * have their own budget, and a run the user waits on must not stall because another window or tool spent the
 * lists'); any other, the whole host.
 */
export function failed(watcher: WatchContext, host: HostState, error: unknown, what: string, bucket: 'general' | 'run-list' = 'general'): void {
  if (error instanceof RateLimitedError) {
    const until = watcher.timers.now() + Math.max(rateLimitPauseMs, error.retryAfterMs ?? 0);
    if (bucket === 'run-list') host.listsPausedUntil = until;
    else host.pausedUntil = until;
  }
  if (isApiError(error) && error.kind === 'cancelled') return;
  watcher.options.onProblem?.(isApiError(error) ? error.message : `Could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * Whether the organization's run list was refused (403/404): this token may not read the organization's runs. If
 * so its workspaces go back to their own lists, in turn, and the organization is tried again after a while.
 */
export function organizationRefused(watcher: WatchContext, host: HostState, name: string, organization: OrganizationWatch, error: unknown, now: number): boolean {
  if (!(error instanceof ServiceError && (error.status === 403 || error.status === 404))) return false;
  organization.refusedUntil = now + organizationRefusalMs;
  organization.baselineSeq = 0;
  organization.newestCreatedAt = undefined;
  for (const watch of host.workspaces.values()) if (watch.organization === name) watch.nextListAt = Math.min(watch.nextListAt, now);
  watcher.options.onProblem?.(`Cannot list the runs of organization ${name} (${error.status}): each workspace's runs are listed in turn instead, so runs queued outside the editor are seen later.`);
  return true;
}
