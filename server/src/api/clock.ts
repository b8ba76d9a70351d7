/**
 * Time as the API client sees it. Injected so tests of rate limiting and backoff drive time by hand
 * instead of sleeping on real timers.
 */
import { CancelledError } from './errors';

export interface Clock {
  /** Milliseconds since the epoch (or any monotonic origin: only differences are used). */
  now(): number;
  /** Resolves after `ms`; rejects with a CancelledError as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError('waiting before a request'));
      const onAbort = () => {
        clearTimeout(timer);
        reject(new CancelledError('waiting before a request'));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.max(0, ms));
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
