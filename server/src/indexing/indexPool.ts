// A worker thread for the large closed files of a workspace (over `largeFileLength`): parsing a 1 MB file takes
// ~0.5 s, which would keep the server from answering the editor, and grows the parser's WebAssembly heap by ~100 MB
// for good (a heap never shrinks). In the worker the parse runs beside the server, and its heap goes when the
// worker stops, `idleMs` after its last file. Small files are parsed on the server's own thread, one per turn of
// its event loop (ModuleFolderModel.reindex): measured on 1,000 small files, a worker parsed them no faster than
// the server's warm thread (a new thread's JavaScript and WebAssembly start cold), and two workers no faster than
// one on this 2-core machine, while both made the whole index slower by what they took from the server's thread.
// Anything that goes wrong with a worker (no worker script beside the bundle, a crash, a hang) rejects the files it
// had, and the caller parses them itself; a pool disposed (the server is stopping) rejects them with IndexingStopped,
// and nobody needs them parsed any more.
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import type { FileExtraction } from '../model/fileExtraction';
import type { ModelFileKind } from '../model/fileKinds';
import { claimEarlyWorker, defaultIndexWorkerScript, spawnIndexWorker } from './workerStart';

export interface IndexRequest {
  id: number;
  file: string;
  kind: ModelFileKind;
  text: string;
}

export type IndexResponse = { id: number; extraction: FileExtraction; failed?: undefined } | { id: number; failed: string; extraction?: undefined };

interface Pending {
  resolve(extraction: FileExtraction): void;
  reject(error: Error): void;
}

interface PoolWorker {
  worker: Worker;
  pending: Map<number, Pending>;
}

export interface IndexPoolOptions {
  /** The worker script (default: indexWorker.js beside this bundle). */
  script?: string;
  /** How many workers at most (default 1: large files are few, and each worker holds a parser's heap). */
  size?: number;
  /** How long the workers are kept with nothing to do. */
  idleMs?: number;
  /** A worker that has not answered a file in this long is taken as hung: its files go back to the caller. */
  answerTimeoutMs?: number;
  /** Told once when the workers stop being used (why), so a slow index can be explained from the log. */
  log?(message: string): void;
}

/** The pool was disposed: the files it had are wanted no more (not a failure to make up for by parsing them elsewhere). */
export class IndexingStopped extends Error {
  constructor() {
    super('indexing stopped');
    this.name = 'IndexingStopped';
  }
}

export class IndexPool {
  private readonly script: string;
  private readonly size: number;
  private readonly idleMs: number;
  private readonly answerTimeoutMs: number;
  private readonly log: (message: string) => void;
  private workers: PoolWorker[] = [];
  private nextId = 1;
  private turn = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  /** Set once a worker could not start or crashed: files are then extracted by the caller, not retried here. */
  private broken = false;
  /** Whether the script exists, looked up once (asked for every file a lane reads). */
  private scriptFound: boolean | undefined;

  constructor(options: IndexPoolOptions = {}) {
    this.script = options.script ?? defaultIndexWorkerScript();
    this.size = Math.max(1, options.size ?? 1);
    this.idleMs = options.idleMs ?? 500;
    // A 2 MB file (the size limit) parses in about 2 s: far below this.
    this.answerTimeoutMs = options.answerTimeoutMs ?? 60_000;
    this.log = options.log ?? (() => undefined);
  }

  /** Whether the pool can take work (its script exists and no worker failed). */
  get available(): boolean {
    return !this.disposed && !this.broken && (this.scriptFound ??= existsSync(this.script));
  }

  /** Disposed: every file offered from now on is rejected with IndexingStopped. */
  get stopped(): boolean {
    return this.disposed;
  }

  /** How many workers are running now (for tests). */
  get running(): number {
    return this.workers.length;
  }

  extract(file: string, kind: ModelFileKind, text: string): Promise<FileExtraction> {
    if (this.disposed) return Promise.reject(new IndexingStopped());
    if (!this.available) return Promise.reject(new Error('no indexing workers'));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.workers.length < this.size) this.workers.push(this.start());
    // Round robin: files are about the same size, and a worker's queue is its message port.
    const target = this.workers[this.turn++ % this.workers.length];
    const id = this.nextId++;
    // While it has work, a worker keeps the process alive (its answer is awaited); idle, only its stdout does, until
    // the pool stops it (scheduleStop).
    target.worker.ref();
    return new Promise<FileExtraction>((resolve, reject) => {
      const timer = setTimeout(() => this.giveUp(new Error(`indexing worker did not answer within ${this.answerTimeoutMs} ms`)), this.answerTimeoutMs);
      const settle = { resolve: (value: FileExtraction) => (clearTimeout(timer), resolve(value)), reject: (error: Error) => (clearTimeout(timer), reject(error)) };
      target.pending.set(id, settle);
      target.worker.postMessage({ id, file, kind, text } satisfies IndexRequest);
    });
  }

  /**
   * Starts a worker ahead of the files it will be given (the background indexer does, as it begins): its thread,
   * its bundle and its WebAssembly parser start while this thread reads the first folder. A tiny file goes through
   * it, so the worker stops when idle like any other, if no file follows.
   */
  warm(): void {
    if (!this.available || this.workers.length > 0) return;
    this.extract('warm-up.tf', { kind: 'terraform' }, 'variable "warm_up" {\n  default = 1\n}\n').catch(() => undefined);
  }

  dispose(): void {
    this.disposed = true;
    this.stopAll(new IndexingStopped());
  }

  private start(): PoolWorker {
    // Started as the process started when main.ts could (workerStart.ts), else now. Either way this pool stops it
    // once idle (scheduleStop): while it runs, its stdout being read keeps the process alive (see spawnIndexWorker).
    const worker = claimEarlyWorker(this.script) ?? spawnIndexWorker(this.script);
    const entry: PoolWorker = { worker, pending: new Map() };
    worker.on('message', (response: IndexResponse) => {
      const waiting = entry.pending.get(response.id);
      if (!waiting) return;
      entry.pending.delete(response.id);
      if (response.failed !== undefined) waiting.reject(new Error(response.failed));
      else waiting.resolve(response.extraction);
      if (entry.pending.size === 0) worker.unref();
      if (this.workers.every((candidate) => candidate.pending.size === 0)) this.scheduleStop();
    });
    worker.on('error', (error) => this.giveUp(error));
    worker.on('exit', (code) => {
      if (this.workers.includes(entry)) this.giveUp(new Error(`indexing worker exited with code ${code}`));
    });
    return entry;
  }

  /** Resolves the next time the workers stop for lack of work (for tests: wait on the event, not a timer). */
  whenIdleStopped(): Promise<void> {
    return new Promise((resolve) => this.idleStopListeners.push(resolve));
  }

  private readonly idleStopListeners: Array<() => void> = [];

  private scheduleStop(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.stopAll();
      for (const listener of this.idleStopListeners.splice(0)) listener();
    }, this.idleMs);
  }

  private giveUp(error: Error): void {
    if (!this.broken) this.log(`Indexing workers stopped (${error.message}): files are parsed on the server's thread from now on.`);
    this.broken = true;
    this.stopAll(error);
  }

  private stopAll(error?: Error): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const workers = this.workers;
    this.workers = [];
    for (const { worker, pending } of workers) {
      for (const waiting of pending.values()) waiting.reject(error ?? new Error('indexing worker stopped'));
      void worker.terminate();
    }
  }
}

/** Closed files at least this long are parsed by the worker. */
export const largeFileLength = 256 * 1024;
