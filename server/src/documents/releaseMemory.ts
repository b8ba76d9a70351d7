// After a large document closes, what held its text (the editor's copy, the model's, the line offsets, the last
// few versions' strings) is garbage, but V8 collects its old space lazily: a server that had a 4 MB file open kept
// ~30 MB more than it needed for as long as it stayed quiet (bench: 155 MB after closing, 123 MB after a full
// collection). So one full collection is asked for once the close has been handled.
// `gc` is not exposed to a program started without --expose-gc (Neovim, Helix and Emacs start the server as
// `node server.js --stdio`): the flag is set at run time and the function read from a fresh context, once.
import v8 from 'node:v8';
import vm from 'node:vm';

/** Documents at least this long are worth a full collection once closed (a collection costs ~10-50 ms). */
export const largeDocumentLength = 1_000_000;

let collector: (() => void) | null | undefined;

function fullCollection(): (() => void) | null {
  if (collector !== undefined) return collector;
  try {
    v8.setFlagsFromString('--expose-gc');
    collector = vm.runInNewContext('gc') as () => void;
  } catch {
    collector = null; // not available in this runtime: memory is returned when V8 decides
  }
  return collector;
}

let scheduled: ReturnType<typeof setTimeout> | undefined;

/** Collects garbage shortly (several closes in a row give one collection); false when it cannot. */
export function collectGarbageSoon(delayMs = 100): boolean {
  const collect = fullCollection();
  if (!collect) return false;
  if (scheduled) clearTimeout(scheduled);
  scheduled = setTimeout(() => {
    scheduled = undefined;
    collect();
  }, delayMs);
  scheduled.unref();
  return true;
}
