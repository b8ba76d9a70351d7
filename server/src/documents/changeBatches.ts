// The editor's changes to an open document, gathered into one batch per burst: the changes that arrive before the
// model follows (modelUpdateDelayMs) are handed to it together, in one update. Apart from sync.ts so that what a
// batch holds, and how a change joins it, reads on its own; this runs on every keystroke, and allocates nothing the
// change itself does not need.
import type { ChangeOffsets, TextChange } from '../model';
import type { TimerHandle } from '../workspaces/timers';
import { modelUpdateDelayMs } from './syncTiming';
import type { SyncClock } from './syncTiming';

export interface Batch {
  changes: TextChange[];
  /** Where each change fell in the text it applied to (from the server's copy), when every one is known. */
  offsets: (ChangeOffsets | undefined)[] | undefined;
  version: number;
  /** The first line any change of the batch touches (-1 for a whole-document change). */
  firstLine: number;
  timer: TimerHandle;
}

/**
 * Adds a change of the document (`contentChanges`, bringing it to `version`) to its batch, or starts a batch that
 * `applyWhenQuiet` applies once the model's delay has passed.
 */
export function queueChanges(
  pending: Map<string, Batch>,
  uri: string,
  contentChanges: TextChange[],
  offsets: (ChangeOffsets | undefined)[] | undefined,
  version: number,
  clock: SyncClock,
  applyWhenQuiet: (uri: string, since: number) => void,
): void {
  const firstLine = Math.min(...contentChanges.map((change: TextChange) => (change.range ? change.range.start.line : -1)));
  const queued = pending.get(uri);
  if (queued) {
    queued.offsets = queued.offsets && offsets ? [...queued.offsets, ...offsets] : undefined;
    queued.changes.push(...contentChanges);
    queued.version = version;
    queued.firstLine = Math.min(queued.firstLine, firstLine);
  } else {
    const since = clock.now();
    const batch: Batch = { changes: [...contentChanges], offsets, version, firstLine, timer: clock.setTimer(modelUpdateDelayMs, () => applyWhenQuiet(uri, since)) };
    pending.set(uri, batch);
  }
}
