// Linking a folder to its workspace over a real LSP session: the cloud block names no hostname, so the configured
// address (the emulator) is used; the server reads the workspace and reports it linked.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, beforeEach, describe, test } from 'node:test';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { linkedWorkspacesRequest, workspaceChangedNotification, type LinkedFolder } from '../../server/src/protocol';
import { startSession, type LspSession } from '../helpers/lspSession';

describe('linking folders to workspaces', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(async () => {
    await emulator.close();
  });
  // The emulator's clock is manual, so its rate-limit window (30 requests a second per token) never moves on by
  // itself: without a reset every test's requests counted against one window, and the sixth session met a 429.
  beforeEach(() => emulator.control.reset());

  const linked = (folder: LinkedFolder) => folder.state.kind === 'linked';

  test('links demo-app to acme-demo/demo-app on the configured address and reads its variables', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      const notice = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, linked);
      const host = new URL(emulator.url).host;
      assert.equal(notice.folderUri, session.folderUri);
      assert.equal(notice.mechanism, 'cloud');
      assert.equal(notice.hostname, host);
      assert.equal(notice.organization, 'acme-demo');
      assert.equal(notice.workspaceName, 'demo-app');
      assert.equal(notice.signedIn, true);
      assert.ok(notice.state.kind === 'linked' && notice.state.workspace.id.startsWith('ws-'));
      const folders = await session.connection.sendRequest(linkedWorkspacesRequest);
      assert.deepEqual(folders.map((folder) => [folder.folderUri, folder.state.kind]), [[session.folderUri, 'linked']]);
      // The snapshot reaches the language features: a diagnostic that needs the workspace's variables appears.
      const published = await session.waitFor<{ uri: string; diagnostics: Array<{ code?: unknown; source?: string }> }>('textDocument/publishDiagnostics', (params) =>
        params.diagnostics.some((diagnostic) => diagnostic.source === 'hcp-terraform' && diagnostic.code === 'sensitive-exposed'),
      );
      assert.ok(published.uri.endsWith('/variables.tf'));
      // Read once the variables are in (the link is told as soon as the workspace is found, before they are read).
      const paths = emulator.control.requests().map((request) => request.path);
      assert.ok(paths.some((p) => p.startsWith('/api/v2/organizations/acme-demo/workspaces/demo-app')), paths.join('\n'));
      assert.ok(paths.some((p) => p.startsWith('/api/v2/vars?')), 'reads the workspace variables through /vars');
      assert.ok(paths.some((p) => p === '/api/v2/organizations/acme-demo/subscription'), 'reads the subscription');
    } finally {
      await session.close();
    }
    assert.doesNotMatch(session.stderr(), new RegExp(emulator.tokens.owner));
  });

  test('the hcpTerraform.workspace setting overrides the cloud block', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, settings: { workspace: { name: 'staging-api' } } });
    try {
      const notice = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => linked(folder) && folder.workspaceName === 'staging-api');
      assert.ok(notice.state.kind === 'linked' && notice.state.workspace.name === 'staging-api');
    } finally {
      await session.close();
    }
  });

  test('every module folder of a workspace folder, in several organizations at once', async () => {
    const session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      prepare: async (folder) => {
        await mkdir(path.join(folder, 'modules', 'net'), { recursive: true });
        await writeFile(path.join(folder, 'modules', 'net', 'main.tf'), 'variable "cidr" {\n  type = string\n}\n');
        await mkdir(path.join(folder, 'envs', 'free'), { recursive: true });
        await writeFile(
          path.join(folder, 'envs', 'free', 'main.tf'),
          'terraform {\n  cloud {\n    organization = "acme-free"\n    workspaces {\n      name = "hello-world"\n    }\n  }\n}\n',
        );
      },
    });
    try {
      await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => linked(folder) && folder.organization === 'acme-free');
      await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => linked(folder) && folder.organization === 'acme-demo');
      // Module folders are indexed one after the other in the background: wait for the last one too.
      await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.folderUri.endsWith('/modules/net'));
      const folders = await session.connection.sendRequest(linkedWorkspacesRequest);
      const byPath = Object.fromEntries(folders.map((folder) => [folder.folderUri.slice(session.folderUri.length) || '/', folder]));
      assert.deepEqual(Object.keys(byPath).sort(), ['/', '/envs/free', '/modules/net']);
      assert.equal(byPath['/']!.workspaceName, 'demo-app');
      assert.equal(byPath['/envs/free']!.workspaceName, 'hello-world');
      assert.deepEqual(byPath['/modules/net']!.state, { kind: 'not-linked' });
      assert.equal(byPath['/modules/net']!.mechanism, 'none');
    } finally {
      await session.close();
    }
  });

  test('settings are re-read on workspace/didChangeConfiguration', async () => {
    const settings: { workspace?: { name: string } } = {};
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, settings });
    try {
      await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => linked(folder) && folder.workspaceName === 'demo-app');
      settings.workspace = { name: 'prod-network' };
      await session.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: {} });
      const notice = await session.waitForNext<LinkedFolder>(workspaceChangedNotification.method, (folder) => linked(folder) && folder.workspaceName === 'prod-network');
      assert.equal(notice.mechanism, 'cloud');
    } finally {
      await session.close();
    }
  });

  test('a malformed answer from the service becomes an error state with a clear message, and the server goes on', async () => {
    emulator.control.injectFault({ path: '/api/v2/organizations/acme-demo/workspaces/demo-app', kind: 'malformed', times: 1 });
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      const notice = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'error');
      assert.ok(notice.state.kind === 'error');
      assert.match(notice.state.message, /Could not read the workspace: the service sent an unexpected response/);
      assert.ok(!notice.state.message.includes(emulator.tokens.owner));
      assert.equal((await session.connection.sendRequest(linkedWorkspacesRequest))[0]!.state.kind, 'error');
    } finally {
      emulator.control.clearFaults();
      await session.close();
    }
  });

  test('a workspace the service does not have is reported not-found, and the server keeps going', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner, settings: { workspace: { name: 'no-such-workspace' } } });
    try {
      const notice = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'not-found');
      assert.deepEqual(notice.state, { kind: 'not-found', hostname: new URL(emulator.url).host, organization: 'acme-demo', name: 'no-such-workspace' });
      assert.equal((await session.connection.sendRequest(linkedWorkspacesRequest)).length, 1);
    } finally {
      await session.close();
    }
  });
});
