// The hcpTerraform.workspace override links root modules only: a folder another module folder calls through a
// local `source` is part of its caller's configuration. Linked on its own it got false diagnostics (a variable
// whose value the call gives "has no value") and run actions on the wrong addresses. Whatever order the folders
// load in, and as the calls are edited.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ModuleFolders } from '../../server/src/documents/moduleFolders';
import type { ModuleFolderModel } from '../../server/src/model';
import { MemoryFileSystem, testParser } from '../model/helpers';

const root = path.resolve('/workspace');
const app = path.join(root, 'app');
const appMain = path.join(app, 'main.tf');
const net = path.join(app, 'modules', 'net');
const netMain = path.join(net, 'main.tf');
const callingNet = 'module "net" {\n  source = "./modules/net"\n  cidr   = "10.0.0.0/16"\n}\n';
const override = { organization: 'acme-demo', workspace: 'demo-app' };

function setUp() {
  const disk = new MemoryFileSystem({
    [appMain]: callingNet,
    [netMain]: 'variable "cidr" {\n  type = string\n}\nresource "terraform_data" "vpc" {\n  input = var.cidr\n}\n',
  });
  const folders = new ModuleFolders({ parser: testParser(), environment: {}, log: () => undefined, fileSystem: disk });
  folders.setOverride(root, override);
  return { disk, folders };
}

/** The folder's link once the work queued on it (an override given to it) is done. */
async function linkOf(folders: ModuleFolders, file: string) {
  const link = await folders.withModel(file, (model: ModuleFolderModel) => model.serviceLink());
  assert.ok(link);
  return link;
}

test('a module folder loaded before the root that calls it stops taking the override once its caller loads', async () => {
  const { folders } = setUp();
  try {
    await folders.ensure(net);
    await folders.ensure(app);
    assert.equal((await linkOf(folders, netMain)).mechanism, 'none');
    const appLink = await linkOf(folders, appMain);
    assert.equal(appLink.mechanism, 'override');
    assert.deepEqual(appLink.workspace?.kind === 'name' && appLink.workspace.name.value, 'demo-app');
  } finally {
    folders.dispose();
  }
});

test('a module folder loaded after its caller never takes the override', async () => {
  const { folders } = setUp();
  try {
    await folders.ensure(app);
    const model = await folders.ensure(net);
    assert.equal(model?.serviceLink().mechanism, 'none');
  } finally {
    folders.dispose();
  }
});

test('a module folder whose call is edited away takes the override again, and leaves it when called again', async () => {
  const { disk, folders } = setUp();
  try {
    await folders.ensure(app);
    await folders.ensure(net);
    disk.write(appMain, 'module "net" {\n  source = "hashicorp/net/aws"\n}\n');
    await folders.withModel(appMain, (model) => model.fileChanged(appMain));
    assert.equal((await linkOf(folders, netMain)).mechanism, 'override');

    disk.write(appMain, callingNet);
    await folders.withModel(appMain, (model) => model.fileChanged(appMain));
    assert.equal((await linkOf(folders, netMain)).mechanism, 'none');
  } finally {
    folders.dispose();
  }
});

test('a module folder whose caller went away (its workspace folder closed) takes the override again', async () => {
  const { disk, folders } = setUp();
  const callers = path.resolve('/callers');
  const callerMain = path.join(callers, 'main.tf');
  disk.write(appMain, 'variable "unrelated" {}\n');
  disk.write(callerMain, `module "net" {\n  source = "../workspace/app/modules/net"\n}\n`);
  try {
    folders.setOverride(callers, {});
    await folders.ensure(callers);
    await folders.ensure(net);
    assert.equal((await linkOf(folders, netMain)).mechanism, 'none');
    folders.removeRoot(callers);
    assert.equal((await linkOf(folders, netMain)).mechanism, 'override');
  } finally {
    folders.dispose();
  }
});
