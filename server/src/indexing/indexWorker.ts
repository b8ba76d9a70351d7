// Entry point of dist/indexWorker.js: a worker thread that extracts files for the server while it indexes a
// workspace, so the server's own thread keeps answering the editor and both cores parse. It holds its own parser
// (WebAssembly heap included), which goes away with the worker once indexing is over (indexPool.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { loadTerraformParser } from '../model';
import { extractFileText } from '../model/fileExtraction';
import type { IndexRequest, IndexResponse } from './indexPool';

const port = parentPort;
if (port) {
  const parser = loadTerraformParser((workerData as { wasmDirectory?: string } | undefined)?.wasmDirectory ? { wasmDirectory: (workerData as { wasmDirectory: string }).wasmDirectory } : {});
  port.on('message', (request: IndexRequest) => {
    void parser.then(
      (loaded) => port.postMessage({ id: request.id, extraction: extractFileText(loaded, request.file, request.kind, request.text) } satisfies IndexResponse),
      (error: unknown) => port.postMessage({ id: request.id, failed: error instanceof Error ? error.message : String(error) } satisfies IndexResponse),
    );
  });
}
