// Text document sync (incremental) into the code models, and watched files for everything not open in the editor.
// Open-document text beats disk; a file's disk changes are ignored by its model while it is open.
import type { Connection } from 'vscode-languageserver';
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver';
import { folderOfFile, toPath } from './moduleFolders';
import type { ModuleFolders } from './moduleFolders';
import type { TextChange } from '../model';

/** What the server watches on disk (registered dynamically when the client supports it). */
export const watchedFileGlobs = ['**/*.tf', '**/*.tfvars', '**/*.tfvars.json', '**/.terraform/environment', '**/.terraformignore'];

/** The open documents as the features read them: the model's text (open text wins) and the version it is. */
export interface OpenDocumentView {
  get(uri: string): { getText(): string; version: number } | undefined;
}

/** `onEdit`: a file's content changed by the user (typed in the editor, or changed on disk), not by opening it. */
export function registerDocumentSync(connection: Connection, folders: ModuleFolders, onEdit?: (file: string) => void): OpenDocumentView {
  const edited = (uri: string) => {
    try {
      onEdit?.(toPath(uri));
    } catch {
      // a listener's failure must not stop the sync
    }
  };
  // The client's version of each open document, and the one the model has applied (behind while a folder loads).
  const versions = new Map<string, number>();
  const applied = new Map<string, number>();
  // Changes not yet applied, per document: a burst that arrives while the folder is busy is applied in one go
  // (one parse), not one queued update per keystroke.
  const pending = new Map<string, { changes: TextChange[]; version: number }>();
  connection.onDidOpenTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    const { uri, version, text } = textDocument;
    versions.set(uri, version);
    pending.delete(uri);
    void folders.withModel(uri, (model) => {
      model.openDocument(uri, text);
      applied.set(uri, version);
    });
  });
  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    if (!isFileUri(textDocument.uri)) return;
    const { uri, version } = textDocument;
    versions.set(uri, version);
    const queued = pending.get(uri);
    if (queued) {
      queued.changes.push(...contentChanges);
      queued.version = version;
    } else {
      const batch = { changes: [...contentChanges], version };
      pending.set(uri, batch);
      void folders.withModel(uri, (model) => {
        if (pending.get(uri) === batch) pending.delete(uri);
        if (model.changeDocument(uri, batch.changes)) applied.set(uri, batch.version);
      });
    }
    edited(uri);
  });
  connection.onDidCloseTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    versions.delete(textDocument.uri);
    pending.delete(textDocument.uri);
    void folders.withModel(textDocument.uri, (model) => {
      applied.delete(textDocument.uri);
      return model.closeDocument(textDocument.uri);
    });
  });
  connection.onDidChangeWatchedFiles(({ changes }) => {
    for (const change of changes) {
      if (!isFileUri(change.uri)) continue;
      if (folderOfFile(toPath(change.uri))) edited(change.uri);
      if (change.type === FileChangeType.Deleted) {
        // A deleted file of an unknown folder needs no model.
        if (folders.modelFor(change.uri)) void folders.withModel(change.uri, (model) => model.fileDeleted(change.uri));
      } else void folders.withModel(change.uri, (model) => model.fileChanged(change.uri));
    }
  });
  return {
    get(uri) {
      const text = folders.modelFor(uri)?.openText(uri);
      return text === undefined ? undefined : { getText: () => text, version: applied.get(uri) ?? versions.get(uri) ?? 0 };
    },
  };
}

/** Asks the client to watch the model files, when it can register watchers dynamically. */
export async function registerFileWatchers(connection: Connection): Promise<void> {
  await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: watchedFileGlobs.map((globPattern) => ({ globPattern })) });
}

function isFileUri(uri: string): boolean {
  return uri.startsWith('file:');
}
