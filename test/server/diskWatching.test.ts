// A client that cannot watch files (no workspace.didChangeWatchedFiles dynamic registration: Neovim 0.7, 0.10+ on
// Linux) still gets diagnostics that follow the disk: the server watches the workspace folder itself. Every step
// waits on the diagnostics it causes (bounded), never on a timer.
import { mkdir, mkdtemp, rename, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { startSession, type LspSession, type PublishedDiagnostics as Published } from '../helpers/lspSession';


describe('the server watches the folders when the client cannot', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  const uriOf = (name: string) => pathToFileURL(path.join(session.folder, name)).href;
  const diagnosticsOf = (name: string, predicate: (params: Published) => boolean) =>
    session.waitForNext<Published>('textDocument/publishDiagnostics', (params) => params.uri === uriOf(name) && predicate(params), 10_000);
  const typeMismatch = (params: Published) => params.diagnostics.some((d) => d.code === 'type-mismatch' && d.message.includes('replica_count'));
  const undeclaredOwner = (params: Published) => params.diagnostics.some((d) => d.code === 'undeclared-variable' && d.message.includes('owner_email'));
  /** Folders of their own, each with a file whose diagnostic says its facts are in the model. */
  const strayFolders = ['stray', 'stray/nested'];
  const strayFile = (folder: string) => path.join(folder, 'main.tf');
  const undeclaredStray = (params: Published) => params.diagnostics.some((d) => d.code === 'undeclared-variable' && d.message.includes('stray_value'));

  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      // As Neovim 0.7 declares it: configuration and folders, no file watching.
      capabilities: { workspace: { configuration: true, workspaceFolders: true }, textDocument: { publishDiagnostics: {} } },
      prepare: async (folder) => {
        await writeFile(path.join(folder, 'main.tf'), `locals {\n  owner = var.owner_email\n}\n`, { flag: 'a' });
        for (const stray of strayFolders) {
          await mkdir(path.join(folder, stray), { recursive: true });
          await writeFile(path.join(folder, strayFile(stray)), `locals {\n  stray = var.stray_value\n}\n`);
        }
      },
    });
    await session.waitFor<Published>('textDocument/publishDiagnostics', (params) => params.uri === uriOf('main.tf') && undeclaredOwner(params));
    for (const stray of strayFolders) await session.waitFor<Published>('textDocument/publishDiagnostics', (params) => params.uri === uriOf(strayFile(stray)) && undeclaredStray(params), 10_000);
  });
  after(async () => {
    await session.close();
    await emulator.close();
  });

  test('a tfvars file added, changed and deleted on disk changes its diagnostics', async () => {
    const added = diagnosticsOf('extra.auto.tfvars', typeMismatch);
    await writeFile(path.join(session.folder, 'extra.auto.tfvars'), 'replica_count = [1, 2]\n');
    await added;
    const fixed = diagnosticsOf('extra.auto.tfvars', (params) => !typeMismatch(params));
    await writeFile(path.join(session.folder, 'extra.auto.tfvars'), 'replica_count = 2\n');
    await fixed;
    const brokenAgain = diagnosticsOf('extra.auto.tfvars', typeMismatch);
    await writeFile(path.join(session.folder, 'extra.auto.tfvars'), 'replica_count = "many"\n');
    await brokenAgain;
    // Deleted: its value no longer counts, and its diagnostics are cleared.
    const cleared = diagnosticsOf('extra.auto.tfvars', (params) => params.diagnostics.length === 0);
    await unlink(path.join(session.folder, 'extra.auto.tfvars'));
    await cleared;
  });

  test('a .tf file added and deleted on disk declares and undeclares its variable', async () => {
    const declared = diagnosticsOf('main.tf', (params) => !undeclaredOwner(params));
    await writeFile(path.join(session.folder, 'owner.tf'), 'variable "owner_email" {\n  type = string\n}\n');
    await declared;
    const undeclaredAgain = diagnosticsOf('main.tf', undeclaredOwner);
    await unlink(path.join(session.folder, 'owner.tf'));
    await undeclaredAgain;
  });

  // A move is one event, for the folder alone (a fast recursive delete loses some too: diskWatcher.test.ts): the
  // files the model held there, in the module folders below it too, are deleted all the same, and their facts go.
  test('a folder of module folders moved away takes its files\' facts with it', async () => {
    const cleared = strayFolders.map((stray) => diagnosticsOf(strayFile(stray), (params) => params.diagnostics.length === 0));
    const outside = await mkdtemp(path.join(os.tmpdir(), 'hcp-moved-'));
    try {
      await rename(path.join(session.folder, 'stray'), path.join(outside, 'stray'));
      await Promise.all(cleared);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
