// Folders created, deleted or moved, as the per-file events the models take. A watcher may report only the folder:
// VS Code's does for a folder deleted, and often for one created with its files at once (a checkout, a copy), as
// Node's recursive watch does for a folder moved. The models would otherwise keep a deleted folder's files (their
// variables declared, their diagnostics shown) and never read a new folder's. Used by the server's own disk watcher
// and for what a client's `**/*` watcher reports.
import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileChangeType } from 'vscode-languageserver';
import type { FileEvent } from 'vscode-languageserver';
import { classifyFileName } from '../model/fileKinds';
import { findModuleFolders, isSkippedFolderName } from './folderDiscovery';

export interface GoneFilesOptions {
  /** The files the models hold below a folder (absolute paths). */
  knownFilesUnder(folder: string): readonly string[];
  /** Files reported otherwise in the same batch, left out here. */
  except?: ReadonlySet<string>;
  log?(message: string): void;
}

/** Deletions of the known files below `folders` that are gone; a file still there is left out (a folder moved in or re-created reports its files itself). */
export async function goneFilesBelow(folders: Iterable<string>, options: GoneFilesOptions): Promise<FileEvent[]> {
  const files = new Set<string>();
  for (const folder of folders) {
    try {
      for (const file of options.knownFilesUnder(folder)) if (!options.except?.has(file)) files.add(file);
    } catch (error) {
      options.log?.(`Cannot list the files known below ${folder}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const gone = await Promise.all([...files].map(async (file) => ((await statOrGone(file)) === 'gone' ? deletedEvent(file) : undefined)));
  return gone.filter((event): event is FileEvent => event !== undefined);
}

/** The file's stats; 'gone' when it (or a folder above it) no longer exists; undefined when it cannot be read. */
export async function statOrGone(file: string): Promise<Stats | 'gone' | undefined> {
  try {
    return await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? 'gone' : undefined;
  }
}

export function deletedEvent(file: string): FileEvent {
  return { uri: pathToFileURL(file).href, type: FileChangeType.Deleted };
}

/**
 * Creations of the model files in `paths` that are folders (now), and in the module folders below them: a folder
 * created with its files may be reported alone. Other paths (files of other kinds, paths gone again) give nothing.
 */
export async function newFilesBelow(paths: Iterable<string>, log: (message: string) => void): Promise<FileEvent[]> {
  const events: FileEvent[] = [];
  for (const candidate of paths) {
    const stats = await statOrGone(candidate);
    if (stats === 'gone' || !stats?.isDirectory()) continue;
    for (const folder of await findModuleFolders(candidate, maxNewFolderDepth, log)) {
      const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if ((entry.isFile() || entry.isSymbolicLink()) && classifyFileName(entry.name)) events.push({ uri: pathToFileURL(path.join(folder, entry.name)).href, type: FileChangeType.Created });
      }
    }
  }
  return events;
}

/** As deep below a new folder as the start looks below a workspace folder. */
const maxNewFolderDepth = 8;

/**
 * Whether a path created in workspace folder `root` may be a folder to look into: inside it, and not in a tree that
 * never holds module files (a new node_modules is not read through, nor .git's objects).
 */
export function mayHoldModuleFolders(candidate: string, root: string | undefined): boolean {
  if (root === undefined) return false;
  const relative = path.relative(root, candidate);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return false;
  return !relative.split(path.sep).some(isSkippedFolderName);
}
