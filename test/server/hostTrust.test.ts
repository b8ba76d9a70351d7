// Workspace trust over real LSP sessions: an address the workspace's settings name (here the emulator, while the
// user's own address is app.terraform.io) gets no token until the user trusts it, asked once: by
// window/showMessageRequest in any editor, by hcpTerraform/trustHost where the client declared it (VS Code's modal).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { serverStatusRequest, workspaceChangedNotification } from '../../server/src/protocol';
import type { LinkedFolder, TrustHostParams } from '../../server/src/protocol';
import { startSession } from '../helpers/lspSession';

describe('a host the workspace names is trusted before a token goes there', () => {
  let emulator: RunningEmulator;
  let host: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    host = new URL(emulator.url).host;
  });
  after(async () => {
    await emulator.close();
  });

  const session = (answer: Record<string, (params: any) => unknown>, initializationOptions?: Record<string, unknown>) =>
    startSession({
      address: 'https://app.terraform.io',
      settings: { address: emulator.url },
      env: { [`TF_TOKEN_127_0_0_1:${new URL(emulator.url).port}`]: emulator.tokens.member },
      answer,
      ...(initializationOptions ? { initializationOptions } : {}),
    });
  const tokenRequests = () => emulator.control.requests().filter((request) => request.tokenRole !== undefined).length;

  test('any editor: window/showMessageRequest; declined, no request carries the token and the folder says why', async () => {
    const before = tokenRequests();
    const lsp = await session({ 'window/showMessageRequest': () => ({ title: 'Do not trust' }) });
    try {
      const asked = await lsp.waitFor<{ message: string; actions: Array<{ title: string }> }>('window/showMessageRequest');
      assert.match(asked.message, new RegExp(`${emulator.url.replace(/[.]/g, '\\.')}.*Send your API token for ${host.replace(/[.]/g, '\\.')} there\\?`));
      assert.deepEqual(asked.actions.map((action) => action.title), ['Trust', 'Do not trust']);
      const folder = await lsp.waitFor<LinkedFolder>(workspaceChangedNotification.method, (f) => f.state.kind === 'error' && /did not trust/.test(f.state.message));
      assert.equal(folder.signedIn, false);
      assert.equal((await lsp.connection.sendRequest(serverStatusRequest)).signedIn, false);
      assert.equal(tokenRequests(), before, 'a request carried the token before anyone trusted the host');
      assert.equal(lsp.received.filter((message) => message.method === 'window/showMessageRequest').length, 1, 'asked more than once');
    } finally {
      await lsp.close();
    }
  });

  test('VS Code (prompts.trustHost): hcpTerraform/trustHost; trusted, the folder links with that token', async () => {
    const lsp = await session({ [`hcpTerraform/trustHost`]: () => ({ trusted: true }) }, { prompts: { trustHost: true } });
    try {
      const asked = await lsp.waitFor<TrustHostParams>('hcpTerraform/trustHost');
      assert.equal(asked.hostname, host);
      assert.equal(asked.address, emulator.url);
      await lsp.waitFor<LinkedFolder>(workspaceChangedNotification.method, (f) => f.state.kind === 'linked');
      assert.ok(!lsp.received.some((message) => message.method === 'window/showMessageRequest'));
      assert.equal(emulator.control.requests().filter((request) => request.tokenRole !== undefined).at(-1)?.tokenRole, 'member');
    } finally {
      await lsp.close();
    }
  });

  test("the user's own address (initializationOptions) is asked nothing", async () => {
    const lsp = await startSession({ address: emulator.url, env: { [`TF_TOKEN_127_0_0_1:${new URL(emulator.url).port}`]: emulator.tokens.member } });
    try {
      await lsp.waitFor<LinkedFolder>(workspaceChangedNotification.method, (f) => f.state.kind === 'linked');
      assert.ok(!lsp.received.some((message) => message.method === 'window/showMessageRequest'));
    } finally {
      await lsp.close();
    }
  });
});
