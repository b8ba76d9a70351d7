// When the document sync (sync.ts) hands the editor's changes to the code model: the clock it measures with, the
// delays that let the requests sent with a keystroke go first, and how long an edit that needs the whole file parsed
// waits. Apart from the sync so that the delays, and why each is what it is, read together; tests import them to
// check the sync keeps them.
import { performance } from 'node:perf_hooks';
import type { TimerHandle } from '../workspaces/timers';

/**
 * The clock and timers the model's work is scheduled with: the real ones in the server; a test passes its own, which
 * it advances by hand, to check the delays below without waiting on them.
 */
export interface SyncClock {
  /** Milliseconds, finer than one (a few ms decide here). */
  now(): number;
  setTimer(ms: number, callback: () => void): TimerHandle;
  /** Runs `callback` on the next turn of the event loop (after the request handlers queued before it). */
  setImmediate(callback: () => void): void;
}

export const realClock: SyncClock = {
  now: () => performance.now(),
  setTimer(ms, callback) {
    const timer = setTimeout(callback, ms);
    return { cancel: () => clearTimeout(timer) };
  },
  setImmediate: (callback) => void setImmediate(callback),
};

/** How long after a change the model follows: changes within it are applied together, after the requests sent with them. */
export const modelUpdateDelayMs = 2;
/** How long after the last request reading the document the model's update waits... */
export const quietMs = 2;
/** ...and how long at most, however many requests keep coming. */
export const maxQuietWaitMs = 20;

/**
 * An edit the model cannot read from its block alone (it breaks the block, or reaches past it) needs the whole file
 * parsed: ~20 ms for 1 MB, ~80 ms for 4 MB. That parse waits twice what the document's last one took (10-50 ms), so
 * the requests sent with the keystroke are answered first, and a burst of such edits is parsed once. After a slow
 * parse the next waits for the typing to pause instead (see `heavyParseMs`).
 */
export function wholeParseDelay(lastParseMs: number | undefined): number {
  return Math.min(maxWholeParseDelayMs, Math.max(minWholeParseDelayMs, Math.ceil((lastParseMs ?? 0) * 2)));
}
const minWholeParseDelayMs = 10;
const maxWholeParseDelayMs = 50;
/** However long a burst of such edits lasts, the file is parsed at least this often (unless its last parse was slow). */
export const maxWholeParseWaitMs = 250;
/**
 * A whole-file parse that took longer than this, or that a change stopped: a large file left broken (an unbalanced
 * brace in 1 MB takes tree-sitter 0.3-1.5 s to recover from, and reading the broken tree 0.25-0.9 s more, both in
 * slices the requests go between, and deleting the tree it replaces 50-140 ms at once). The next one waits until
 * the document has had no change for `verifyDelayMs`: a parse that a keystroke will stop is work for nothing, and
 * the deletion is better not among the keystrokes.
 */
export const heavyParseMs = 100;
/**
 * A block left broken by an edit (a half-typed `var.`) is read from its own text at once; the whole-file parse that
 * confirms it (the recovery from an error is not always local) waits until the document has had no change for this
 * long, so it does not fall between a keystroke and the requests sent with it while the user types.
 */
export const verifyDelayMs = 400;

/**
 * How long a whole-file parse of the document waits after the change that needs it. `slowParses`: the documents whose
 * last one was slow (see `heavyParseMs`); `parseCost`: how long each document's last one took (ms).
 */
export function parseDelay(slowParses: ReadonlySet<string>, parseCost: ReadonlyMap<string, number>, uri: string): number {
  return slowParses.has(uri) ? verifyDelayMs : wholeParseDelay(parseCost.get(uri));
}

/**
 * The same, for a parse that changes keep putting off: waiting since `since`, it goes within `maxWholeParseWaitMs`
 * of then, unless the document's last parse was slow (that one waits for the typing to pause, however long).
 */
export function burstParseDelay(slowParses: ReadonlySet<string>, parseCost: ReadonlyMap<string, number>, uri: string, since: number, clock: SyncClock): number {
  return slowParses.has(uri) ? parseDelay(slowParses, parseCost, uri) : Math.min(parseDelay(slowParses, parseCost, uri), Math.max(0, since + maxWholeParseWaitMs - clock.now()));
}
