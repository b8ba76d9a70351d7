// Packs a module folder as the .tar.gz a configuration version expects (files at the archive root), honouring
// `.terraformignore` with gitignore rules (the `ignore` package, as Terraform's own rules are gitignore-like).
// `.terraform/` and `.git/` are never uploaded, whatever the ignore file says: they hold provider binaries,
// state and credentials. Symbolic links are skipped (they may point outside the folder).
import { createGzip } from 'node:zlib';
import { lstat, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore from 'ignore';
import { pack } from 'tar-stream';

export const alwaysExcluded = ['.terraform', '.git'];
export const maxArchiveBytes = 200 * 1024 * 1024;

export interface ArchiveResult {
  archive: Buffer;
  /** Paths inside the archive (forward slashes), in the order written. */
  files: string[];
}

/** The relative paths (forward slashes) of the files that would be uploaded. */
export async function listUploadFiles(folder: string): Promise<string[]> {
  const rules = ignore();
  const ignoreFile = await readFile(path.join(folder, '.terraformignore'), 'utf8').catch((error: { code?: string }) => {
    if (error.code === 'ENOENT') return '';
    throw new Error(`Cannot read .terraformignore: ${error.code ?? String(error)}`);
  });
  rules.add(ignoreFile);
  const files: string[] = [];
  const visit = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(folder, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (alwaysExcluded.includes(entry.name) || rules.ignores(`${child}/`)) continue;
        await visit(child);
      } else if (entry.isFile()) {
        if (!rules.ignores(child)) files.push(child);
      }
      // Symbolic links and special files are skipped.
    }
  };
  await visit('');
  return files;
}

export async function buildConfigurationArchive(folder: string): Promise<ArchiveResult> {
  const files = await listUploadFiles(folder);
  const tar = pack();
  const gzip = createGzip();
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    gzip.on('end', resolve);
    gzip.on('error', reject);
    tar.on('error', reject);
  });
  tar.pipe(gzip);
  let total = 0;
  try {
    for (const file of files) {
      const full = path.join(folder, ...file.split('/'));
      const [content, stats] = await Promise.all([readFile(full), lstat(full)]);
      total += content.length;
      if (total > maxArchiveBytes) throw new Error(`The folder holds more than ${maxArchiveBytes / 1024 / 1024} MB to upload; add large files to .terraformignore.`);
      await new Promise<void>((resolve, reject) =>
        tar.entry({ name: file, size: content.length, mode: stats.mode & 0o777, mtime: stats.mtime }, content, (error) => (error ? reject(error) : resolve())),
      );
    }
    tar.finalize();
  } catch (error) {
    tar.destroy();
    gzip.destroy();
    throw error;
  }
  await done;
  return { archive: Buffer.concat(chunks), files };
}
