// Settings that arrive while a module folder is still loading reach it. An editor sends didOpen right after
// `initialized`, so the folder of that file starts loading before the server has the answer to its
// workspace/configuration request; the answer must not be lost on the model still being read.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ModuleFolders } from '../../server/src/documents/moduleFolders';
import type { ModelFileSystem } from '../../server/src/model/fileSystem';
import { MemoryFileSystem, testParser } from '../model/helpers';

const root = path.resolve('/workspace/app');
const main = path.join(root, 'main.tf');
const variables = path.join(root, 'variables.tf');
const cloudBlock = 'terraform {\n  cloud {\n    organization = "acme-demo"\n    workspaces {\n      name = "demo-app"\n    }\n  }\n}\n';

/**
 * Opens main.tf (its folder then loads) and holds the load on the read of variables.tf; `duringLoad` runs while it
 * is held. Resolves with the loaded model.
 */
async function openWhileLoading(mainText: string, duringLoad: (folders: ModuleFolders, disk: MemoryFileSystem) => void) {
  const disk = new MemoryFileSystem({ [main]: mainText, [variables]: 'variable "region" {}\n' });
  const release = disk.hold(variables);
  let readStarted!: () => void;
  const reading = new Promise<void>((resolve) => (readStarted = resolve));
  const watched: ModelFileSystem = {
    listFiles: (folder) => disk.listFiles(folder),
    readFile: (file) => {
      if (file === variables) readStarted();
      return disk.readFile(file);
    },
  };
  const folders = new ModuleFolders({ parser: testParser(), environment: {}, log: () => undefined, fileSystem: watched });
  const opened = folders.withModel(main, (model) => model, { text: mainText });
  await reading;
  duringLoad(folders, disk);
  release();
  const model = await opened;
  assert.ok(model);
  return { folders, model, disk };
}

test('the workspace override set while the opened file’s folder loads links that folder', async () => {
  const { folders, model } = await openWhileLoading('variable "name" {}\n', (folders) => folders.setOverride(root, { organization: 'acme-demo', workspace: 'sandbox' }));
  try {
    const link = model.serviceLink();
    assert.equal(link.mechanism, 'override');
    assert.equal(link.organization?.value, 'acme-demo');
    assert.deepEqual(link.workspace?.kind === 'name' && link.workspace.name.value, 'sandbox');
  } finally {
    folders.dispose();
  }
});

test('the workspace override set while the folder loads wins over its cloud block', async () => {
  const { folders, model } = await openWhileLoading(cloudBlock, (folders) => folders.setOverride(root, { organization: 'acme-demo', workspace: 'sandbox' }));
  try {
    const link = model.serviceLink();
    assert.equal(link.mechanism, 'cloud');
    assert.deepEqual(link.workspace?.kind === 'name' && link.workspace.name, { value: 'sandbox', source: 'override' });
  } finally {
    folders.dispose();
  }
});

test('a file size limit set while the folder loads applies to that folder’s files read afterwards', async () => {
  const { folders, model, disk } = await openWhileLoading('variable "name" {}\n', (folders) => folders.setMaxFileSize(40));
  try {
    disk.write(variables, `variable "region" {\n  default = "${'x'.repeat(60)}"\n}\n`);
    await folders.withModel(variables, (loaded) => loaded.fileChanged(variables));
    assert.deepEqual(model.largeFiles(), [variables]);
  } finally {
    folders.dispose();
  }
});
