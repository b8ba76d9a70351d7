// Closed files read from disk are parsed one per turn of the event loop, across every folder, so the editor's
// requests go between files (the 32 reads in flight finish together and would otherwise be parsed back to back).
// Turns asked for by a folder an editor waits for (a document in it was just opened) are given before the
// background indexer's: the folder the indexer happens to be reading when a document opens no longer takes every
// other turn from the opened document's folder, whose first diagnostics wait for all its files.
export type ParsePriority = 'urgent' | 'background';

const waiting: Record<ParsePriority, Array<() => void>> = { urgent: [], background: [] };
let turnScheduled = false;
/** A file read over many turns holds the parse turns until it is done (see holdingParseTurns). */
let held = false;

/** Resolves on a turn of the event loop of its own, after the turns asked for before it (urgent ones first). */
export function nextParseTurn(priority: ParsePriority): Promise<void> {
  return new Promise<void>((resolve) => {
    waiting[priority].push(resolve);
    scheduleTurn();
  });
}

function scheduleTurn(): void {
  if (held || turnScheduled || (waiting.urgent.length === 0 && waiting.background.length === 0)) return;
  turnScheduled = true;
  setImmediate(() => {
    turnScheduled = false;
    if (held) return;
    const next = waiting.urgent.shift() ?? waiting.background.shift();
    next?.();
    scheduleTurn();
  });
}

/**
 * Runs `work` (a file parsed in slices and read in steps, over many turns) once it is the file's turn, and gives no
 * other file a turn until it is done: the turns between its slices are for requests. Otherwise each of the files
 * read at once started its parse on the next turn, and all of them held a half-built tree together (24 files of
 * 100 KB grew the parser's memory from 32 to 198 MB), with a folder an editor waits for behind them all.
 */
export async function holdingParseTurns<T>(priority: ParsePriority, work: () => Promise<T>): Promise<T> {
  await nextParseTurn(priority);
  held = true;
  try {
    return await work();
  } finally {
    held = false;
    scheduleTurn();
  }
}
