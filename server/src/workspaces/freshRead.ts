// A read of a run that must not answer older news than the client already has. The run watcher reports each change of
// a run as it sees it (hcpTerraform/runsChanged); a request that read the same run before that change, and answers
// after it, would put the older state back in a view (a run shown planning while it waits for its confirmation, and
// no later change to correct it). Such a read is done once more.

/** Reads in all, at most: a run changes every second at the fastest, and a read takes milliseconds. */
export const maxFreshReads = 3;

/**
 * Runs `read`; while `changesReported` moved during it (a change of the run was reported while it read), runs it
 * again: a read started after the reported change was seen is at least as new. At most `maxFreshReads` reads.
 */
export async function freshRead<T>(changesReported: () => number, read: () => Promise<T>): Promise<T> {
  let before = changesReported();
  let answer = await read();
  for (let reads = 1; reads < maxFreshReads && changesReported() !== before; reads++) {
    before = changesReported();
    answer = await read();
  }
  return answer;
}
