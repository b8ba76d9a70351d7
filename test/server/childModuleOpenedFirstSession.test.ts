// Over a real LSP session, as an editor started on a child module's file does it: the file is opened right after
// `initialized`, before the root module that calls it is read. With the hcpTerraform.workspace setting, the child
// must never be told of a link, not even until its caller loads: no workspaceChanged naming a workspace for it,
// no diagnostic that reads the workspace (`cidr` "has no value": the call gives it one).
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { netText, startChildModuleSession } from '../helpers/childModuleFixture';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { workspaceChangedNotification, type LinkedFolder } from '../../server/src/protocol';
import type { LspSession, PublishedDiagnostics as Published } from '../helpers/lspSession';


describe('a child module opened before its caller is read', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(async () => {
    await session?.close();
    await emulator.close();
  });

  test('is never linked to the workspace the setting names, nor given diagnostics that read it', async () => {
    session = await startChildModuleSession(emulator);
    const netFolderUri = `${session.folderUri}/modules/net`;
    const netUri = pathToFileURL(path.join(session.folder, 'modules', 'net', 'main.tf')).href;
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: netUri, languageId: 'terraform', version: 1, text: netText } });

    // Everything is read and linked: the root module to the workspace, with its variables (a diagnostic that
    // needs them is published for it), and the child's diagnostics once its caller is known.
    await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.folderUri === session.folderUri && folder.state.kind === 'linked');
    await session.waitFor<Published>('textDocument/publishDiagnostics', (params) => params.uri === `${session.folderUri}/main.tf`);
    await session.waitFor<Published>('textDocument/publishDiagnostics', (params) => params.uri === netUri && params.version === 1);

    const netNotices = session.received
      .filter((message) => message.method === workspaceChangedNotification.method)
      .map((message) => message.params as LinkedFolder)
      .filter((folder) => folder.folderUri === netFolderUri);
    assert.ok(netNotices.length > 0, 'the child folder was described');
    assert.deepEqual(netNotices.filter((folder) => folder.mechanism !== 'none' || folder.state.kind !== 'not-linked'), []);
    const workspaceDiagnostics = session.received
      .filter((message) => message.method === 'textDocument/publishDiagnostics')
      .map((message) => message.params as Published)
      .filter((params) => params.uri === netUri)
      .flatMap((params) => params.diagnostics.filter((diagnostic) => diagnostic.code === 'missing-value' || diagnostic.code === 'workspace-link'));
    assert.deepEqual(workspaceDiagnostics, []);
  });
});
