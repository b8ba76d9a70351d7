// The indexing worker's thread runs at a lower priority than the server's own: the operating system then gives a
// core to the server's thread (the editor's requests) and to the editor first, and the indexing the rest.
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** How much lower: nice 10, about a tenth of a core's share against a thread at nice 0 when both want it. */
export const backgroundNiceness = 10;

/**
 * Lowers the calling thread's priority to `backgroundNiceness`. Linux only, where the nice value belongs to each
 * thread and a thread names itself in /proc/thread-self; elsewhere (and where the system refuses) nothing changes.
 * Returns whether it did.
 */
export function lowerThreadPriority(): boolean {
  try {
    const threadId = Number(path.basename(readlinkSync('/proc/thread-self')));
    if (!Number.isInteger(threadId) || threadId <= 0) return false;
    os.setPriority(threadId, backgroundNiceness);
    return true;
  } catch {
    return false;
  }
}
