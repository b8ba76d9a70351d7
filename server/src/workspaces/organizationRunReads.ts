// The pure parts of the run watcher's organization-wide reads (GET /organizations/:org/runs, spec §4.2): whose turn
// it is, which runs of a page belong to watched workspaces, and whether a page may have skipped runs.
import type { Run } from '../api';
import { relatedId } from '../api';

export interface OrganizationWatch {
  lastReadAt: number;
  /**
   * The host's watch counter when the last completed read of this organization STARTED: a workspace watched by then
   * (counter ≤ this) has had its runs seen by a read, so a run of it that the watcher does not know is new. Runs of a
   * workspace watched later are its starting state, as a workspace's first list always was.
   */
  baselineSeq: number;
  /** created-at (ms) of the newest run the last read returned. */
  newestCreatedAt?: number;
  /** The service refused the list (403/404: this token cannot read the organization's runs) until then. */
  refusedUntil: number;
  /** After another error, not before then (doubling per failure). */
  retryAt: number;
  errorMs: number;
}

export function newOrganizationWatch(): OrganizationWatch {
  return { lastReadAt: -Infinity, baselineSeq: 0, refusedUntil: 0, retryAt: 0, errorMs: 0 };
}

/** The organization to read next: the one read longest ago among those readable now (round robin shares the budget). */
export function nextOrganization(organizations: ReadonlyMap<string, OrganizationWatch>, names: Iterable<string>, now: number): string | undefined {
  let best: string | undefined;
  for (const name of names) {
    const watch = organizations.get(name);
    if (!watch || watch.refusedUntil > now || watch.retryAt > now) continue;
    if (best === undefined || watch.lastReadAt < organizations.get(best)!.lastReadAt) best = name;
  }
  return best;
}

/** The page's runs per watched workspace (a run names its workspace in relationships.workspace), page order kept. */
export function runsByWatchedWorkspace(runs: readonly Run[], isWatched: (workspaceId: string) => boolean): Map<string, Run[]> {
  const grouped = new Map<string, Run[]>();
  for (const run of runs) {
    const workspaceId = relatedId(run, 'workspace');
    if (workspaceId === undefined || !isWatched(workspaceId)) continue;
    const list = grouped.get(workspaceId) ?? [];
    list.push(run);
    grouped.set(workspaceId, list);
  }
  return grouped;
}

const createdAt = (run: Run): number => Date.parse(run.attributes['created-at'] ?? '');

export function newestCreatedAt(runs: readonly Run[]): number | undefined {
  const times = runs.map(createdAt).filter((time) => Number.isFinite(time));
  return times.length > 0 ? Math.max(...times) : undefined;
}

/**
 * A full page (newest first) whose every run is newer than the newest of the previous read: more runs than a page
 * were queued in the organization between two reads, so some may lie beyond it, unseen.
 */
export function mayHaveSkippedRuns(runs: readonly Run[], pageSize: number, previousNewest: number | undefined): boolean {
  if (previousNewest === undefined || runs.length < pageSize) return false;
  return runs.every((run) => createdAt(run) > previousNewest);
}
