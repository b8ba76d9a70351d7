// A read of a run that must not answer older news than the client already has. The run watcher reports each change of
// a run as it sees it (hcpTerraform/runsChanged); a request that read the same run before that change, and answers
// after it, would put the older state back in a view (a run shown planning while it waits for its confirmation, and
// no later change to correct it). Such a read is done once more.

/**
 * Runs `read`; when `changesReported` moved meanwhile (a change of the run was reported while it read), runs it once
 * more: that second read started after the reported change was seen, so it is at least as new.
 */
export async function freshRead<T>(changesReported: () => number, read: () => Promise<T>): Promise<T> {
  const before = changesReported();
  const first = await read();
  return changesReported() === before ? first : read();
}
