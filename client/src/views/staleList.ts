// What a view says when a list could not be read. The product promises that values read before stay when the service
// fails (README), so a failed re-read keeps the list on screen and adds one row saying it could not be refreshed and
// when it was last read; only a list never read says it could not be listed at all.
import { failureReason } from './failure';

/** A list as a view last read it: `readAt` is when the service last answered, `error` why the newest read failed. */
export interface ReadState {
  readAt?: number;
  error?: string;
}

/** The state after a failed read: what was read before stays, with the reason (told once, without a doubled prefix). */
export function failedRead<T extends ReadState>(before: T | undefined, empty: T, error: unknown): T {
  return { ...(before ?? empty), error: failureReason(error) };
}

/** "Could not refresh the runs (last read 21:05): <reason>", or "Could not list the runs: <reason>" when never read. */
export function readFailureText(what: string, state: ReadState): string {
  if (state.readAt === undefined) return `Could not list the ${what}: ${state.error ?? 'unknown error'}`;
  return `Could not refresh the ${what} (last read ${clockTime(state.readAt)}): ${state.error ?? 'unknown error'}`;
}

/** A workspace's list as last read: its items, when the service last answered, why the newest read failed. */
export interface ReadList<T> extends ReadState {
  items: T[];
}

/**
 * Each workspace's list as a view last read it, for views that read a workspace's list each time it is drawn: a read
 * that fails keeps the items read before with the reason (shown with readFailureText above them); one that succeeds
 * replaces them, and the error row goes.
 */
export class LastReads<T> {
  private readonly lists = new Map<string, ReadList<T>>();
  /** Bumped by forget(): a read that started before it is not kept, so nothing of the previous token comes back. */
  private generation = 0;

  async read(workspace: { hostname: string; id: string }, reader: () => Promise<T[]>): Promise<ReadList<T>> {
    const key = keyOf(workspace);
    const generation = this.generation;
    let list: ReadList<T>;
    try {
      list = { items: await reader(), readAt: Date.now() };
    } catch (error) {
      list = failedRead(this.lists.get(key), { items: [] }, error);
    }
    if (generation === this.generation) this.lists.set(key, list);
    return list;
  }

  get(workspace: { hostname: string; id: string }): ReadList<T> | undefined {
    return this.lists.get(keyOf(workspace));
  }

  /**
   * Calls `redraw` when the run watcher has read a workspace whose last list read failed: the service answers again,
   * so the list is read anew and its error row goes (a pinned workspace has no folder whose workspaceChanged would
   * redraw it).
   */
  redrawOnRecovery(onRunsChanged: RunsChangedEvent, redraw: () => void): { dispose(): void } {
    return onRunsChanged(({ hostname, workspaceId }) => {
      if (this.get({ hostname, id: workspaceId })?.error) redraw();
    });
  }

  /** Another account or token, or none: what the previous one read must not stay on screen, even as a fallback. */
  forget(): void {
    this.lists.clear();
    this.generation++;
  }
}

type RunsChangedEvent = (listener: (change: { hostname: string; workspaceId: string }) => unknown) => { dispose(): void };

const keyOf = (workspace: { hostname: string; id: string }) => `${workspace.hostname}\u0000${workspace.id}`;

/** "21:05", the local time of day: enough to tell a list read minutes ago from one read this morning. */
function clockTime(at: number): string {
  const time = new Date(at);
  return `${String(time.getHours()).padStart(2, '0')}:${String(time.getMinutes()).padStart(2, '0')}`;
}
