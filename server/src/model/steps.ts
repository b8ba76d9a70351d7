// Work written as a generator that yields where it may stop for a while: run at once (allSteps), or a slice at a
// time with the event loop free between slices (stepsInSlices). Reading the tree of a 1 MB file that a brace too
// many left broken takes 0.25-0.9 s; in slices, the requests that arrive meanwhile are answered between them. One
// piece of code either way, so the facts a sliced reading gives are the facts reading at once gives.
import { performance } from 'node:perf_hooks';

/** Work that yields (nothing) at each point where it may stop, and returns its result. */
export type Steps<T> = Generator<undefined, T, undefined>;

/** Runs every step now. */
export function allSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** How long a slice of stepped work runs before the event loop gets its turns. */
export const stepSliceMs = 1;

/**
 * Runs the steps `sliceMs` at a time; between slices, `pause` gives the event loop its turns. A step itself is not
 * cut: each is kept to well under a millisecond where the input is large (a few blocks, a range of the tree).
 */
export async function stepsInSlices<T>(steps: Steps<T>, pause: () => Promise<void> = twoTurns, sliceMs = stepSliceMs): Promise<T> {
  let sliceEnds = performance.now() + sliceMs;
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() >= sliceEnds) {
      await pause();
      sliceEnds = performance.now() + sliceMs;
    }
  }
}

/**
 * Two turns of the event loop: a message that arrived during a slice is read in the first and handled (the JSON-RPC
 * layer handles one per turn) before the next slice starts.
 */
export function twoTurns(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
