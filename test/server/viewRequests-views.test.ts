// The requests added for the Change Requests, Variables and Organization views (#10), over a real LSP session
// against the emulator: who created and archived a change request, the organization token's dates, a folder's
// variable blocks, HCL values checked by the server's parser before a variable is sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import {
  changeRequestsRequest,
  organizationTokenStatusRequest,
  serverCommand,
  subscriptionRequest,
  validateHclValueRequest,
  variableDeclarationsRequest,
  variablesRequest,
  workspaceChangedNotification,
} from '../../server/src/protocol';
import type { LinkedFolder } from '../../server/src/protocol';
import { startSession, type LspSession } from '../helpers/lspSession';

describe('view requests of the Change Requests, Variables and Organization views', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  let demoAppId: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    const linked = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
    assert.ok(linked.state.kind === 'linked');
    demoAppId = linked.state.workspace.id;
  });
  after(async () => {
    await session.close();
    await emulator.close();
  });

  test('change requests say who created them, and who archived them and when, by user name', async () => {
    const { changeRequests } = await session.connection.sendRequest(changeRequestsRequest, { workspaceName: 'demo-app' });
    const archived = changeRequests.filter((cr) => cr.archived);
    assert.equal(archived.length, 2);
    for (const cr of archived) {
      assert.ok(cr.archivedAt && !Number.isNaN(Date.parse(cr.archivedAt)), 'an archived change request says when');
      assert.ok(cr.archivedBy && !cr.archivedBy.startsWith('user-'), `archived by a user name, not an id (${cr.archivedBy})`);
    }
    assert.ok(changeRequests.every((cr) => cr.createdBy && !cr.createdBy.startsWith('user-')));
    assert.ok(changeRequests.every((cr) => cr.workspaceId === demoAppId));
  });

  test('the organization token: none at first for a free organization, dates once generated, never the secret', async () => {
    const none = await session.connection.sendRequest(organizationTokenStatusRequest, { organization: 'acme-free' });
    assert.equal(none.exists, false);
    const generated = (await session.connection.sendRequest('workspace/executeCommand', { command: serverCommand('generateOrganizationToken'), arguments: [{ organization: 'acme-free', expiredAt: '2099-01-31T00:00:00Z' }] })) as { token: string };
    const status = await session.connection.sendRequest(organizationTokenStatusRequest, { organization: 'acme-free' });
    assert.ok(status.exists);
    assert.ok(status.exists && status.createdAt && status.expiredAt?.startsWith('2099-01-31'));
    assert.ok(!JSON.stringify(status).includes(generated.token), 'the status never carries the secret');
  });

  test("a folder's variable blocks, for Go to declaration", async () => {
    const declarations = await session.connection.sendRequest(variableDeclarationsRequest, { folderUri: session.folderUri });
    const region = declarations.find((d) => d.name === 'region');
    assert.ok(region, 'region is declared in variables.tf');
    assert.match(region.uri, /variables\.tf$/);
    assert.equal(region.line, 0);
    assert.equal(declarations.find((d) => d.name === 'db_password')?.sensitive, true);
    assert.equal(declarations.some((d) => d.name === 'legacy_flag'), false, 'legacy_flag is a workspace variable no code declares');
  });

  test('HCL values are checked by the parser; an invalid one is refused before it reaches the service', async () => {
    assert.deepEqual(await session.connection.sendRequest(validateHclValueRequest, { value: '["a", "b"]' }), { valid: true });
    assert.deepEqual(await session.connection.sendRequest(validateHclValueRequest, { value: '{ port = 80 }' }), { valid: true });
    const broken = await session.connection.sendRequest(validateHclValueRequest, { value: '["a", ' });
    assert.equal(broken.valid, false);
    const before = emulator.control.requests().length;
    await assert.rejects(
      session.connection.sendRequest('workspace/executeCommand', { command: serverCommand('createVariable'), arguments: [{ workspaceId: demoAppId, key: 'broken', category: 'engine', hcl: true, value: '{ a = ' }] }),
      /Validation error in value/,
    );
    assert.equal(emulator.control.requests().filter((r) => r.method === 'POST' && r.path === '/api/v2/vars').length, 0, 'nothing was sent');
    assert.ok(emulator.control.requests().length >= before);
    const variables = await session.connection.sendRequest(variablesRequest, { workspaceId: demoAppId });
    assert.equal(variables.some((v) => v.key === 'broken'), false);
  });

  test("the service's validation error names the field", async () => {
    await assert.rejects(
      session.connection.sendRequest('workspace/executeCommand', { command: serverCommand('createVariable'), arguments: [{ workspaceId: demoAppId, key: 'region', category: 'engine', value: 'x' }] }),
      (error: Error) => /Validation error in key/.test(error.message),
    );
  });

  test('on HCP Terraform a missing subscription is not called an edition problem', async () => {
    const result = await session.connection.sendRequest(subscriptionRequest, { organization: 'acme-demo' }, undefined);
    assert.equal(result.available, true);
  });
});

describe('the subscription on Terraform Enterprise', () => {
  test('says "not available on this edition"', async () => {
    const emulator = await startEmulator({ seed: 'demo', clock: 'manual', edition: 'enterprise' });
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      const result = await session.connection.sendRequest(subscriptionRequest, { organization: 'acme-demo' });
      assert.ok(!result.available);
      assert.equal(result.edition, 'enterprise');
      assert.match(result.reason, /not available on this edition/i);
    } finally {
      await session.close();
      await emulator.close();
    }
  });
});

describe('errors in the user\'s terms', () => {
  test('permission: a member may not manage the organization token, a reader may not change variables', async () => {
    const emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    const member = await startSession({ address: emulator.url, token: emulator.tokens.member });
    const reader = await startSession({ address: emulator.url, token: emulator.tokens.reader });
    try {
      await assert.rejects(
        member.connection.sendRequest('workspace/executeCommand', { command: serverCommand('generateOrganizationToken'), arguments: [{ organization: 'acme-demo' }] }),
        /may not manage the organization token \(only the owners team/,
      );
      const status = await member.connection.sendRequest(organizationTokenStatusRequest, { organization: 'acme-demo' });
      assert.ok(!status.exists && /may not manage it/.test(status.reason));
      const linked = await reader.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
      assert.ok(linked.state.kind === 'linked');
      await assert.rejects(
        reader.connection.sendRequest('workspace/executeCommand', { command: serverCommand('createVariable'), arguments: [{ workspaceId: linked.state.workspace.id, key: 'nope', category: 'engine', value: 'x' }] }),
        /may not change its variables/,
      );
    } finally {
      await member.close();
      await reader.close();
      await emulator.close();
    }
  });
});
