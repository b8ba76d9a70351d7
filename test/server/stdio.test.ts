import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { serverStatusRequest } from '../../server/src/protocol';
import { startLspProcess } from '../helpers/lspProcess';

describe('the language server over stdio (any LSP editor)', () => {
  test('initializes, answers the status request, and exits cleanly on shutdown + exit', async () => {
    const server = await startLspProcess({ initializationOptions: { address: 'https://tfe.example.com', token: 'secret-token-value' } });
    assert.equal(server.initializeResult.serverInfo?.name, 'hcp-terraform-language-server');
    const status = await server.connection.sendRequest(serverStatusRequest);
    assert.deepEqual(status, { version: server.initializeResult.serverInfo?.version, address: 'https://tfe.example.com', signedIn: true });
    assert.equal(await server.stop(), 0);
    assert.doesNotMatch(server.stderr(), /secret-token-value/);
  });

  test('initializes with a workspace folder it cannot read (a file URI on a remote host) and goes on', async () => {
    const server = await startLspProcess({ workspaceFolders: [{ uri: 'file://fileserver/share/infra', name: 'infra' }] });
    const status = await server.connection.sendRequest(serverStatusRequest);
    assert.equal(status.signedIn, false);
    assert.equal(await server.stop(), 0);
  });

  test('ignores malformed initialization options instead of failing', async () => {
    const server = await startLspProcess({ initializationOptions: { address: 42, token: ['not', 'a', 'string'] } });
    const status = await server.connection.sendRequest(serverStatusRequest);
    assert.equal(status.address, 'https://app.terraform.io');
    assert.equal(status.signedIn, false);
    assert.equal(await server.stop(), 0);
  });
});
