/** Builds a .tar.gz in memory (files at the archive root), as the configuration upload expects. */
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';

export async function tarGz(files: Record<string, string>): Promise<Uint8Array> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(files)) pack.entry({ name }, content);
  pack.finalize();
  const chunks: Buffer[] = [];
  const gzip = pack.pipe(createGzip());
  for await (const chunk of gzip) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}
