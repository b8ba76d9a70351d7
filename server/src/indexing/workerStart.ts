// Starting the indexing worker, and starting it early. A worker thread takes ~0.15-0.2 s of its own core to boot
// (Node's internals, the worker bundle, the parser's WebAssembly) before it parses anything. Started as the server
// process starts, before the server's own code loads (main.ts), that boot runs beside the server's (~0.15 s of
// module loading, then the initialize handshake and the configuration read) instead of after it: the worker is
// ready when the background indexer first hands it a file. A worker nobody claims (no workspace folder to index)
// is stopped after `unclaimedMs`; nothing waits on it.
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

/**
 * Whether a worker has a core of its own to parse on: on one core the server indexes on its own thread alone, and no
 * worker starts, early or later (moduleFolders.ts backgroundLaneCount).
 */
export function hasSpareCore(): boolean {
  return os.availableParallelism() >= 2;
}

/** The worker script beside this bundle (dist/indexWorker.js). */
export function defaultIndexWorkerScript(): string {
  return path.join(__dirname, 'indexWorker.js');
}

/**
 * A worker running `script`, its stdout on stderr. Its stdout, read, keeps the process alive for as long as the
 * worker runs (Node refs the worker's port while its stdout is read; unref() does not cover that): every worker is
 * therefore stopped by its owner, the pool once idle, this module once unclaimed, and the server ends with
 * process.exit when the editor says exit or closes stdin.
 */
export function spawnIndexWorker(script: string): Worker {
  // A worker's stdout would otherwise go into the server's, which over stdio is the protocol: anything the parser's
  // wasm runtime prints there goes to stderr instead.
  const worker = new Worker(script, { workerData: { wasmDirectory: path.dirname(script) }, stdout: true });
  worker.stdout.pipe(process.stderr, { end: false });
  worker.unref();
  return worker;
}

interface EarlyWorker {
  script: string;
  worker: Worker;
  expiry: ReturnType<typeof setTimeout>;
}

let early: EarlyWorker | undefined;

/**
 * How long a worker started early waits to be claimed before it is stopped: far longer than a server takes from its
 * start to its first folder (the initialize handshake and one configuration read, ~0.1-0.3 s), even on a loaded
 * machine, and short enough that a server with nothing to index does not hold a parser's memory for long.
 */
export const unclaimedMs = 10_000;

/**
 * Starts a worker for `script` now, for the index pool to claim later, and returns it (for tests to watch). Nothing
 * starts when the script is missing, or without a spare core (hasSpareCore).
 */
export function startIndexWorkerEarly(script = defaultIndexWorkerScript(), waitMs = unclaimedMs): Worker | undefined {
  if (early || !hasSpareCore() || !existsSync(script)) return undefined;
  let worker: Worker;
  try {
    worker = spawnIndexWorker(script);
  } catch {
    return undefined; // the pool starts its own when asked, and reports what goes wrong then
  }
  const started: EarlyWorker = {
    script,
    worker,
    expiry: setTimeout(() => forget(started, true), waitMs).unref(),
  };
  // Until claimed, a worker that fails is simply forgotten (an 'error' with no listener would end the server):
  // the pool then starts one of its own, whose failure it handles.
  worker.on('error', () => forget(started, false));
  worker.on('exit', () => forget(started, false));
  early = started;
  return worker;
}

/**
 * The worker started early for `script`, now the caller's to use and stop; undefined when there is none. A worker
 * whose thread died a moment ago, its 'error' not yet delivered, is handed over too: the pool then sees that failure
 * as its own and parses on the server's thread from then on, as it would if its own worker had failed (a worker that
 * cannot start once would not start the second time either).
 */
export function claimEarlyWorker(script: string): Worker | undefined {
  if (!early || early.script !== script) return undefined;
  const { worker, expiry } = early;
  clearTimeout(expiry);
  early = undefined;
  return worker;
}

function forget(entry: EarlyWorker, terminate: boolean): void {
  if (early !== entry) return; // claimed: its owner handles it from now on
  clearTimeout(entry.expiry);
  early = undefined;
  if (terminate) void entry.worker.terminate();
}
