// Which folders on disk are module folders: those below a workspace folder that hold .tf or .tfvars files (found by
// walking the tree, skipping downloads and version control), and the module folder a model file belongs to. Apart
// from ModuleFolders, which keeps the models of the folders found: these are questions about paths and the disk
// alone, asked also by the watcher of new folders (folderEvents.ts) and by document sync, neither of which needs
// the models.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { classifyFileName, selectedWorkspaceFile } from '../model';

const skippedFolders = new Set(['node_modules', '.git', '.terraform', '.hg', '.svn']);

/** The module folder of a model file (`.terraform/environment` belongs to the folder above `.terraform`). */
export function folderOfFile(file: string): string | undefined {
  if (file.endsWith(path.sep + selectedWorkspaceFile.split('/').join(path.sep))) return path.dirname(path.dirname(file));
  return classifyFileName(path.basename(file)) ? path.dirname(file) : undefined;
}

/** A folder whose tree never holds the workspace's module files (downloads, version control, hidden ones). */
export function isSkippedFolderName(name: string): boolean {
  return skippedFolders.has(name) || name.startsWith('.');
}

/** Folders below `root` (itself included) that hold at least one .tf/.tfvars file. */
export async function findModuleFolders(root: string, maxDepth: number, log: (message: string) => void): Promise<string[]> {
  const found: string[] = [];
  const visit = async (folder: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (depth === 0) log(`Cannot list ${folder}: ${(error as { code?: string }).code ?? String(error)}`);
      return;
    }
    if (entries.some((entry) => entry.isFile() && classifyFileName(entry.name))) found.push(folder);
    if (depth >= maxDepth) return;
    await Promise.all(
      entries
        .filter((entry) => entry.isDirectory() && !isSkippedFolderName(entry.name))
        .map((entry) => visit(path.join(folder, entry.name), depth + 1)),
    );
  };
  await visit(root, 0);
  return found.sort();
}
