// A clock that only moves when a test advances it: implements the server's Timers (and so the API client's Clock),
// so schedulers, rate limiters and backoff run on simulated time without any real waiting.
import { CancelledError } from '../../server/src/api';
import type { TimerHandle, Timers } from '../../server/src/workspaces/timers';

interface Task {
  at: number;
  seq: number;
  run: () => void;
}

export class ManualClock implements Timers {
  private time: number;
  private seq = 0;
  private tasks: Task[] = [];

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimer(ms: number, callback: () => void): TimerHandle {
    const task: Task = { at: this.time + Math.max(0, ms), seq: this.seq++, run: callback };
    this.tasks.push(task);
    return { cancel: () => (this.tasks = this.tasks.filter((t) => t !== task)) };
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError('waiting'));
      const handle = this.setTimer(ms, resolve);
      signal?.addEventListener('abort', () => (handle.cancel(), reject(new CancelledError('waiting'))), { once: true });
    });
  }

  /** Moves time forward by `ms`, running every task that falls due, in order, letting each one's promises settle. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      const due = this.tasks.filter((task) => task.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.tasks = this.tasks.filter((task) => task !== due);
      this.time = Math.max(this.time, due.at);
      due.run();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.time = target;
  }

  pendingTimers(): number {
    return this.tasks.length;
  }
}
