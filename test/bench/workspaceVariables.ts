// A linked workspace with 2,000 variables on the emulator (#13 "large workspaces"): the folder's cloud block names
// it, the built server reads its variables from the service as it would from HCP Terraform, and `var.` completion
// then offers the declared variables and the workspace's undeclared ones (each with an edit that declares it).
// Measured: the completion list (items, bytes, isIncomplete) and its latency against the no-op floor, the same
// after a few typed characters, resolving an item's details, and one variable refresh.
//
// The emulator runs in this process so its store takes the 2,000 variables at once (through the emulator's own
// seed builder, as its seeds do); the API would take ~70 s at the service's 30 writes a second. The server reads
// them over HTTP like any workspace's.
//
// The refresh: the server re-reads a workspace's variables every 60 s and after a variable command, and merges
// (only changed variables are replaced). The 60 s timer cannot be advanced from outside, so the bench triggers the
// same re-read with the variable command hcpTerraform.server.updateVariable (one PATCH, then the re-read of all
// 2,000 and the merge) and times the command and the server's memory around it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CompletionRequest, CompletionResolveRequest, DidChangeTextDocumentNotification, DidOpenTextDocumentNotification, ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import type { CompletionItem, CompletionList } from 'vscode-languageserver-protocol/node';
import { Clock } from '../../emulator/src/clock';
import { FaultInjector } from '../../emulator/src/http/faults';
import { RateLimiter } from '../../emulator/src/http/rateLimit';
import { RequestLog } from '../../emulator/src/http/requestLog';
import { Router } from '../../emulator/src/http/router';
import { createPipeline } from '../../emulator/src/http/server';
import { registerCoreRoutes } from '../../emulator/src/routes';
import { createRunEngine, registerRunRoutes } from '../../emulator/src/runs';
import { addOrganization, addVariables, addWorkspace, type VariableSeed } from '../../emulator/src/seeds/builders';
import { premiumFeatureSet } from '../../emulator/src/seeds/featureSets';
import { addPeople } from '../../emulator/src/seeds/people';
import { resolveTokens } from '../../emulator/src/seeds/tokens';
import { Store } from '../../emulator/src/store/store';
import { loadTerraformParser } from '../../server/src/model';
import { workspaceChangedNotification, type LinkedFolder } from '../../server/src/protocol';
import { startBenchServer, summary } from './client';

const organization = 'acme-bench';
const workspaceName = 'big-vars';
const variableCount = 2000;
/** Every tenth workspace variable is also declared in the code: 200 declared, 1,800 only on the service. */
const declaredEvery = 10;
const loadTimeoutMs = 60_000;

export async function workspaceVariablesScenario(root: string, options: { quick: boolean }) {
  const emulator = await startEmulatorWithVariables();
  const folder = await writeFolder(root);
  const uri = pathToFileURL(folder.file).href;
  let linkedNotices = 0;
  let onNotice = () => {};
  const server = await startBenchServer(folder.folder, {
    initializationOptions: { address: emulator.url, token: emulator.token },
    setup: (connection) =>
      connection.onNotification(workspaceChangedNotification, (params: LinkedFolder) => {
        if (params.state.kind !== 'linked') return;
        linkedNotices++;
        onNotice();
      }),
  });
  const out: Record<string, unknown> = { workspaceVariables: variableCount, declaredInCode: variableCount / declaredEvery };
  try {
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'terraform', version: 1, text: folder.text } });
    const completeAt = (typed: string) =>
      server.connection.sendRequest(CompletionRequest.type, {
        textDocument: { uri },
        position: { line: folder.typingLine, character: folder.typingColumn + typed.length },
      }) as Promise<CompletionList | null>;

    // Loaded when completion offers more than the declared variables: checked now and after each workspaceChanged
    // (the server sends one when it has read the workspace, and another when its variables are in), bounded.
    const started = performance.now();
    const loaded = await new Promise<CompletionList>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the workspace's variables did not reach completion within ${loadTimeoutMs / 1000} s (${linkedNotices} workspaceChanged)`)), loadTimeoutMs);
      const check = async () => {
        const list = await completeAt(''); // null while the folder is still being read
        if (list && (list.isIncomplete || list.items.some(isUndeclaredWorkspaceItem))) {
          clearTimeout(timer);
          onNotice = () => {};
          resolve(list);
        }
      };
      onNotice = () => void check().catch(reject);
      void check().catch(reject);
    });
    out.variablesLoadedMs = performance.now() - started;
    const noop = summary(await repeat(options.quick ? 30 : 100, () => server.noop()));
    out.noop = noop;

    const runs = options.quick ? 20 : 50;
    let version = 1;
    for (const [label, typed] of [
      ['afterVarDot', ''],
      ['afterTyping', 'ws_var_12'],
    ] as const) {
      if (typed) {
        const at = { line: folder.typingLine, character: folder.typingColumn };
        await server.connection.sendNotification(DidChangeTextDocumentNotification.type, {
          textDocument: { uri, version: ++version },
          contentChanges: [{ range: { start: at, end: at }, text: typed }],
        });
      }
      let list: CompletionList = loaded;
      const samples = await repeat(runs, async () => {
        const begun = performance.now();
        list = (await completeAt(typed)) ?? { isIncomplete: false, items: [] };
        return performance.now() - begun;
      });
      const latency = summary(samples);
      out[label] = {
        typed,
        latency,
        ratioToNoop: { p50: latency.p50 / noop.p50, p99: latency.p99 / noop.p50 },
        items: list.items.length,
        undeclaredItems: list.items.filter(isUndeclaredWorkspaceItem).length,
        matchingTyped: list.items.filter((item) => item.label.startsWith(typed)).length,
        responseBytes: JSON.stringify(list).length,
        isIncomplete: list.isIncomplete,
      };
    }

    // Details are resolved lazily: the list carries none, completionItem/resolve adds them for the item shown.
    const first = loaded.items.find(isUndeclaredWorkspaceItem) ?? loaded.items[0];
    if (first) {
      let resolved: CompletionItem | undefined;
      const samples = await repeat(runs, async () => {
        const begun = performance.now();
        // As a client does: an item without data of its own takes the list's shared itemDefaults.data.
        resolved = await server.connection.sendRequest(CompletionResolveRequest.type, { ...first, data: first.data ?? loaded.itemDefaults?.data });
        return performance.now() - begun;
      });
      out.resolve = { latency: summary(samples), label: first.label, documentationAdded: first.documentation === undefined && resolved?.documentation !== undefined, detailAdded: first.detail === undefined && resolved?.detail !== undefined };
    }

    // One refresh: change one variable through the server (PATCH, then the re-read of all 2,000 and the merge).
    const memoryBefore = server.memory();
    const variable = emulator.variableIds.get('ws_var_0001')!;
    const refreshSamples = await repeat(options.quick ? 3 : 5, async (i) => {
      const begun = performance.now();
      await server.connection.sendRequest(ExecuteCommandRequest.type, {
        command: 'hcpTerraform.server.updateVariable',
        arguments: [{ workspaceId: emulator.workspaceId, variableId: variable, value: `changed-${i}` }],
      });
      return performance.now() - begun;
    });
    out.refreshAfterOneChange = { latency: summary(refreshSamples), memoryBefore, memoryAfter: server.memory() };
    out.memory = server.memory();
  } finally {
    await server.stop().catch(() => server.child.kill());
    await emulator.close();
  }
  return out;
}

function isUndeclaredWorkspaceItem(item: CompletionItem): boolean {
  return item.labelDetails?.description === 'workspace variable, not declared';
}

async function repeat(times: number, sample: (i: number) => Promise<number>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) samples.push(await sample(i));
  return samples;
}

/** The module folder: a cloud block naming the workspace, 200 of its variables declared, some of them used. */
async function writeFolder(root: string) {
  const folder = path.join(root, 'workspace-variables');
  await mkdir(folder, { recursive: true });
  const declarations: string[] = [];
  for (let v = 0; v < variableCount; v += declaredEvery) declarations.push(`variable "${key(v)}" {\n  type = string\n}\n`);
  await writeFile(path.join(folder, 'variables.tf'), declarations.join('\n'));
  const lines = [
    'terraform {',
    '  cloud {',
    `    organization = "${organization}"`,
    '    workspaces {',
    `      name = "${workspaceName}"`,
    '    }',
    '  }',
    '}',
    '',
    'resource "terraform_data" "uses" {',
    `  input = [${Array.from({ length: 20 }, (_, i) => `var.${key(i * declaredEvery)}`).join(', ')}]`,
    '}',
    '',
    'locals {',
    '  typed = var.',
    '}',
    '',
  ];
  const text = lines.join('\n');
  const file = path.join(folder, 'main.tf');
  await writeFile(file, text);
  const typingLine = lines.indexOf('  typed = var.');
  return { folder, file, text, typingLine, typingColumn: '  typed = var.'.length };
}

function key(v: number): string {
  return `ws_var_${String(v).padStart(4, '0')}`;
}

/** The emulator (hosted edition, real clock) with one organization and the 2,000-variable workspace, on loopback. */
async function startEmulatorWithVariables() {
  const clock = new Clock({ mode: 'real' });
  const store = new Store(clock, 'hosted');
  store.terraformParser = await loadTerraformParser();
  const router = new Router();
  registerCoreRoutes(router);
  registerRunRoutes(router, createRunEngine(store, clock));
  const tokens = resolveTokens();
  addOrganization(store, organization, premiumFeatureSet(), 400);
  addPeople(store, organization, tokens);
  const workspace = addWorkspace(store, organization, workspaceName, { createdDaysAgo: 30 });
  const seeds: VariableSeed[] = [];
  for (let v = 0; v < variableCount; v++) {
    seeds.push({
      key: key(v),
      value: v % 7 === 0 ? `["a-${v}", "b-${v}"]` : `value-${v}`,
      category: 'engine',
      hcl: v % 7 === 0,
      sensitive: v % 25 === 0,
      description: `Setting ${v} of the bench workspace`,
    });
  }
  addVariables(store, workspace, seeds);
  const variableIds = new Map([...store.variables.values()].filter((v) => v.workspaceId === workspace.id).map((v) => [v.key, v.id]));
  const server: Server = createServer(
    createPipeline({
      store,
      router,
      rateLimiter: new RateLimiter(clock),
      faults: new FaultInjector(),
      log: new RequestLog(),
      control: async (_req, res) => void res.writeHead(404).end(),
      serviceHeaders: {},
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token: tokens.owner,
    workspaceId: workspace.id,
    variableIds,
    async close() {
      clock.dispose();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
