// What the server asks a client to watch for it (workspace/didChangeWatchedFiles, registered dynamically): the kinds
// of files the models read, and creations and deletions of anything, since a folder created, deleted or moved may
// come as the folder alone. The server's own DiskWatcher watches the same globs for a client that cannot.
import path from 'node:path';
import type { Connection } from 'vscode-languageserver';
import { DidChangeWatchedFilesNotification, WatchKind } from 'vscode-languageserver';
import { globMatcher } from './watchedPaths';

export const watchedFileGlobs = ['**/*.tf', '**/*.tfvars', '**/*.tfvars.json', '**/.terraform/environment', '**/.terraformignore'];

/**
 * Creations and deletions of anything: a folder deleted or moved away is reported by the client as the folder alone
 * (VS Code's watcher does so), and often one created with its files at once (a checkout, a copy), which the file
 * globs never match: the models would keep a deleted folder's files and never read a new one's (folderEvents.ts).
 */
export const folderWatcher = { globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete };

const watchedFileMatchers = watchedFileGlobs.map(globMatcher);

/** Whether a path is one of the kinds of files the globs name (checked by its `/`-separated absolute path). */
export function isWatchedFile(filePath: string): boolean {
  const slashed = filePath.split(path.sep).join('/');
  return watchedFileMatchers.some((matches) => matches(slashed));
}

/** Asks the client to watch the model files, and folders created or deleted, when it can register watchers dynamically. */
export async function registerFileWatchers(connection: Connection): Promise<void> {
  await connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [...watchedFileGlobs.map((globPattern) => ({ globPattern })), folderWatcher] });
}
