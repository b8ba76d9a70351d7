// Over a real LSP session: with the hcpTerraform.workspace setting, a module folder that the workspace's root
// module calls (`module "net" { source = "./modules/net" }`) is not linked to the workspace. Linked, it was told
// that `cidr` "has no value" (the call gives it one) and offered "Queue a plan targeting terraform_data.vpc" (the
// real address is module.net.terraform_data.vpc) and "Plan local changes" (which would upload the module alone).
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { netText, startChildModuleSession } from '../helpers/childModuleFixture';
import { DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { linkedWorkspacesRequest, workspaceChangedNotification, type LinkedFolder } from '../../server/src/protocol';
import type { LspSession, PublishedDiagnostics as Published } from '../helpers/lspSession';


describe('the workspace override and child modules', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    session = await startChildModuleSession(emulator);
  });
  after(async () => {
    await session.close();
    await emulator.close();
  });

  test('links the root module to the workspace and leaves the module it calls unlinked, without run actions or false diagnostics', async () => {
    const netFolderUri = `${session.folderUri}/modules/net`;
    await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.folderUri === session.folderUri && folder.state.kind === 'linked');
    await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.folderUri === netFolderUri && folder.mechanism === 'none');
    const links = await session.connection.sendRequest(linkedWorkspacesRequest);
    assert.deepEqual(
      links.map((folder) => [folder.folderUri.slice(session.folderUri.length) || '/', folder.mechanism, folder.state.kind, folder.workspaceName]),
      [
        ['/', 'cloud', 'linked', 'demo-app'],
        ['/modules/net', 'none', 'not-linked', undefined],
      ],
    );

    const netUri = pathToFileURL(path.join(session.folder, 'modules', 'net', 'main.tf')).href;
    const published = session.waitForNext<Published>('textDocument/publishDiagnostics', (params) => params.uri === netUri && params.version === 1);
    await session.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: netUri, languageId: 'terraform', version: 1, text: netText } });
    assert.deepEqual((await published).diagnostics.filter((diagnostic) => diagnostic.code === 'missing-value'), []);
    const actions = (await session.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: netUri },
      range: { start: { line: 5, character: 2 }, end: { line: 5, character: 2 } },
      context: { diagnostics: [] },
    })) as Array<{ title: string }> | null;
    assert.deepEqual((actions ?? []).map((action) => action.title).filter((title) => /Queue a plan|Plan local changes/.test(title)), []);
  });
});
