// Files changed on disk (reported by the client's watcher, or by the server's own DiskWatcher when it cannot watch)
// passed to the models of their folders, with the files below a folder created or deleted whole. Apart from sync.ts,
// which follows the open documents: an open document's model ignores the disk's changes until it is closed.
import type { FileEvent } from 'vscode-languageserver';
import { FileChangeType } from 'vscode-languageserver';
import { localPathOf } from '../model/filePaths';
import { isWatchedFile } from './fileWatchers';
import { goneFilesBelow, mayHoldModuleFolders, newFilesBelow } from './folderEvents';
import { folderOfFile } from './folderDiscovery';
import type { ModuleFolders } from './moduleFolders';
import { isFileUri } from './syncState';

/**
 * Where the disk's changes come in (made once per sync): `edited` hears of each file of a module folder that
 * changed, as a user's edit.
 */
export function watchedFileChanges(folders: ModuleFolders, edited: (uri: string) => void): (changes: readonly FileEvent[]) => void {
  const fileChanged = (change: FileEvent) => {
    if (folderOfFile(localPathOf(change.uri))) edited(change.uri);
    if (change.type === FileChangeType.Deleted) {
      // A deleted file of an unknown folder needs no model.
      if (folders.modelFor(change.uri)) void folders.withModel(change.uri, (model) => model.fileDeleted(change.uri));
    } else void folders.withModel(change.uri, (model) => model.fileChanged(change.uri));
  };
  return (changes) => {
    for (const change of changes) {
      if (!isFileUri(change.uri)) continue;
      const changedPath = localPathOf(change.uri);
      if (isWatchedFile(changedPath)) fileChanged(change);
      else if (change.type === FileChangeType.Deleted) {
        // Something else deleted (the client's folder watcher, folderWatcher): if it was a folder, the files the
        // models knew below it went with it, and a client reports only the folder.
        void goneFilesBelow([changedPath], { knownFilesUnder: (folder) => folders.knownFilesUnder(folder) }).then((gone) => gone.forEach(fileChanged));
      } else if (change.type === FileChangeType.Created && mayHoldModuleFolders(changedPath, folders.rootOf(changedPath))) {
        // Something else created: if it is a folder, its model files may have come with it unreported.
        void newFilesBelow([changedPath], () => undefined).then((created) => created.forEach(fileChanged));
      }
    }
  };
}
