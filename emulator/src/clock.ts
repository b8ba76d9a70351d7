// The emulator's one source of time. Timestamps, rate-limit windows and run progress all read `now()` from here,
// and every delayed piece of work (a run moving to its next phase) is scheduled here, so a test can drive the
// whole emulator deterministically with `advance(ms)` instead of sleeping.
//
// Both modes share one queue of scheduled tasks:
//   - 'manual': time stands still until `advance(ms)` moves it; due tasks then run in due-time order, each one
//     seeing `now()` equal to its own due time (so status timestamps come out exactly as a real run would have them).
//   - 'real': `now()` follows the wall clock (plus whatever `advance` added, so the control API works on a live
//     demo too) and a single unref'd timer fires when the earliest task falls due.
// `speed` only scales run progress (see `progressDelay`): a demo at speed 4 plays runs four times faster while
// timestamps and rate-limit windows stay in wall-clock time.

export type ClockMode = 'real' | 'manual';

export interface ClockOptions {
  mode?: ClockMode;
  /** How fast run phases go by; 1 = realistic seconds per phase. Must be > 0. */
  speed?: number;
  /** Manual mode only: where time starts. Defaults to the current wall-clock time. */
  start?: Date;
}

export interface ScheduledTask {
  /** Stops the task from running; harmless if it already ran. */
  cancel(): void;
}

interface QueueEntry {
  dueMs: number;
  order: number;
  run: () => void | Promise<void>;
  canceled: boolean;
}

export class Clock {
  readonly mode: ClockMode;
  readonly speed: number;
  private manualNowMs: number;
  private realOffsetMs = 0;
  private queue: QueueEntry[] = [];
  private nextOrder = 0;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private disposed = false;
  private readonly failureListeners: Array<(error: unknown) => void> = [];

  constructor(options: ClockOptions = {}) {
    this.mode = options.mode ?? 'real';
    const speed = options.speed ?? 1;
    if (!Number.isFinite(speed) || speed <= 0) {
      throw new Error(`Clock speed must be a positive number (got ${String(options.speed)}); use 1 for realistic timing.`);
    }
    this.speed = speed;
    this.manualNowMs = (options.start ?? new Date()).getTime();
  }

  nowMs(): number {
    return this.mode === 'manual' ? this.manualNowMs : Date.now() + this.realOffsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** A realistic run-phase duration turned into clock milliseconds at this clock's speed. */
  progressDelay(realisticMs: number): number {
    return realisticMs / this.speed;
  }

  /** Runs `task` once `delayMs` of clock time has passed (0 = at the next advance / timer turn, never synchronously). */
  schedule(delayMs: number, task: () => void | Promise<void>): ScheduledTask {
    if (this.disposed) return { cancel: () => undefined };
    const entry: QueueEntry = {
      dueMs: this.nowMs() + Math.max(0, delayMs),
      order: this.nextOrder++,
      run: task,
      canceled: false,
    };
    this.insert(entry);
    this.armRealTimer();
    return {
      cancel: () => {
        entry.canceled = true;
      },
    };
  }

  /** How many tasks are waiting (canceled ones excluded); lets tests assert that nothing is left running. */
  pendingTasks(): number {
    return this.queue.filter((entry) => !entry.canceled).length;
  }

  /**
   * Moves time forward by `ms` and runs every task that falls due on the way, in order, including tasks those
   * tasks schedule inside the window. Resolves once all of them (and their promises) have finished.
   */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new Error(`Clock advance needs a non-negative number of milliseconds (got ${String(ms)}).`);
    }
    // Serialize advances so two concurrent callers cannot interleave half-run windows.
    while (this.draining) await this.draining;
    const target = this.nowMs() + ms;
    const work = this.runDueTasks(target, true).finally(() => {
      this.draining = undefined;
    });
    this.draining = work;
    await work;
  }

  /** Called with any error a scheduled task throws; without a listener the error goes to stderr. Never rethrown. */
  onTaskFailure(listener: (error: unknown) => void): void {
    this.failureListeners.push(listener);
  }

  /** Drops every scheduled task and stops the real-time timer (emulator shutdown or reset). */
  clearScheduled(): void {
    for (const entry of this.queue) entry.canceled = true;
    this.queue = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  dispose(): void {
    this.clearScheduled();
    this.disposed = true;
  }

  private async runDueTasks(targetMs: number, moveTime: boolean): Promise<void> {
    for (;;) {
      const next = this.queue[0];
      if (!next || next.dueMs > targetMs) break;
      this.queue.shift();
      if (next.canceled) continue;
      if (moveTime) this.setNow(Math.max(this.nowMs(), next.dueMs));
      try {
        await next.run();
      } catch (error) {
        this.reportFailure(error);
      }
    }
    if (moveTime) this.setNow(Math.max(this.nowMs(), targetMs));
    this.armRealTimer();
  }

  private setNow(ms: number): void {
    if (this.mode === 'manual') this.manualNowMs = ms;
    else this.realOffsetMs = ms - Date.now();
  }

  private insert(entry: QueueEntry): void {
    // Stable by due time, then by scheduling order: equal due times run in the order they were scheduled.
    let index = this.queue.length;
    while (index > 0) {
      const before = this.queue[index - 1]!;
      if (before.dueMs < entry.dueMs || (before.dueMs === entry.dueMs && before.order < entry.order)) break;
      index--;
    }
    this.queue.splice(index, 0, entry);
  }

  private armRealTimer(): void {
    if (this.mode !== 'real' || this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.queue.find((entry) => !entry.canceled);
    if (!next) return;
    const wait = Math.max(0, next.dueMs - this.nowMs());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.draining) return; // the running advance re-arms the timer when it finishes
      const work = this.runDueTasks(this.nowMs(), false).finally(() => {
        this.draining = undefined;
      });
      this.draining = work;
    }, wait);
    // The clock must never keep a process (a test run, the CLI after close) alive on its own.
    this.timer.unref();
  }

  private reportFailure(error: unknown): void {
    if (this.failureListeners.length === 0) {
      console.error('[emulator clock] a scheduled task failed:', error instanceof Error ? error.message : error);
      return;
    }
    for (const listener of this.failureListeners) listener(error);
  }
}
