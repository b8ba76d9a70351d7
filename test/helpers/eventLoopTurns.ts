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

/** `probe`'s first defined value, asked once per turn of the event loop, for at most `turns` turns (then it throws). */
export async function untilTurns<T>(probe: () => T | undefined, turns = 5_000): Promise<T> {
  for (let turn = 0; turn < turns; turn++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`condition not reached within ${turns} turns of the event loop`);
}
