// How the model reads files that are not open in the editor. Injected, so tests can use memory and the server
// the real disk.
import { readFile } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { promisify } from 'node:util';

// The callback readFile, promisified: fs/promises' readFile makes several round trips per file and was the
// slowest part of indexing a 1,000-file folder after parsing itself.
const readFileText = promisify(readFile);

export interface ModelFileSystem {
  /** The file's text, or undefined when it does not exist. Other failures (permissions...) throw. */
  readFile(path: string): Promise<string | undefined>;
  /** Names of the regular files directly in `folder`; empty when the folder does not exist. */
  listFiles(folder: string): Promise<string[]>;
}

export const nodeFileSystem: ModelFileSystem = {
  async readFile(path) {
    try {
      return await readFileText(path, 'utf8');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
  async listFiles(folder) {
    try {
      const entries = await readdir(folder, { withFileTypes: true });
      // Symlinked files count too: Terraform follows them (a shared providers.tf linked into many modules).
      return entries.filter((entry) => entry.isFile() || entry.isSymbolicLink()).map((entry) => entry.name);
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
  },
};

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
