// Reads an uploaded configuration (.tar.gz with the configuration at the archive root) into memory.
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { extract } from 'tar-stream';

const gunzipAsync = promisify(gunzip);
const maxFiles = 10_000;

/** Archive path → content for every regular file; rejects with a message that says what is wrong. */
export async function readTarGz(bytes: Buffer): Promise<Map<string, Buffer>> {
  if (bytes.length === 0) throw new Error('The upload is empty; send the configuration as a .tar.gz archive.');
  let tar: Buffer;
  try {
    tar = await gunzipAsync(bytes);
  } catch {
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
        if (files.size > maxFiles) return reject(new Error(`The archive holds more than ${maxFiles} files.`));
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
