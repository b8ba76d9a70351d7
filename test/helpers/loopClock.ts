// A clock for the document sync's scheduling (server/src/documents/syncTiming.ts SyncClock) that only moves when a test
// moves it. Timers run in order of their due time as `advance` passes it; `setImmediate` callbacks (a request's
// handler giving the event loop back) wait for `endTurn`, so a test decides how long a request "runs".
import type { SyncClock } from '../../server/src/documents/syncTiming';
import type { TimerHandle } from '../../server/src/workspaces/timers';

interface Timer {
  at: number;
  seq: number;
  run: () => void;
}

export class LoopClock implements SyncClock {
  private time = 0;
  private seq = 0;
  private timers: Timer[] = [];
  private immediates: Array<() => void> = [];

  now(): number {
    return this.time;
  }

  setTimer(ms: number, callback: () => void): TimerHandle {
    const timer: Timer = { at: this.time + Math.max(0, ms), seq: this.seq++, run: callback };
    this.timers.push(timer);
    return { cancel: () => (this.timers = this.timers.filter((each) => each !== timer)) };
  }

  setImmediate(callback: () => void): void {
    this.immediates.push(callback);
  }

  /** Time spent inside the callback running now (a parse that takes `ms`): no timer runs meanwhile. */
  spend(ms: number): void {
    this.time += ms;
  }

  /** The current turn of the event loop ends: the setImmediate callbacks queued so far run, and their promises settle. */
  async endTurn(): Promise<void> {
    for (const callback of this.immediates.splice(0)) callback();
    await settle();
  }

  /** Moves time forward by `ms`, running each timer that falls due at its own time, in order, letting its promises settle. */
  async advance(ms: number): Promise<void> {
    await this.advanceTo(this.time + ms);
  }

  async advanceTo(target: number): Promise<void> {
    await settle();
    for (;;) {
      const due = this.timers.filter((timer) => timer.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((timer) => timer !== due);
      this.time = Math.max(this.time, due.at);
      due.run();
      await settle();
    }
    this.time = Math.max(this.time, target);
  }

  pendingTimers(): number {
    return this.timers.length;
  }
}

/** Lets every promise already resolved run its continuations (a real turn of the event loop, not a wait on time). */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
