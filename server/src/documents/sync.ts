// Text document sync (incremental) into the code models, and watched files for everything not open in the editor.
// Open-document text beats disk; a file's disk changes are ignored by its model while it is open.
import type { Connection } from 'vscode-languageserver';
import { DidChangeWatchedFilesNotification, FileChangeType } from 'vscode-languageserver';
import { folderOfFile, toPath } from './moduleFolders';
import type { ModuleFolders } from './moduleFolders';

/** What the server watches on disk (registered dynamically when the client supports it). */
export const watchedFileGlobs = ['**/*.tf', '**/*.tfvars', '**/*.tfvars.json', '**/.terraform/environment', '**/.terraformignore'];

/** The open documents as the features read them: the model's text (open text wins) and the client's version. */
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
  const versions = new Map<string, number>();
  connection.onDidOpenTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    versions.set(textDocument.uri, textDocument.version);
    void folders.withModel(textDocument.uri, (model) => model.openDocument(textDocument.uri, textDocument.text));
  });
  connection.onDidChangeTextDocument(({ textDocument, contentChanges }) => {
    if (!isFileUri(textDocument.uri)) return;
    versions.set(textDocument.uri, textDocument.version);
    void folders.withModel(textDocument.uri, (model) => model.changeDocument(textDocument.uri, contentChanges));
    edited(textDocument.uri);
  });
  connection.onDidCloseTextDocument(({ textDocument }) => {
    if (!isFileUri(textDocument.uri)) return;
    versions.delete(textDocument.uri);
    void folders.withModel(textDocument.uri, (model) => model.closeDocument(textDocument.uri));
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
      return text === undefined ? undefined : { getText: () => text, version: versions.get(uri) ?? 0 };
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
