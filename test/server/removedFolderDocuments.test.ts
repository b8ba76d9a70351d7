// A workspace folder closed (didChangeWorkspaceFolders) while one of its files is open with unsaved text: the
// client owns an open document's content (LSP), so the server keeps answering from the editor's text, not from
// disk, until the document closes; then the folder, outside every workspace folder, goes away.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  DidChangeTextDocumentNotification,
  DidChangeWorkspaceFoldersNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
} from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { linkedWorkspacesRequest } from '../../server/src/protocol';
import { startSession, type LspSession, type PublishedDiagnostics as Published } from '../helpers/lspSession';


describe('an open document whose workspace folder is closed', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  let mainUri: string;
  /** The names main.tf's published diagnostics call undeclared variables. */
  const undeclaredNames = (params: Published) => params.diagnostics.filter((d) => d.code === 'undeclared-variable').map((d) => /"([^"]+)"/.exec(d.message)?.[1]);
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

  test('keeps being served from the editor’s text: diagnostics, hover, and the edits that follow', async () => {
    const disk = await readFile(path.join(session.folder, 'main.tf'), 'utf8');
    // Unsaved: a local that only the buffer has, reading a variable nobody declares.
    const unsaved = `${disk}\nlocals {\n  only_in_buffer = var.typed_in_buffer\n  region_again   = var.region\n}\n`;
    const opened = mainDiagnostics((params) => undeclaredNames(params).includes('typed_in_buffer'));
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: mainUri, languageId: 'terraform', version: 1, text: unsaved } });
    await opened;

    await session.connection.sendNotification(DidChangeWorkspaceFoldersNotification.type, {
      event: { added: [], removed: [{ uri: session.folderUri, name: 'demo-app' }] },
    });
    const lines = unsaved.split('\n');
    const line = lines.findIndex((text) => text.includes('region_again'));
    const hover = await session.connection.sendRequest(HoverRequest.type, { textDocument: { uri: mainUri }, position: { line, character: lines[line]!.indexOf('var.region') + 5 } });
    assert.ok(hover, 'hover on a variable of the open document still answers');

    const end = { line: lines.length - 1, character: 0 };
    const edited = mainDiagnostics((params) => undeclaredNames(params).includes('typed_after_removal'));
    await session.connection.sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: mainUri, version: 2 },
      contentChanges: [{ range: { start: end, end }, text: 'locals {\n  later = var.typed_after_removal\n}\n' }],
    });
    const published = await edited;
    assert.ok(undeclaredNames(published).includes('typed_in_buffer'), 'the unsaved text is still the model’s, not the disk’s');
  });

  test('closing it afterwards lets its folder go: its diagnostics are cleared and it is linked no more', async () => {
    const cleared = mainDiagnostics((params) => params.diagnostics.length === 0);
    await session.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: mainUri } });
    await cleared;
    assert.deepEqual(await session.connection.sendRequest(linkedWorkspacesRequest), []);
  });
});
