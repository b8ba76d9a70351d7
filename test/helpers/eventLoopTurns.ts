// Counts the turns of the event loop while work runs: how the tests see that long work (a parse in slices, a tree
// read in steps) gives the requests their turns, without timing anything.

/** Counts turns from now until `stop()`, which returns the count. */
export function countTurns(): { readonly turns: number; stop(): number } {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turns() {
      return turns;
    },
    stop() {
      ticking = false;
      return turns;
    },
  };
}

/** The turns of the event loop that pass until `work` resolves, and its value. */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; value: T }> {
  const counter = countTurns();
  try {
    const value = await work();
    return { value, turns: counter.stop() };
  } finally {
    counter.stop();
  }
}
