// registerLanguageFeatures over a real JSON-RPC connection pair (in-process streams), with a host that serves a real
// demo-app model and hand-made snapshots: what an LSP client sees, without the core.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, test } from 'node:test';
import { createConnection } from 'vscode-languageserver/node';
import {
  CodeActionRequest,
  CodeLensRefreshRequest,
  CompletionRequest,
  createProtocolConnection,
  HoverRequest,
  InitializeRequest,
  PublishDiagnosticsNotification,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-languageserver-protocol/node';
import type { ClientCapabilities, CompletionList, ProtocolConnection, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { registerLanguageFeatures } from '../../server/src/features';
import type { FeatureHost, FeatureHostChange, LanguageFeatures, WorkspaceSnapshot } from '../../server/src/features';
import type { ModuleFolderModel } from '../../server/src/model';
import { demoFile, linkedSnapshot, loadDemoModel, uriOf } from './helpers';

class TestHost implements FeatureHost {
  private readonly listeners = new Set<(change: FeatureHostChange) => void>();
  snapshot: WorkspaceSnapshot | undefined;
  constructor(readonly model: ModuleFolderModel) {}
  modelFor(uri: string) {
    return this.model.owns(uri) ? this.model : undefined;
  }
  models() {
    return [this.model];
  }
  snapshotFor(folder: string) {
    return folder === this.model.folder ? this.snapshot : undefined;
  }
  async organizationNames() {
    return ['acme-demo'];
  }
  async workspaceNames() {
    return ['demo-app'];
  }
  onDidChange(listener: (change: FeatureHostChange) => void) {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }
  fire(change: FeatureHostChange) {
    for (const listener of this.listeners) listener(change);
  }
}

interface Harness {
  client: ProtocolConnection;
  host: TestHost;
  features: LanguageFeatures;
  published: PublishDiagnosticsParams[];
  refreshes: number;
  /** Re-checked whenever the client receives something; rejects after a bound. */
  until(predicate: () => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

async function start(capabilities: ClientCapabilities = {}): Promise<Harness> {
  const { model } = await loadDemoModel();
  const host = new TestHost(model);
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  const features = registerLanguageFeatures(server, { get: () => undefined }, host, { now: () => Date.parse('2026-11-21T12:00:00Z') });
  server.onInitialize((params) => ({ capabilities: features.initialize(params) }));
  server.listen();
  const client = createProtocolConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const waiters = new Set<() => void>();
  const received = () => {
    for (const check of [...waiters]) check();
  };
  const harness: Harness = {
    client, host, features, published: [], refreshes: 0,
    until(predicate, what) {
      if (predicate()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const bound = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}`));
        }, 5000);
        const check = () => {
          if (!predicate()) return;
          clearTimeout(bound);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      });
    },
    async close() {
      await features.settled();
      features.dispose();
      client.dispose();
      server.dispose();
      model.dispose();
    },
  };
  client.onNotification(PublishDiagnosticsNotification.type, (params) => {
    harness.published.push(params);
    received();
  });
  client.onRequest(CodeLensRefreshRequest.type, () => {
    harness.refreshes++;
    received();
  });
  client.listen();
  await client.sendRequest(InitializeRequest.type, { processId: null, rootUri: null, capabilities, workspaceFolders: null });
  return harness;
}

describe('registerLanguageFeatures over JSON-RPC', () => {
  test('declares its providers, publishes diagnostics per file on host changes, and re-sends only what changed', async () => {
    const harness = await start();
    const { host, published } = harness;
    host.snapshot = linkedSnapshot(host.model);
    host.fire({ folder: host.model.folder, kind: 'snapshot' });
    await harness.until(() => published.length >= 3, 'diagnostics of three files');
    const files = new Map(published.map((p) => [p.uri, p.diagnostics.map((d) => d.code)]));
    assert.deepEqual(files.get(uriOf(demoFile('variables.tf')))?.sort(), ['missing-value', 'sensitive-exposed']);
    assert.deepEqual(files.get(uriOf(demoFile('terraform.tfvars')))?.sort(), ['overridden-by-workspace', 'type-mismatch']);
    assert.deepEqual(files.get(uriOf(demoFile('main.tf')))?.sort(), ['invalid-hcl-value', 'undeclared-variable', 'undeclared-workspace-variable']);

    // An edit that fixes the tfvars file: only that file is re-published, now empty.
    published.length = 0;
    host.model.openDocument(demoFile('terraform.tfvars'), 'allowed_cidrs = []\n');
    host.fire({ folder: host.model.folder, kind: 'model', files: [demoFile('terraform.tfvars')] });
    await harness.until(() => published.length >= 1, 'the fixed file');
    assert.deepEqual(published, [{ uri: uriOf(demoFile('terraform.tfvars')), diagnostics: [] }]);
    await harness.close();
  });

  test('answers completion, hover and code actions, and asks the client to refresh code lenses on snapshot changes', async () => {
    const harness = await start({ workspace: { codeLens: { refreshSupport: true } } });
    const { client, host } = harness;
    host.snapshot = linkedSnapshot(host.model);
    const file = demoFile('scratch.tf');
    host.model.openDocument(file, 'locals {\n  x = var.\n}\n');
    const completion = (await client.sendRequest(CompletionRequest.type, { textDocument: { uri: uriOf(file) }, position: { line: 1, character: 10 } })) as CompletionList;
    assert.ok(completion.items.some((item) => item.label === 'environment'));
    const hover = await client.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(file) }, position: { line: 1, character: 7 } });
    assert.equal(hover, null, 'nothing to say off a variable');
    host.model.changeDocument(file, [{ range: { start: { line: 1, character: 10 }, end: { line: 1, character: 10 } }, text: 'region' }]);
    const regionHover = await client.sendRequest(HoverRequest.type, { textDocument: { uri: uriOf(file) }, position: { line: 1, character: 12 } });
    assert.match(JSON.stringify(regionHover), /eu-north-1/);
    const sourceActions = await client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uriOf(file) },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source'] },
    });
    assert.ok(sourceActions?.some((action) => 'kind' in action && action.kind === 'source.hcpTerraform.queuePlan'));
    const quickFixOnly = await client.sendRequest(CodeActionRequest.type, {
      textDocument: { uri: uriOf(file) },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['quickfix'] },
    });
    assert.deepEqual(quickFixOnly, []);
    host.fire({ folder: host.model.folder, kind: 'snapshot' });
    await harness.until(() => harness.refreshes === 1, 'a code lens refresh');
    await harness.close();
  });

  test('a request for a file outside every folder gets null, not an error', async () => {
    const harness = await start();
    const result = await harness.client.sendRequest(CompletionRequest.type, { textDocument: { uri: 'untitled:Untitled-1' }, position: { line: 0, character: 0 } });
    assert.equal(result, null);
    await harness.close();
  });
});
