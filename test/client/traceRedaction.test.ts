import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { redactTrace } from '../../client/src/traceRedaction';

// How vscode-jsonrpc writes a traced message: the method, then the params as indented JSON.
const traced = (method: string, params: unknown) => `[Trace - 12:00:00] Sending notification '${method}'.\nParams: ${JSON.stringify(params, null, 4)}\n`;

describe('trace redaction', () => {
  test('hides tokens in initialize options, setToken and a generated organization token', () => {
    const token = 'abcDEF123.atlasv1.secretsecretsecret';
    for (const text of [
      traced('initialize', { initializationOptions: { address: 'https://app.terraform.io', token } }),
      traced('hcpTerraform/setToken', { hostname: 'tfe.example.com', token }),
      `[Trace] Received response 'workspace/executeCommand'.\nResult: ${JSON.stringify({ id: 'at-1', token })}`,
    ]) {
      const redacted = redactTrace(text);
      assert.doesNotMatch(redacted, /secretsecret/);
      assert.match(redacted, /"token": ?"\[redacted\]"/);
    }
  });

  test('hides variable values, escaped quotes included, and keeps the rest readable', () => {
    const text = traced('workspace/executeCommand', {
      command: 'hcpTerraform.server.createVariable',
      arguments: [{ workspaceId: 'ws-1', key: 'db_password', value: 'p@ss "quoted" \\ word', sensitive: true }],
    });
    const redacted = redactTrace(text);
    assert.doesNotMatch(redacted, /p@ss|quoted/);
    assert.match(redacted, /"key": "db_password"/);
    assert.match(redacted, /"workspaceId": "ws-1"/);
  });

  test('hides bearer tokens and known secrets wherever they appear', () => {
    const redacted = redactTrace('Authorization: Bearer abc.def-ghi and later plain-known-secret-123 again', ['plain-known-secret-123']);
    assert.equal(redacted, 'Authorization: Bearer [redacted] and later [redacted] again');
  });

  test('leaves a trace without secrets untouched', () => {
    const text = traced('textDocument/hover', { textDocument: { uri: 'file:///x/main.tf' }, position: { line: 1, character: 2 } });
    assert.equal(redactTrace(text, ['short']), text);
  });
});
