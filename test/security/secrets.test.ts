// Fault suite, secrets: at the most verbose tracing (the client-side message trace `hcpTerraform.trace.server:
// verbose` writes, through the client's redaction), every seeded token, a generated organization token and every
// sensitive value (the service's sensitive variables, one declared sensitive in the code, a .tfvars value, one the
// user sets) are searched for in everything a user or a bug report could see: the trace, the server's stderr, every
// notification and request the server sent, the answers to view requests and errors, the emulator's request log,
// and this suite's own artifacts (written to test-results/secrets-scan/). Zero hits.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { Trace, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { redactTrace } from '../../client/src/traceRedaction';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { serverCommand, setTokenNotification, validateTokenRequest, variablesRequest, workspaceChangedNotification } from '../../server/src/protocol';
import type { LinkedFolder, ServerCommandVerb } from '../../server/src/protocol';
import { startSession, type LspSession } from '../helpers/lspSession';

const artifacts = path.resolve('test-results/secrets-scan');

describe('secrets never reach logs, traces, notifications or artifacts', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  const trace: string[] = [];
  const answers: unknown[] = [];
  const secrets = new Map<string, string>(); // value → what it is

  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    for (const [role, token] of Object.entries(emulator.tokens)) secrets.set(token, `the seeded ${role} token`);
    secrets.set('demo-secret-access-key-never-shown', 'a sensitive workspace variable');
    secrets.set('staging-api-token-never-shown', 'a sensitive workspace variable of another workspace');
    secrets.set('hunter2-demo', 'the workspace value of a variable the code declares sensitive');
    secrets.set('tfvars-secret-value-4711', 'a sensitive variable in a .tfvars file');
    secrets.set('typed-in-secret-value-0815', 'a .tfvars edit of a sensitive variable');
    secrets.set('created-sensitive-value-9999', 'a sensitive variable the user sets');
    secrets.set('made-up-secret-token-7777', 'a token typed at sign-in that the service refuses');
    session = await startSession({
      address: emulator.url,
      token: emulator.tokens.owner,
      // Verbose tracing from the first message, as the VS Code client writes it: through its redaction, with the
      // tokens it knows (the one it stored) blotted out wherever they appear.
      onConnection: (connection: ProtocolConnection) =>
        void connection.trace(Trace.Verbose, { log: (message: string, data?: string) => trace.push(redactTrace(data ? `${message}\n${data}` : message, [emulator.tokens.owner])) }),
    });
    await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
  });

  after(async () => {
    await session.close();
    await emulator.close();
  });

  const command = async (verb: ServerCommandVerb, args: unknown) => {
    try {
      return await session.connection.sendRequest('workspace/executeCommand', { command: serverCommand(verb), arguments: [args] });
    } catch (error) {
      answers.push((error as Error).message);
      return undefined;
    }
  };

  test('exercise every path a secret could take', async () => {
    const { connection, folder } = session;
    const tfvars = path.join(folder, 'secrets.auto.tfvars');
    const tfvarsUri = pathToFileURL(tfvars).href;
    const text = 'db_password = "tfvars-secret-value-4711"\n';
    await writeFile(tfvars, text);
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: tfvarsUri, languageId: 'terraform-vars', version: 1, text } });
    await connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: tfvarsUri, version: 2 },
      contentChanges: [{ range: { start: { line: 0, character: 15 }, end: { line: 0, character: 39 } }, text: 'typed-in-secret-value-0815' }],
    });
    const mainUri = pathToFileURL(path.join(folder, 'main.tf')).href;
    const mainText = await readFile(path.join(folder, 'main.tf'), 'utf8');
    await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: mainUri, languageId: 'terraform', version: 1, text: mainText } });
    const lines = mainText.split('\n');
    const line = lines.findIndex((l) => l.includes('var.db_password'));
    const character = lines[line]!.indexOf('db_password') + 2;
    answers.push(await connection.sendRequest('textDocument/hover', { textDocument: { uri: mainUri }, position: { line, character } }));
    answers.push(await connection.sendRequest('textDocument/completion', { textDocument: { uri: mainUri }, position: { line, character: character + 9 } }));
    answers.push(await connection.sendRequest('textDocument/hover', { textDocument: { uri: tfvarsUri }, position: { line: 0, character: 3 } }));
    await session.waitFor('textDocument/publishDiagnostics', (params: { uri: string }) => params.uri === tfvarsUri);
    const linked = (await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (f) => f.state.kind === 'linked')).state;
    const workspaceId = linked.kind === 'linked' ? linked.workspace.id : '';
    // The Variables view shows what the service shows: db_password is NOT sensitive there (the diagnostic
    // sensitive-exposed says so), so its value is the one secret this answer may carry; sensitive ones never.
    const variables = await connection.sendRequest(variablesRequest, { workspaceId });
    assert.ok(variables.some((v) => v.key === 'AWS_SECRET_ACCESS_KEY' && v.sensitive && v.value === undefined));
    answers.push(variables.map((v) => (v.key === 'db_password' && !v.sensitive ? { ...v, value: '(shown by the service)' } : v)));
    // The generated organization token comes back once, to the caller: the one place it may be; then it is deleted.
    const generated = (await command('generateOrganizationToken', { organization: 'acme-demo' })) as { token: string };
    assert.ok(generated?.token, 'no organization token generated');
    secrets.set(generated.token, 'the generated organization token');
    answers.push(await command('deleteOrganizationToken', { organization: 'acme-demo' }));
    const created = (await command('createVariable', { workspaceId, key: 'scan_secret', category: 'env', value: 'created-sensitive-value-9999', sensitive: true })) as { id: string };
    answers.push(created);
    answers.push(await command('updateVariable', { workspaceId, variableId: created.id, value: 'created-sensitive-value-9999' }));
    answers.push(await command('deleteVariable', { workspaceId, variableId: created.id }));
    await connection.sendRequest(validateTokenRequest, { hostname: new URL(emulator.url).host, token: 'made-up-secret-token-7777' }).catch((error: Error) => answers.push(error.message));
    await connection.sendNotification(setTokenNotification, { hostname: new URL(emulator.url).host, token: emulator.tokens.member });
    await session.waitForNext<LinkedFolder>(workspaceChangedNotification.method, (f) => f.state.kind === 'linked');
  });

  test('zero hits in the trace, stderr, notifications, answers, the request log and the artifacts', async () => {
    await mkdir(artifacts, { recursive: true });
    const sources: Record<string, string> = {
      'trace.log': trace.join('\n'),
      'server-stderr.log': session.stderr(),
      'server-messages.json': JSON.stringify(session.received, null, 2),
      'answers.json': JSON.stringify(answers, null, 2),
      'emulator-requests.json': JSON.stringify(emulator.control.requests(), null, 2),
    };
    for (const [name, content] of Object.entries(sources)) await writeFile(path.join(artifacts, name), content);
    assert.ok(sources['trace.log']!.includes('textDocument/didChange'), 'the trace is not verbose: nothing was searched');
    assert.ok(sources['trace.log']!.includes('generateOrganizationToken'), 'the organization token round trip is not in the trace');
    const hits: string[] = [];
    for (const name of await readdir(artifacts)) {
      const content = await readFile(path.join(artifacts, name), 'utf8');
      for (const [value, what] of secrets) if (content.includes(value)) hits.push(`${what} in ${name}`);
    }
    assert.deepEqual(hits, []);
  });
});
