// A client that watches files for the server (VS Code) reports a folder deleted or moved away as the folder alone,
// and often one created with its files at once: the server registers a watcher of folders for it, the files its
// models knew below a deleted folder go with it, and a new folder's module files are read. Without it, a deleted
// folder's variables stayed declared and its diagnostics shown, and a new folder was never read.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { DidChangeWatchedFilesNotification, FileChangeType, WatchKind } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { startSession, type LspSession, type PublishedDiagnostics as Published } from '../helpers/lspSession';


describe('folders created and deleted, as a watching client reports them', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  const strayFolders = ['stray', 'stray/nested'];
  const strayUri = (folder: string) => pathToFileURL(path.join(session.folder, folder, 'main.tf')).href;
  const undeclaredStray = (params: Published) => params.diagnostics.some((d) => d.code === 'undeclared-variable' && d.message.includes('stray_value'));

  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      prepare: async (folder) => {
        for (const stray of strayFolders) {
          await mkdir(path.join(folder, stray), { recursive: true });
          await writeFile(path.join(folder, stray, 'main.tf'), `locals {\n  stray = var.stray_value\n}\n`);
        }
      },
    });
    for (const stray of strayFolders) await session.waitFor<Published>('textDocument/publishDiagnostics', (params) => params.uri === strayUri(stray) && undeclaredStray(params), 10_000);
  });
  after(async () => {
    await session.close();
    await emulator.close();
  });

  test('the server asks to hear of every creation and deletion, not only of the files it reads', async () => {
    const registration = await session.waitFor<{ registrations: Array<{ method: string; registerOptions: { watchers: Array<{ globPattern: string; kind?: number }> } }> }>(
      'client/registerCapability',
      (params) => params.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'),
    );
    const watchers = registration.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles')!.registerOptions.watchers;
    assert.deepEqual(
      watchers.find((w) => w.globPattern === '**/*'),
      { globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete },
    );
  });

  test('a deleted folder of module folders, reported alone, takes its files\' facts with it', async () => {
    const cleared = strayFolders.map((stray) => session.waitForNext<Published>('textDocument/publishDiagnostics', (params) => params.uri === strayUri(stray) && params.diagnostics.length === 0, 10_000));
    await rm(path.join(session.folder, 'stray'), { recursive: true });
    await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(path.join(session.folder, 'stray')).href, type: FileChangeType.Deleted }] });
    await Promise.all(cleared);
  });

  test('a new folder of module folders, reported alone, is read: its files\' diagnostics come', async () => {
    const arrived = ['arrived', 'arrived/nested'];
    for (const folder of arrived) {
      await mkdir(path.join(session.folder, folder), { recursive: true });
      await writeFile(path.join(session.folder, folder, 'main.tf'), `locals {\n  arrived = var.arrived_value\n}\n`);
    }
    const read = arrived.map((folder) =>
      session.waitForNext<Published>('textDocument/publishDiagnostics', (params) => params.uri === strayUri(folder) && params.diagnostics.some((d) => d.message.includes('arrived_value')), 10_000),
    );
    await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(path.join(session.folder, 'arrived')).href, type: FileChangeType.Created }] });
    await Promise.all(read);
  });
});
