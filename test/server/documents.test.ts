// Document sync and watched files feed the code model: observed through the published diagnostics, as an editor
// would see them. Open text wins over disk; files not open are read from disk when the client says they changed.
import assert from 'node:assert/strict';
import { readFile, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  FileChangeType,
} from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { startSession, type LspSession, type PublishedDiagnostics as Published } from '../helpers/lspSession';


describe('documents and watched files', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  let mainUri: string;
  const undeclared = (params: Published, name: string) =>
    params.uri === mainUri && params.diagnostics.some((d) => d.code === 'undeclared-variable' && d.message.includes(name));
  const mainDiagnostics = (predicate: (params: Published) => boolean) =>
    session.waitForNext<Published>('textDocument/publishDiagnostics', (params) => params.uri === mainUri && predicate(params));

  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    mainUri = pathToFileURL(path.join(session.folder, 'main.tf')).href;
  });
  after(async () => {
    await session.close();
    await emulator.close();
  });

  test('the server registers watchers for every file kind it reads', async () => {
    const registration = await session.waitFor<{ registrations: Array<{ method: string; registerOptions: { watchers: Array<{ globPattern: string }> } }> }>(
      'client/registerCapability',
      (params) => params.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'),
    );
    const globs = registration.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles')!.registerOptions.watchers.map((w) => w.globPattern);
    // (`**/*` hears deletions only: a deleted folder comes as the folder alone, test/server/folderDeletion.test.ts.)
    assert.deepEqual(globs.sort(), ['**/*', '**/*.tf', '**/*.tfvars', '**/*.tfvars.json', '**/.terraform/environment', '**/.terraformignore'].sort());
  });

  test('a file created on disk is read when the client reports it', async () => {
    await session.waitFor<Published>('textDocument/publishDiagnostics', (params) => undeclared(params, 'owner_email'));
    const ownerFile = path.join(session.folder, 'owner.tf');
    await writeFile(ownerFile, 'variable "owner_email" {\n  type = string\n}\n');
    const resolved = mainDiagnostics((params) => !undeclared(params, 'owner_email'));
    await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(ownerFile).href, type: FileChangeType.Created }] });
    await resolved;
    const again = mainDiagnostics((params) => undeclared(params, 'owner_email'));
    await unlink(ownerFile);
    await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: pathToFileURL(ownerFile).href, type: FileChangeType.Deleted }] });
    await again;
  });

  test('incremental edits of an open document update the model; closing it returns to the disk content', async () => {
    const text = await readFile(path.join(session.folder, 'main.tf'), 'utf8');
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: mainUri, languageId: 'terraform', version: 1, text } });
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('name_prefix = "demo-${var.environment}"'));
    const column = lines[line]!.length;
    const edited = mainDiagnostics((params) => undeclared(params, 'brand_new'));
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: mainUri, version: 2 },
      contentChanges: [{ range: { start: { line, character: column }, end: { line, character: column } }, text: '\n  extra = var.brand_new' }],
    });
    await edited;
    // The open text wins: a disk change to an open file is ignored until it closes.
    await session.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: mainUri, type: FileChangeType.Changed }] });
    const closed = mainDiagnostics((params) => !undeclared(params, 'brand_new') && undeclared(params, 'owner_email'));
    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: mainUri } });
    await closed;
  });

  test('a half-typed file does not stop the server', async () => {
    const broken = pathToFileURL(path.join(session.folder, 'broken.tf')).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: broken, languageId: 'terraform', version: 1, text: 'resource "x" "y" {\n  a = var.\n' },
    });
    // Completion right after the half-typed `var.` works from the model the sync just fed.
    const completion = (await session.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: broken }, position: { line: 1, character: 10 } })) as
      | { items: Array<{ label: string }> }
      | Array<{ label: string }>
      | null;
    const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
    assert.ok(items.some((item) => item.label === 'region'), items.map((item) => item.label).join(', '));
    assert.equal(session.child.exitCode, null);
  });
});
