// File URIs and local paths, converted once per name. Every request and every keystroke turns its document's URI
// into a path (the folder's model, the file's facts) and every published diagnostic a path into a URI; Node builds a
// WHATWG URL for each (~20 µs): 0.5 ms per keystroke in the 1 MB typing bench's slowest keystrokes. A workspace
// names a bounded set of files, so the answers are kept, and the cache is emptied if it ever grows past a bound.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const maxKept = 20_000;
const pathsByUri = new Map<string, string>();
const urisByPath = new Map<string, string>();

/**
 * The absolute local path of a `file:` URI, or of a path (resolved against the working folder). Throws as
 * fileURLToPath does for a file URI that names another host (nothing to read locally).
 */
export function localPathOf(uriOrPath: string): string {
  let known = pathsByUri.get(uriOrPath);
  if (known === undefined) {
    known = path.resolve(uriOrPath.startsWith('file:') ? fileURLToPath(uriOrPath) : uriOrPath);
    remember(pathsByUri, uriOrPath, known);
  }
  return known;
}

/** The `file:` URI of an absolute path, as pathToFileURL(file).href spells it. */
export function fileUriOf(file: string): string {
  let known = urisByPath.get(file);
  if (known === undefined) {
    known = pathToFileURL(file).href;
    remember(urisByPath, file, known);
  }
  return known;
}

function remember(cache: Map<string, string>, key: string, value: string): void {
  // A workspace past this many names is rare; starting over costs one conversion per name, never a wrong answer.
  if (cache.size >= maxKept) cache.clear();
  cache.set(key, value);
}
