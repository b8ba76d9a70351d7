// Time as the server's schedulers see it (run watcher, knowledge refresh). Injected so tests drive it by hand
// (test/helpers/manualClock.ts) instead of sleeping; the API client's Clock is the same object in tests.
import type { Clock } from '../api';
import { realClock } from '../api';

export interface TimerHandle {
  cancel(): void;
}

export interface Timers extends Clock {
  /** Runs `callback` once after `ms`. Real timers are unref'd: a pending poll never keeps the process alive. */
  setTimer(ms: number, callback: () => void): TimerHandle;
}

export const realTimers: Timers = {
  now: realClock.now,
  sleep: realClock.sleep,
  setTimer(ms, callback) {
    const timer = setTimeout(callback, Math.max(0, ms));
    timer.unref?.();
    return { cancel: () => clearTimeout(timer) };
  },
};
