import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { LogMessageNotification, PublishDiagnosticsNotification } from 'vscode-languageserver-protocol/node';
import { serverStatusRequest } from '../../server/src/protocol';
import { startLspProcess } from '../helpers/lspProcess';
import type { LspProcess } from '../helpers/lspProcess';

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

  test("console output in the server process goes to the client's log, never into the protocol on stdout", async () => {
    const logged: string[] = [];
    let bothLogged: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (bothLogged = resolve));
    const server = await startLspProcess(
      {},
      {},
      (connection) =>
        connection.onNotification(LogMessageNotification.type, ({ message }) => {
          logged.push(message);
          if (logged.some((line) => line.includes('stray console info'))) bothLogged();
        }),
      ['--require', path.resolve('test/fixtures/preload/strayConsoleOutput.cjs')],
    );
    try {
      server.child.kill('SIGUSR2');
      // Bounded: output written into stdout corrupts the protocol, and then nothing would ever come.
      await within(10_000, arrived, 'the console output as window/logMessage');
      assert.ok(logged.includes("stray console output { from: 'a dependency' }"), `logged: ${JSON.stringify(logged)}`);
      // The protocol went on unharmed: a request after the output is answered, and the server exits cleanly.
      assert.equal((await within(10_000, server.connection.sendRequest(serverStatusRequest), 'the status request')).signedIn, false);
      assert.equal(await within(10_000, server.stop(), 'the exit'), 0);
    } finally {
      server.child.kill();
    }
  });

  // With one core the server indexes in one lane and starts no worker for a small workspace: nothing to check there.
  const oneLane = availableParallelism() < 2 && 'one core: no indexing worker is started';
  test('what an indexing worker prints goes to stderr, never into the protocol on stdout', { skip: oneLane }, async () => {
    // Several folders: past the first, folders are indexed by a worker thread (the second lane).
    const root = await mkdtemp(path.join(os.tmpdir(), 'hcp-stdio-worker-'));
    for (const folder of ['a', 'b', 'c']) {
      await mkdir(path.join(root, folder));
      for (let file = 0; file < 20; file++) await writeFile(path.join(root, folder, `f${file}.tf`), `variable "v${file}" {}\noutput "o${file}" { value = var.v${file} }\n`);
    }
    const server = await startLspProcess({ workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'root' }] }, {}, undefined, [
      '--require',
      path.resolve('test/fixtures/preload/strayConsoleOutput.cjs'),
    ]);
    try {
      await within(10_000, stderrShows(server, 'stray output from an indexing worker'), 'the worker\'s output on stderr');
      assert.equal((await within(10_000, server.connection.sendRequest(serverStatusRequest), 'the status request')).signedIn, false);
      assert.equal(await within(10_000, server.stop(), 'the exit'), 0);
    } finally {
      server.child.kill();
      await rm(root, { recursive: true, force: true });
    }
  });

  test('the indexing worker starts with the server, before it knows of any folder, and is the only one its index uses', { skip: oneLane }, async () => {
    const countWorkers = ['--require', path.resolve('test/fixtures/preload/countWorkers.cjs')];
    // No folder at all: the worker's boot runs while the server loads, before initialize says what to index.
    const bare = await startLspProcess({}, {}, undefined, countWorkers);
    try {
      await within(10_000, stderrShows(bare, 'worker thread started (1)'), 'a worker started by a server with no folder');
      assert.equal(await within(10_000, bare.stop(), 'the exit'), 0);
    } finally {
      bare.child.kill();
    }
    const root = await mkdtemp(path.join(os.tmpdir(), 'hcp-stdio-early-worker-'));
    const files: string[] = [];
    for (const folder of ['a', 'b', 'c']) {
      await mkdir(path.join(root, folder));
      for (let file = 0; file < 20; file++) {
        files.push(path.join(root, folder, `f${file}.tf`));
        await writeFile(files[files.length - 1], `output "o${file}" { value = var.missing_${file} }\n`);
      }
    }
    const published = new Set<string>();
    let allPublished: () => void = () => undefined;
    const everyFile = new Promise<void>((resolve) => (allPublished = resolve));
    const server = await startLspProcess(
      { workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'root' }] },
      {},
      (connection) =>
        connection.onNotification(PublishDiagnosticsNotification.type, ({ uri, diagnostics }) => {
          if (diagnostics.length > 0) published.add(uri);
          if (published.size === files.length) allPublished();
        }),
      countWorkers,
    );
    try {
      // Three folders index in two lanes, the second through the worker: every file's undeclared variable is reported.
      await within(20_000, everyFile, 'diagnostics of every file');
      assert.match(server.stderr(), /worker thread started \(1\)/);
      assert.match(server.stderr(), /worker thread 1 given a file/, 'the index used the worker started early');
      assert.doesNotMatch(server.stderr(), /worker thread started \(2\)/, 'and started no other');
      assert.equal(await within(10_000, server.stop(), 'the exit'), 0);
    } finally {
      server.child.kill();
      await rm(root, { recursive: true, force: true });
    }
  });
});

/** Resolves once the server's stderr holds `text`, checked as its output comes (the caller bounds the wait). */
function stderrShows(server: LspProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!server.stderr().includes(text)) return;
      server.child.stderr.off('data', check);
      resolve();
    };
    server.child.stderr.on('data', check);
    check();
  });
}

function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
