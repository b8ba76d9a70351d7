// The configuration archive: gitignore-style .terraformignore rules, and .terraform/ and .git/ never uploaded.
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { describe, test } from 'node:test';
import { extract } from 'tar-stream';
import { buildConfigurationArchive } from '../../server/src/upload/archive';

async function entriesOf(archive: Buffer): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  const reader = extract();
  reader.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer));
    stream.on('end', () => {
      entries.set(header.name, Buffer.concat(chunks).toString('utf8'));
      next();
    });
  });
  await new Promise<void>((resolve, reject) => {
    reader.on('finish', resolve);
    reader.on('error', reject);
    Readable.from([archive]).pipe(createGunzip()).pipe(reader);
  });
  return entries;
}

describe('buildConfigurationArchive', () => {
  test('packs demo-app honouring its .terraformignore, never .terraform/ or .git/', async () => {
    const base = await mkdtemp(path.join(os.tmpdir(), 'archive-'));
    const folder = path.join(base, 'demo-app');
    try {
      await cp('test/fixtures/demo-app', folder, { recursive: true });
      await mkdir(path.join(folder, '.terraform', 'providers'), { recursive: true });
      await writeFile(path.join(folder, '.terraform', 'environment'), 'demo-app');
      await writeFile(path.join(folder, '.terraform', 'providers', 'big.bin'), 'binary');
      await mkdir(path.join(folder, '.git'));
      await writeFile(path.join(folder, '.git', 'config'), '[core]');
      await writeFile(path.join(folder, 'terraform.tfstate'), '{}');
      await writeFile(path.join(folder, 'inventory.json'), '[]');
      await mkdir(path.join(folder, 'modules', 'net'), { recursive: true });
      await writeFile(path.join(folder, 'modules', 'net', 'main.tf'), 'variable "cidr" {}\n');
      const { archive, files } = await buildConfigurationArchive(folder);
      const entries = await entriesOf(archive);
      assert.deepEqual([...entries.keys()].sort(), [...files].sort());
      assert.deepEqual(files.sort(), [
        '.terraformignore',
        'README.md',
        'demo.auto.tfvars',
        'main.tf',
        'modules/net/main.tf',
        'outputs.tf',
        'terraform.tfvars',
        'variables.tf',
      ]);
      assert.match(entries.get('main.tf')!, /cloud \{/);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  test('negated patterns and an ignored folder work as in gitignore; .git/ stays out even if re-included', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'archive-'));
    try {
      await writeFile(path.join(folder, '.terraformignore'), '*.log\n!keep.log\nbuild/\n!.git/\n');
      await writeFile(path.join(folder, 'main.tf'), '');
      await writeFile(path.join(folder, 'debug.log'), '');
      await writeFile(path.join(folder, 'keep.log'), '');
      await mkdir(path.join(folder, 'build'));
      await writeFile(path.join(folder, 'build', 'out.tf'), '');
      await mkdir(path.join(folder, '.git'));
      await writeFile(path.join(folder, '.git', 'HEAD'), 'ref');
      const { files } = await buildConfigurationArchive(folder);
      assert.deepEqual(files.sort(), ['.terraformignore', 'keep.log', 'main.tf']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
