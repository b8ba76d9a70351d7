// The 1,000-file workspace: first diagnostics of an open file while the rest indexes, the full index, and memory.
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { CompletionRequest, DidCloseTextDocumentNotification, DidOpenTextDocumentNotification } from 'vscode-languageserver-protocol/node';
import { clockUs, floor, markWindow, profileArgs, sleep, timed } from './benchSession';
import { startBenchServer, summary } from './client';
import { writeModule } from './inputs';

/** 1,000 files in 20 folders: first diagnostics of an open file while the rest indexes, and the full index. */
export async function workspaceScenario(root: string) {
  const input = await writeModule(root);
  const out: Record<string, unknown> = { files: input.files.length };
  const published = new Set<string>();
  let allPublished!: () => void;
  const everyFile = new Promise<void>((resolve) => (allPublished = resolve));
  const started = performance.now();
  const server = await startBenchServer(input.folder, { nodeArgs: profileArgs('workspace') });
  const indexingFrom = clockUs();
  out.initializeMs = performance.now() - started;
  try {
    const openUri = pathToFileURL(input.openFile).href;
    const fileUris = new Set(input.files.map((file) => pathToFileURL(file).href));
    const openDiagnostics = server.nextDiagnostics((params) => params.uri === openUri && params.diagnostics.length > 0);
    server.onDiagnostics((params) => {
      if (!fileUris.has(params.uri) || params.diagnostics.length === 0) return;
      published.add(params.uri);
      if (published.size === fileUris.size) allPublished();
    });
    const opened = performance.now();
    await server.connection.sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: { uri: openUri, languageId: 'terraform', version: 1, text: await readFile(input.openFile, 'utf8') },
    });
    // The noop floor measured while indexing runs: how long a request waits behind the indexer.
    const busy: number[] = [];
    let indexing = true;
    const probe = (async () => {
      while (indexing) {
        busy.push(await server.noop());
        await sleep(20);
      }
    })();
    out.openToFirstDiagnosticsMs = (await openDiagnostics) - opened;
    await everyFile;
    // Read before the probe is awaited: it may be in its 20 ms sleep, which is not the index's time.
    out.fullIndexMs = performance.now() - started;
    indexing = false;
    await probe;
    markWindow('workspace', 'indexing', indexingFrom);
    out.noopWhileIndexing = summary(busy);
    out.noop = await floor(server);
    await sleep(1000);
    out.memoryAfterIndexing = server.memory();
    const [ms, list] = await timed(() =>
      server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri: openUri }, position: { line: 0, character: 0 } }),
    );
    out.completionAtFirstLineMs = ms;
    void list;
    await server.connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri: openUri } });
    await server.noop();
    await sleep(1000);
    out.memoryAfterClose = server.memory();
  } finally {
    await server.stop().catch(() => server.child.kill());
  }
  return out;
}
