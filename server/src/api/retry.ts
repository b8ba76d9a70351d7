/**
 * When to send a request again, and after how long. Pure: the requester applies the decision with the injected clock.
 *
 * The rule that matters most: a write (create run, apply, token generation...) must never run twice. So writes are
 * retried only when the service provably did not process them: a 429 (the service refused it before doing
 * anything) or a connection that was never established. Reads are also retried after 5xx, timeouts and network errors.
 */
import type { ApiError } from './errors';

export interface RetryOptions {
  /** Total attempts including the first (default 4). */
  maxAttempts: number;
  /** First backoff after a 5xx or network error (default 250 ms), doubled per attempt up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Random extra wait in [0, jitterMs) so many clients do not retry in lockstep (default 300 ms). */
  jitterMs: number;
  /** Give up on a 429 whose requested wait is longer than this (default 60 s): better to tell the user. */
  maxRateLimitWaitMs: number;
  /** Source of randomness for the jitter (tests pass a fixed one). */
  random: () => number;
}

export const defaultRetryOptions: RetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  jitterMs: 300,
  maxRateLimitWaitMs: 60_000,
  random: Math.random,
};

export type AttemptOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string> }
  | { kind: 'error'; error: ApiError };

export type RetryDecision = { retry: false } | { retry: true; delayMs: number; reason: string };

export interface RetryContext {
  /** GET: safe to repeat. Anything else is a write. */
  isRead: boolean;
  /** 1-based number of the attempt that just finished. */
  attempt: number;
  options: RetryOptions;
}

export function decideRetry(outcome: AttemptOutcome, context: RetryContext): RetryDecision {
  const { isRead, attempt, options } = context;
  if (attempt >= options.maxAttempts) return { retry: false };
  const jitter = Math.floor(options.random() * options.jitterMs);

  if (outcome.kind === 'response') {
    if (outcome.status === 429) {
      // A 429 proves the request was not processed, so even a write may go again.
      const askedMs = rateLimitWaitMs(outcome.headers);
      const waitMs = askedMs ?? backoffMs(attempt, options);
      if (waitMs > options.maxRateLimitWaitMs) return { retry: false };
      return { retry: true, delayMs: waitMs + jitter, reason: 'rate limited (429)' };
    }
    if (outcome.status >= 500 && isRead) {
      return { retry: true, delayMs: backoffMs(attempt, options) + jitter, reason: `server error (${outcome.status})` };
    }
    return { retry: false };
  }

  const error = outcome.error;
  if (error.kind === 'network') {
    const provablyNotSent = 'requestMayHaveBeenSent' in error && error.requestMayHaveBeenSent === false;
    if (isRead || provablyNotSent) {
      return { retry: true, delayMs: backoffMs(attempt, options) + jitter, reason: 'network error' };
    }
    return { retry: false };
  }
  if (error.kind === 'timeout' && isRead) {
    return { retry: true, delayMs: backoffMs(attempt, options) + jitter, reason: 'timeout' };
  }
  return { retry: false };
}

/** The wait a 429 asks for: X-RateLimit-Reset (float seconds from now) first, else Retry-After (seconds or HTTP date). */
export function rateLimitWaitMs(headers: Record<string, string>, now: number = Date.now()): number | undefined {
  const reset = Number.parseFloat(headers['x-ratelimit-reset'] ?? '');
  if (Number.isFinite(reset) && reset >= 0) return Math.ceil(reset * 1000);
  const retryAfter = headers['retry-after'];
  if (retryAfter === undefined) return undefined;
  const seconds = Number(retryAfter.trim());
  if (retryAfter.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function backoffMs(attempt: number, options: RetryOptions): number {
  return Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
}
