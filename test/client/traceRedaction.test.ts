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

  test('document contents (didOpen, didChange, edits) become their length; ranges and uris stay', () => {
    const tfvars = 'db_password = "hunter2-\\"quoted\\""\nregion = "eu"\n';
    const opened = redactTrace(traced('textDocument/didOpen', { textDocument: { uri: 'file:///x/prod.tfvars', languageId: 'terraform-vars', version: 1, text: tfvars } }));
    assert.doesNotMatch(opened, /hunter2|quoted|region/);
    assert.match(opened, new RegExp(`"text": "\\[${tfvars.length} characters\\]"`));
    assert.match(opened, /"uri": "file:\/\/\/x\/prod\.tfvars"/);
    const range = { start: { line: 0, character: 15 }, end: { line: 0, character: 22 } };
    const changed = redactTrace(traced('textDocument/didChange', { textDocument: { uri: 'file:///x/prod.tfvars', version: 2 }, contentChanges: [{ range, rangeLength: 7, text: 's3cr3t' }] }));
    assert.doesNotMatch(changed, /s3cr3t/);
    assert.match(changed, /"text": "\[6 characters\]"/);
    assert.match(changed, /"character": 15/);
    const edit = redactTrace(`Result: ${JSON.stringify({ changes: { 'file:///x/main.tf': [{ range, newText: 'password = "p4ss"' }] } })}`);
    assert.doesNotMatch(edit, /p4ss/);
    assert.match(edit, /"newText":"\[17 characters\]"/);
  });

  test('leaves a trace without secrets untouched', () => {
    const text = traced('textDocument/hover', { textDocument: { uri: 'file:///x/main.tf' }, position: { line: 1, character: 2 } });
    assert.equal(redactTrace(text, ['short']), text);
  });
});
