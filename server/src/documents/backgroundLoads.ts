// The background indexer of ModuleFolders: the module folders found in a workspace folder wait in a backlog and are
// loaded one at a time per lane, after any folder an editor waits for. Apart from ModuleFolders, which owns the
// models, their queues and their overrides: this file decides only when a folder of the backlog loads and on which
// lane (this thread, or the index pool's worker), and tells whoever waits for it when it is done.
import type { IndexPool } from '../indexing/indexPool';
import { hasSpareCore } from '../indexing/workerStart';

export interface BackgroundLoadsOptions {
  /** Workers that parse the files read from disk (none: one lane, on this thread). */
  indexPool?: IndexPool;
  /** See ModuleFoldersOptions.backgroundLanes. */
  backgroundLanes?: number;
  /** Aborted when the server stops: nothing more is loaded. */
  stopping: AbortSignal;
  /** Whether the folder has a model already (nothing to load). */
  isLoaded(folder: string): boolean;
  /**
   * Loads a folder of the backlog (undefined: nothing to load); `toWorker`: every file of it is parsed by the pool.
   * Errors are the caller's: the promise settles, never rejects.
   */
  load(folder: string, toWorker: boolean): Promise<unknown> | undefined;
}

export class BackgroundLoads {
  /** Folders waiting for the background loader, in discovery order, with who waits for each. */
  private readonly backlog = new Map<string, Array<() => void>>();
  private running = false;
  /** Loads asked for by an editor (a document opened or changed): the background loader waits for them. */
  private readonly urgent = new Set<Promise<unknown>>();

  constructor(private readonly options: BackgroundLoadsOptions) {}

  /** Queues a folder (an absolute, resolved path); resolves once it is loaded, or once loading stopped. */
  add(folder: string): Promise<void> {
    if (this.options.isLoaded(folder)) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiting = this.backlog.get(folder);
      if (waiting) waiting.push(resolve);
      else this.backlog.set(folder, [resolve]);
      if (!this.running) void this.run();
    });
  }

  /** An editor waits on this load: it goes before the background's next folder. */
  putFirst(done: Promise<unknown>): void {
    this.urgent.add(done);
    void done.finally(() => this.urgent.delete(done)).catch(() => undefined);
  }

  /**
   * Loads the backlog in lanes. The first lane parses on this thread; each other lane hands every file of its
   * folder to the index pool's worker, so both cores parse while this thread reads, answers requests and publishes.
   * Measured on the bench's 1,000 files: two lanes with a worker started as indexing begins index ~10% sooner than
   * this thread alone; the threads slow each other (memory, the collector), so it is not twice as fast.
   */
  private async run(): Promise<void> {
    this.running = true;
    try {
      // addRoot queues all its folders in one go: lanes started on the next turn find every folder, not the first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      // No more lanes than folders: a workspace of one module folder starts no worker to compete with its parse.
      const lanes = Math.min(this.laneCount(), this.backlog.size);
      if (lanes > 1) this.options.indexPool?.warm();
      await Promise.all(Array.from({ length: lanes }, (_, lane) => this.runLane(lane > 0)));
    } finally {
      this.running = false;
      // Stopped: nothing more is loaded, and whoever waits for a folder hears that it is over.
      if (this.options.stopping.aborted) {
        for (const waiting of this.backlog.values()) for (const resolve of waiting) resolve();
        this.backlog.clear();
      }
    }
  }

  private laneCount(): number {
    const pool = this.options.indexPool;
    if (!pool?.available) return 1;
    return Math.max(1, this.options.backgroundLanes ?? (hasSpareCore() ? 2 : 1));
  }

  /** Takes folders from the backlog until it is empty; `toWorker`: every file of its folders is parsed by the pool. */
  private async runLane(toWorker: boolean): Promise<void> {
    while (this.backlog.size > 0 && !this.options.stopping.aborted) {
      while (this.urgent.size > 0) await Promise.allSettled([...this.urgent]);
      const next = this.backlog.entries().next().value;
      if (!next) return; // another lane took the last folder while this one waited
      const [folder, waiting] = next;
      this.backlog.delete(folder);
      const loading = this.options.load(folder, toWorker);
      if (loading) await loading;
      for (const resolve of waiting) resolve();
      // A turn of the event loop between folders: requests that arrived meanwhile go first.
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}
