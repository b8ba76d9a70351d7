// The language features through the real server process against the emulator's demo workspace: every diagnostic
// code published where it belongs, completion and hover on an edited document, and quick fixes that change the
// workspace and so the diagnostics.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import type { CodeAction, CompletionList, Diagnostic, Hover, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { startSession, type LspSession } from '../helpers/lspSession';

const publish = 'textDocument/publishDiagnostics';

function codesOf(params: PublishDiagnosticsParams): string[] {
  return params.diagnostics.filter((d) => d.source === 'hcp-terraform').map((d) => String(d.code)).sort();
}

describe('language features over LSP against the emulator', () => {
  let emulator: RunningEmulator;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
  });
  after(async () => {
    await emulator.close();
  });

  /**
   * The latest diagnostics of each file once all codes have been published: six with the seeded variables, seven
   * with an unparsable HCL value set (setServices).
   */
  async function allDiagnostics(session: LspSession, count = 6): Promise<Map<string, PublishDiagnosticsParams>> {
    const latest = () => {
      const byUri = new Map<string, PublishDiagnosticsParams>();
      for (const message of session.received) if (message.method === publish) byUri.set((message.params as PublishDiagnosticsParams).uri, message.params as PublishDiagnosticsParams);
      return byUri;
    };
    const complete = () => new Set([...latest().values()].flatMap(codesOf)).size === count;
    if (!complete()) await session.waitFor<PublishDiagnosticsParams>(publish, () => complete());
    return latest();
  }

  /** Sets demo-app's `services` workspace variable through the API (the seed's value is valid HCL); returns the old value. */
  async function setServices(value: string): Promise<string> {
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${emulator.url}/api/v2${path}`, {
        method,
        headers: { Authorization: `Bearer ${emulator.tokens.owner}`, 'Content-Type': 'application/vnd.api+json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      assert.equal(response.status, 200, `${method} ${path}`);
      return (await response.json()) as any;
    };
    const vars = await call('GET', '/vars?filter%5Borganization%5D%5Bname%5D=acme-demo&filter%5Bworkspace%5D%5Bname%5D=demo-app');
    const services = vars.data.find((v: any) => v.attributes.key === 'services');
    await call('PATCH', `/vars/${services.id}`, { data: { id: services.id, type: 'vars', attributes: { value } } });
    return services.attributes.value;
  }

  test('publishes every hcp-terraform diagnostic code for demo-app, per file, without a sensitive value', async () => {
    // An HCL value that does not parse (unbalanced braces), for invalid-hcl-value; put back afterwards.
    const original = await setServices('{ web = { port = 80, public = true }');
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      const byUri = await allDiagnostics(session, 7);
      const uri = (name: string) => pathToFileURL(path.join(session.folder, name)).href;
      assert.deepEqual(codesOf(byUri.get(uri('variables.tf'))!), ['missing-value', 'sensitive-exposed']);
      assert.deepEqual(codesOf(byUri.get(uri('terraform.tfvars'))!), ['overridden-by-workspace', 'type-mismatch']);
      assert.deepEqual(codesOf(byUri.get(uri('main.tf'))!), ['invalid-hcl-value', 'undeclared-variable', 'undeclared-workspace-variable']);
      const everything = JSON.stringify([...byUri.values()]);
      assert.doesNotMatch(everything, /hunter2-demo|demo-secret-access-key/);
      const featureFailures = session.received.filter((m) => m.method === 'window/logMessage' && JSON.stringify(m.params).includes('language features'));
      assert.deepEqual(featureFailures, [], 'no provider failed along the way');
    } finally {
      await session.close();
      await setServices(original);
    }
  });

  test('completes var. in an edited document (including undeclared workspace variables) and hovers with the workspace value', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      await allDiagnostics(session); // the workspace is known by now
      const uri = pathToFileURL(path.join(session.folder, 'scratch.tf')).href;
      await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'terraform', version: 1, text: 'locals {\n  x = \n}\n' } });
      await session.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: 2 },
        contentChanges: [{ range: { start: { line: 1, character: 6 }, end: { line: 1, character: 6 } }, text: 'var.' }],
      });
      const list = (await session.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 10 } })) as CompletionList;
      const labels = list.items.map((item) => item.label);
      for (const name of ['environment', 'region', 'db_password', 'legacy_flag']) assert.ok(labels.includes(name), `${name} in ${labels.join(', ')}`);
      const legacy = list.items.find((item) => item.label === 'legacy_flag')!;
      assert.match(legacy.additionalTextEdits?.[0]?.newText ?? '', /variable "legacy_flag" \{\n {2}type = bool\n\}/);
      assert.doesNotMatch(JSON.stringify(list), /hunter2-demo/);

      const variablesUri = pathToFileURL(path.join(session.folder, 'main.tf')).href;
      const mainText = await readFile(path.join(session.folder, 'main.tf'), 'utf8');
      const line = mainText.split('\n').findIndex((l) => l.includes('region   = var.region'));
      const character = mainText.split('\n')[line].indexOf('var.region') + 5;
      const hover = (await session.connection.sendRequest('textDocument/hover', { textDocument: { uri: variablesUri }, position: { line, character } })) as Hover;
      assert.match(JSON.stringify(hover.contents), /eu-north-1.*workspace variable \(demo-app\)/);
    } finally {
      await session.close();
    }
  });

  test('completes organization names from the service inside the cloud block', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      await allDiagnostics(session);
      const uri = pathToFileURL(path.join(session.folder, 'main.tf')).href;
      const text = await readFile(path.join(session.folder, 'main.tf'), 'utf8');
      const line = text.split('\n').findIndex((l) => /^\s*organization\s*=\s*"acme-demo"/.test(l));
      const character = text.split('\n')[line].indexOf('"acme-demo"') + 1;
      await session.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'terraform', version: 1, text } });
      // Completion never waits for the service (#14): while the names are read the list is incomplete, and an
      // editor asks again (as on the next keystroke) until it is complete.
      let list = (await session.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line, character } })) as CompletionList;
      for (let ask = 0; list.isIncomplete && ask < 2_000; ask++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        list = (await session.connection.sendRequest('textDocument/completion', { textDocument: { uri }, position: { line, character } })) as CompletionList;
      }
      assert.equal(list.isIncomplete, false);
      const labels = list.items.map((item) => item.label);
      // acme-free is linked by no folder: only the service's organization list can offer it.
      for (const name of ['acme-demo', 'acme-free']) assert.ok(labels.includes(name), `${name} in ${labels.join(', ')}`);
    } finally {
      await session.close();
    }
  });

  test('the sensitive-exposed quick fix marks the workspace variable sensitive, and the diagnostic goes away', async () => {
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      const byUri = await allDiagnostics(session);
      const variablesUri = pathToFileURL(path.join(session.folder, 'variables.tf')).href;
      const diagnostic = byUri.get(variablesUri)!.diagnostics.find((d: Diagnostic) => d.code === 'sensitive-exposed')!;
      const actions = (await session.connection.sendRequest('textDocument/codeAction', {
        textDocument: { uri: variablesUri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic], only: ['quickfix'] },
      })) as CodeAction[];
      const fix = actions.find((action) => action.command?.command === 'hcpTerraform.server.updateVariable');
      assert.ok(fix?.command, `a quick fix command among ${actions.map((a) => a.title).join(', ')}`);
      const cleared = session.waitForNext<PublishDiagnosticsParams>(publish, (params) => params.uri === variablesUri && !codesOf(params).includes('sensitive-exposed'));
      await session.connection.sendRequest('workspace/executeCommand', { command: fix.command.command, arguments: fix.command.arguments });
      await cleared;
      const vars = await fetch(`${emulator.url}/api/v2/vars?filter%5Borganization%5D%5Bname%5D=acme-demo&filter%5Bworkspace%5D%5Bname%5D=demo-app`, {
        headers: { authorization: `Bearer ${emulator.tokens.owner}`, accept: 'application/vnd.api+json' },
      }).then((response) => response.json() as Promise<{ data: Array<{ attributes: { key: string; sensitive: boolean } }> }>);
      assert.equal(vars.data.find((v) => v.attributes.key === 'db_password')?.attributes.sensitive, true);
    } finally {
      await session.close();
      await emulator.control.reset();
    }
  });
});
