// Configuration archives: .tar.gz with the configuration at the archive root, read into memory and written back.
import { gunzip, gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { extract, pack } from 'tar-stream';

const gunzipAsync = promisify(gunzip);
const gzipAsync = promisify(gzip);
const maxFiles = 10_000;
/** What an upload may unpack to: a few kilobytes of gzip can otherwise expand to gigabytes (a "zip bomb"). */
export const maxUnpackedBytes = 256 * 1024 * 1024;

/** The archive is readable but larger than the service takes: the upload answers 413, not 422. */
export class ArchiveTooLarge extends Error {}

/** Archive path → content for every regular file; rejects with a message that says what is wrong. */
export async function readTarGz(bytes: Buffer): Promise<Map<string, Buffer>> {
  if (bytes.length === 0) throw new Error('The upload is empty; send the configuration as a .tar.gz archive.');
  let tar: Buffer;
  try {
    tar = await gunzipAsync(bytes, { maxOutputLength: maxUnpackedBytes });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ArchiveTooLarge(`The archive unpacks to more than ${maxUnpackedBytes / 1024 / 1024} MiB.`);
    throw new Error('The upload is not gzip-compressed; send the configuration as a .tar.gz archive.');
  }
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    const extractor = extract();
    extractor.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
      stream.on('end', () => {
        if (header.type === 'file') files.set(header.name.replace(/^\.\//, ''), Buffer.concat(chunks));
        if (files.size > maxFiles) return reject(new ArchiveTooLarge(`The archive holds more than ${maxFiles} files.`));
        next();
      });
      stream.on('error', reject);
    });
    extractor.on('finish', resolve);
    extractor.on('error', () => reject(new Error('The upload is not a valid tar archive inside the gzip stream.')));
    extractor.end(tar);
  });
  return files;
}

/** Packs files back into a .tar.gz (the configuration version download). */
export async function writeTarGz(files: Map<string, Buffer>): Promise<Buffer> {
  const archive = pack();
  for (const [name, content] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) archive.entry({ name }, content);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return gzipAsync(Buffer.concat(chunks));
}
