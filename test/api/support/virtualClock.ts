/**
 * A clock for tests: `sleep` resolves at once and moves virtual time forward by the requested amount, and every
 * requested wait is recorded, so backoff and rate-limit waits are asserted exactly without real waiting.
 */
import { CancelledError } from '../../../server/src/api/errors';
import type { Clock } from '../../../server/src/api/clock';

export class VirtualClock implements Clock {
  time = 1_000_000;
  readonly sleeps: number[] = [];

  now(): number {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new CancelledError('waiting before a request');
    this.sleeps.push(ms);
    this.time += ms;
  }
}

/**
 * A clock for concurrency tests: sleeps wait until the test moves time forward with `advance`, which wakes
 * sleepers in due order (letting each run before the next is woken).
 */
export class SteppedClock implements Clock {
  time = 0;
  private sleepers: Array<{ due: number; wake: () => void }> = [];

  now(): number {
    return this.time;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new CancelledError('waiting before a request'));
    return new Promise((resolve) => this.sleepers.push({ due: this.time + ms, wake: resolve }));
  }

  get pending(): number {
    return this.sleepers.length;
  }

  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    for (;;) {
      await flushMicrotasks();
      this.sleepers.sort((a, b) => a.due - b.due);
      const next = this.sleepers[0];
      if (!next || next.due > target) break;
      this.sleepers.shift();
      this.time = Math.max(this.time, next.due);
      next.wake();
    }
    this.time = target;
    await flushMicrotasks();
  }
}

function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
