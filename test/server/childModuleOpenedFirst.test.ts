// A child module opened in the editor before the root module that calls it has loaded (the editor's file loads
// first, the workspace behind it): the hcpTerraform.workspace override must never reach it, not even until its
// caller loads, or it is told of a workspace, its variables "have no value" and run actions name wrong addresses.
// The caller's read is held until the child is loaded, so the order is certain; no timer is waited on.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ModuleFolders } from '../../server/src/documents/moduleFolders';
import { nodeFileSystem } from '../../server/src/model/fileSystem';
import type { ModelFileSystem } from '../../server/src/model/fileSystem';
import { testParser } from '../model/helpers';

const override = { organization: 'acme-demo', workspace: 'demo-app' };
const netText = 'variable "cidr" {\n  type = string\n}\n';
let root: string;
let rootMain: string;
let netMain: string;

before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'hcp-child-first-'));
  rootMain = path.join(root, 'main.tf');
  netMain = path.join(root, 'modules', 'net', 'main.tf');
  await mkdir(path.dirname(netMain), { recursive: true });
  await writeFile(rootMain, 'module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n');
  await writeFile(netMain, netText);
});
after(() => rm(root, { recursive: true, force: true }));

/** The disk, with the reads of `held` waiting until released; `reached` resolves once one waits. */
function holding(held: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reachedHold!: () => void;
  const reached = new Promise<void>((resolve) => (reachedHold = resolve));
  const fileSystem: ModelFileSystem = {
    listFiles: (folder) => nodeFileSystem.listFiles(folder),
    async readFile(file) {
      if (file === held) {
        reachedHold();
        await released;
      }
      return nodeFileSystem.readFile(file);
    },
  };
  return { fileSystem, reached, release };
}

for (const settingsFirst of [true, false]) {
  test(`a child module opened while its caller loads never takes the override (settings ${settingsFirst ? 'before' : 'after'} the folders)`, async () => {
    const disk = holding(rootMain);
    const folders = new ModuleFolders({ parser: testParser(), environment: {}, log: () => undefined, fileSystem: disk.fileSystem });
    // Every link the child's model ever had, as the server's listeners see them (added, then each change).
    const netLinks: string[] = [];
    folders.onDidChange((event) => {
      if (event.model.folder === path.dirname(netMain)) netLinks.push(event.model.serviceLink().mechanism);
    });
    try {
      // As the server does: the folders are expected from `initialize`; the settings are read, then the folders added.
      folders.expectRoots([root]);
      if (settingsFirst) folders.setOverride(root, override);
      const loaded = folders.addRoot(root);
      await disk.reached;
      const netOpened = folders.withModel(netMain, (model) => model.serviceLink().mechanism, { text: netText });
      assert.equal(await netOpened, 'none');
      if (!settingsFirst) folders.setOverride(root, override);
      disk.release();
      await loaded;
      const rootLink = await folders.withModel(rootMain, (model) => model.serviceLink().mechanism);
      assert.equal(rootLink, 'override', 'the root module takes the override once its calls are known');
      assert.equal(await folders.withModel(netMain, (model) => model.serviceLink().mechanism), 'none');
      assert.ok(netLinks.length > 0);
      assert.deepEqual(netLinks.filter((mechanism) => mechanism !== 'none'), []);
    } finally {
      disk.release();
      folders.dispose();
    }
  });
}

// A workspace folder added later holds back only its own folders: one already linked stays linked meanwhile.
test('a root module already linked keeps its override while another workspace folder loads', async () => {
  const other = await mkdtemp(path.join(os.tmpdir(), 'hcp-child-first-other-'));
  const otherMain = path.join(other, 'main.tf');
  await writeFile(otherMain, 'variable "region" {}\n');
  const disk = holding(otherMain);
  const folders = new ModuleFolders({ parser: testParser(), environment: {}, log: () => undefined, fileSystem: disk.fileSystem });
  const rootLinks: string[] = [];
  try {
    folders.setOverride(root, override);
    await folders.addRoot(root);
    folders.onDidChange((event) => {
      if (event.model.folder === root) rootLinks.push(event.model.serviceLink().mechanism);
    });
    const otherLoaded = folders.addRoot(other);
    await disk.reached;
    // Settings read meanwhile give every folder its override again.
    folders.setOverride(other, {});
    assert.equal(await folders.withModel(rootMain, (model) => model.serviceLink().mechanism), 'override');
    disk.release();
    await otherLoaded;
    assert.equal(await folders.withModel(rootMain, (model) => model.serviceLink().mechanism), 'override');
    assert.deepEqual(rootLinks.filter((mechanism) => mechanism !== 'override'), []);
  } finally {
    disk.release();
    folders.dispose();
    await rm(other, { recursive: true, force: true });
  }
});
