// Fixed-window rate limits per caller (spec §8, notes §1.8): 30 requests per second on most endpoints,
// 30 per minute on the two run lists. Windows follow the emulator's clock, so with a manual clock a test
// moves past a limit by advancing time, never by sleeping.
import type { TimeSource } from '../store/model';
import type { RateLimitGroup } from './router';

export interface RateLimitPolicy {
  limit: number;
  windowMs: number;
}

export const rateLimitPolicies: Record<RateLimitGroup, RateLimitPolicy> = {
  default: { limit: 30, windowMs: 1_000 },
  'run-lists': { limit: 30, windowMs: 60_000 },
};

export interface RateLimitVerdict {
  allowed: boolean;
  headers: Record<string, string>;
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: TimeSource,
    private readonly policies: Record<RateLimitGroup, RateLimitPolicy> = rateLimitPolicies,
  ) {}

  /** Counts one request of `identity` (a user, team or organization id, or the peer address) in `group`. */
  take(group: RateLimitGroup, identity: string): RateLimitVerdict {
    const policy = this.policies[group];
    const now = this.clock.now().getTime();
    const start = Math.floor(now / policy.windowMs) * policy.windowMs;
    const key = `${group}\u0000${identity}`;
    let window = this.windows.get(key);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key, window);
    }
    const allowed = window.count < policy.limit;
    if (allowed) window.count++;
    const resetSeconds = (start + policy.windowMs - now) / 1000;
    return {
      allowed,
      headers: {
        'X-RateLimit-Limit': String(policy.limit),
        'X-RateLimit-Remaining': String(policy.limit - window.count),
        // Seconds until the window resets, as a float string (go-tfe parses it with ParseFloat).
        'X-RateLimit-Reset': resetSeconds.toFixed(3),
      },
    };
  }

  clear(): void {
    this.windows.clear();
  }
}

/** The documented 429 body; its `status` is a JSON number, unlike every other error (notes §1.8, §13.7). */
export const tooManyRequestsBody = {
  errors: [{ status: 429, title: 'Too many requests', detail: "You have exceeded the API's rate limit." }],
};
