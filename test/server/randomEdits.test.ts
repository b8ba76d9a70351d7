// The server process under random editing (#14's fault suite, #13's coalescing): thousands of random edits,
// truncations and byte mutations of real-shaped .tf and .tfvars documents through didChange. The server never
// crashes or hangs, answers every request sent between the edits, never publishes an older version's diagnostics
// after a newer one's, and once the edits stop its diagnostics equal those of a fresh parse of the final texts.
// Fixed seeds; a failure prints the seed and the shrunk edit sequence.
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  CompletionRequest,
  DidChangeTextDocumentNotification,
  DidOpenTextDocumentNotification,
  HoverRequest,
  PublishDiagnosticsNotification,
} from 'vscode-languageserver-protocol/node';
import type { PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { ModuleFolderModel } from '../../server/src/model';
import { computeFolderDiagnostics } from '../../server/src/features/diagnostics';
import { serverStatusRequest } from '../../server/src/protocol';
import { startLspProcess } from '../helpers/lspProcess';
import type { LspProcess } from '../helpers/lspProcess';
import { benignEdit, randomEdit, toContentChanges } from '../model/editSequences';
import type { RandomEdit } from '../model/editSequences';
import { MemoryFileSystem, testParser } from '../model/helpers';

/** Every wait is on an event, bounded so a hung server fails the test instead of stalling the suite. */
const boundMs = 20_000;

function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${boundMs} ms: ${what}`)), boundMs)));
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

interface OpenDoc {
  uri: string;
  file: string;
  text: string;
  version: number;
  languageId: string;
}

describe('the server under random edits', () => {
  let base: string;
  let folder: string;
  let server: LspProcess;
  const latest = new Map<string, PublishDiagnosticsParams>();
  const versionProblems: string[] = [];
  const publishesOf = new Map<string, number>();
  let waiters: Array<() => void> = [];
  const docs: Record<'main' | 'tfvars', OpenDoc> = {} as Record<'main' | 'tfvars', OpenDoc>;

  before(async () => {
    base = await mkdtemp(path.join(os.tmpdir(), 'hcp-random-edits-'));
    folder = path.join(base, 'app');
    await cp(path.resolve('test/fixtures/demo-app'), folder, { recursive: true });
    for (const extra of ['outputs.tf', 'demo.auto.tfvars', 'README.md']) await rm(path.join(folder, extra), { force: true });
    const folderUri = pathToFileURL(folder).href;
    server = await startLspProcess(
      { rootUri: folderUri, workspaceFolders: [{ uri: folderUri, name: 'app' }], initializationOptions: { address: 'http://127.0.0.1:9' } },
      { HOME: base, TF_TOKEN_app_terraform_io: '', TF_CLOUD_ORGANIZATION: '', TF_WORKSPACE: '' },
      (connection) =>
        connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
          const previous = latest.get(params.uri);
          if (previous?.version !== undefined && params.version !== undefined && params.version < previous.version) {
            versionProblems.push(`${path.basename(params.uri)}: version ${params.version} published after ${previous.version}`);
          }
          latest.set(params.uri, params);
          publishesOf.set(params.uri, (publishesOf.get(params.uri) ?? 0) + 1);
          const pending = waiters;
          waiters = [];
          for (const wake of pending) wake();
        }),
    );
    for (const [key, name, languageId] of [['main', 'main.tf', 'terraform'], ['tfvars', 'terraform.tfvars', 'terraform-vars']] as const) {
      const file = path.join(folder, name);
      docs[key] = { uri: pathToFileURL(file).href, file, text: await readFile(file, 'utf8'), version: 1, languageId };
      await server.connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: docs[key].uri, languageId, version: 1, text: docs[key].text } });
    }
  });

  after(async () => {
    await server?.stop().catch(() => server.child.kill());
    await rm(base, { recursive: true, force: true });
  });

  /** Resolves when the diagnostics of every open document are published for its current version. */
  const caughtUp = () =>
    within(
      new Promise<void>((resolve) => {
        const check = () => {
          if (Object.values(docs).every((doc) => latest.get(doc.uri)?.version === doc.version)) resolve();
          else waiters.push(check);
        };
        check();
      }),
      `diagnostics of versions ${Object.values(docs).map((doc) => doc.version).join(', ')}`,
    );

  const send = (doc: OpenDoc, edit: RandomEdit) => {
    const { changes, text } = toContentChanges(doc.text, edit);
    doc.text = text;
    doc.version++;
    return server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: doc.uri, version: doc.version }, contentChanges: changes });
  };

  async function expectFreshDiagnostics(): Promise<void> {
    await caughtUp();
    await within(server.connection.sendRequest(serverStatusRequest), 'status after the edits'); // every earlier notification has arrived
    const parser = await testParser();
    const variables = await readFile(path.join(folder, 'variables.tf'), 'utf8');
    const fresh = await ModuleFolderModel.load({
      folder,
      parser,
      fileSystem: new MemoryFileSystem({ [docs.main.file]: docs.main.text, [docs.tfvars.file]: docs.tfvars.text, [path.join(folder, 'variables.tf')]: variables }),
    });
    try {
      const expected = computeFolderDiagnostics(fresh, undefined, parser);
      const files = [docs.main.file, docs.tfvars.file, path.join(folder, 'variables.tf')];
      const wire = (list: unknown[]) => list.map((d) => JSON.stringify(d)).sort();
      const publishedOf = (file: string) => wire(latest.get(pathToFileURL(file).href)?.diagnostics ?? []);
      const expectedOf = (file: string) => wire(JSON.parse(JSON.stringify(expected.get(file) ?? [])));
      const agree = () => files.every((file) => JSON.stringify(publishedOf(file)) === JSON.stringify(expectedOf(file)));
      // A block an edit left broken is read alone at once and confirmed by a whole-file parse once the edits
      // pause (documents/syncTiming.ts verifyDelayMs): the diagnostics equal a fresh parse's then, if not already.
      await within(
        new Promise<void>((resolve) => {
          const check = () => (agree() ? resolve() : waiters.push(check));
          check();
        }),
        'diagnostics equal to a fresh parse',
      ).catch(() => undefined);
      for (const file of files) assert.deepEqual(publishedOf(file), expectedOf(file), `diagnostics of ${path.basename(file)}`);
    } finally {
      fresh.dispose();
    }
  }

  test('random edits of main.tf and terraform.tfvars: every request answered, diagnostics equal a fresh parse', async () => {
    let edits = 0;
    const originals = { main: docs.main.text, tfvars: docs.tfvars.text };
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.oneof(randomEdit, benignEdit), fc.nat(9)), { minLength: 10, maxLength: 40, size: 'max' }), async (steps) => {
        // Each run starts from the fixture's text (a whole-document change).
        for (const key of ['main', 'tfvars'] as const) {
          docs[key].text = originals[key];
          await server.connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: docs[key].uri, version: ++docs[key].version }, contentChanges: [{ text: originals[key] }] });
        }
        const answers: Promise<unknown>[] = [];
        for (const [onMain, edit, request] of steps) {
          const doc = onMain ? docs.main : docs.tfvars;
          await send(doc, edit);
          edits++;
          // Requests between keystrokes, at a position that may no longer exist: each must be answered.
          if (request === 0) answers.push(server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: doc.uri }, position: { line: edits % 40, character: 4 } }));
          if (request === 1) answers.push(server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: docs.main.uri }, position: { line: edits % 50, character: 10 } }));
        }
        await within(Promise.all(answers), `${answers.length} requests sent between edits`);
        await expectFreshDiagnostics();
      }),
      { seed: 1314, numRuns: 100, endOnFailure: true },
    );
    assert.equal(server.child.exitCode, null, 'the server is still running');
    assert.deepEqual(versionProblems, []);
    assert.ok(edits > 2000, `only ${edits} edits`);
    assert.doesNotMatch(server.stderr(), /Uncaught|FATAL|RangeError/);
  });

  test('a burst of 60 changes is coalesced: diagnostics only ever move forward, and end at the last version', async () => {
    const before = publishesOf.get(docs.main.uri) ?? 0;
    const seen: number[] = [];
    const record = () => {
      const version = latest.get(docs.main.uri)?.version;
      if (version !== undefined && seen[seen.length - 1] !== version) seen.push(version);
      waiters.push(record);
    };
    waiters.push(record);
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 60; i++) sends.push(send(docs.main, { kind: 'insert', at: 500_000, text: i % 2 ? 'var.region ' : 'x' }));
    await Promise.all(sends);
    await expectFreshDiagnostics();
    const published = (publishesOf.get(docs.main.uri) ?? 0) - before;
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b), 'versions in the order published only increase');
    assert.equal(seen[seen.length - 1], docs.main.version);
    assert.ok(published < 60, `${published} publications for 60 changes: the burst was not coalesced`);
    assert.deepEqual(versionProblems, []);
  });
});
