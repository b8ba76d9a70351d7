// What opening and closing a document does to the sync and to its folder's model: the open text replaces whatever
// waited and becomes the model's; a close hands the file back to the disk, forgets all the sync kept for it and
// gives its memory back. Apart from sync.ts, which follows the document's changes in between: these two run once per
// document, not per keystroke, and end or begin everything else.
import type { TextDocumentItem } from 'vscode-languageserver';
import { LatestText } from './latestText';
import { collectGarbageSoon, largeDocumentLength } from './releaseMemory';
import type { ModuleFolders } from './moduleFolders';
import { cancelPending } from './syncState';
import type { SyncState } from './syncState';

/** `parseWaiting`: parses the document's waiting changes in slices (sync.ts), for a large document's first parse. */
export function openDocument(state: SyncState, folders: ModuleFolders, textDocument: TextDocumentItem, parseWaiting: (uri: string, firstLine?: number) => Promise<unknown>): void {
  const { uri, version, text } = textDocument;
  cancelPending(state, uri); // the open text replaces whatever was pending
  const document = new LatestText(uri, textDocument.languageId, version, text);
  // Its line offsets now, with the open's own work, not on the first keystroke (30 ms for a 4 MB file).
  void document.lineCount;
  state.latest.set(uri, document);
  void folders.withModel(
    uri,
    (model) => {
      state.handed.set(uri, version);
      // A large document is parsed in slices, the requests answered between them (see parseWaiting): the
      // version is the model's once that parse ends.
      if (model.openDocument(uri, text) === 'deferred') void parseWaiting(uri, 0);
      else state.applied.set(uri, version);
    },
    { text },
  );
}

/** `onClosed`: told once the model has taken the disk's content back. */
export function closeDocument(state: SyncState, folders: ModuleFolders, uri: string, onClosed: (() => void) | undefined): void {
  cancelPending(state, uri);
  const closedLength = state.latest.get(uri)?.getText().length ?? 0;
  state.latest.delete(uri);
  state.lastRequest.delete(uri);
  state.parseCost.delete(uri);
  state.slowParses.delete(uri);
  const closed = folders.withModel(uri, (model) => {
    state.applied.delete(uri);
    state.handed.delete(uri);
    return model.closeDocument(uri);
  });
  void closed
    .then(() => folders.releaseIfOutside(uri))
    .catch(() => undefined) // the model reports its own failures; the memory is given back either way
    .then(() => {
      // A large document's texts are garbage now: give the memory back instead of whenever V8 gets to it.
      if (closedLength >= largeDocumentLength) collectGarbageSoon();
      try {
        onClosed?.();
      } catch {
        // a listener's failure must not stop the sync
      }
    });
}
