/**
 * Client-side rate discipline, so the editor stays under the service's limits instead of collecting 429s:
 * 30 requests per second per token overall, and 30 per minute on the two run-list endpoints (which also count
 * towards the overall limit). Sliding windows over the times requests were sent, slightly widened so network
 * jitter cannot push two windows' worth into one of the server's. The server's X-RateLimit-* headers refine it:
 * when it says nothing remains, the bucket pauses until its reset.
 */
import type { Clock } from './clock';

export type RateBucket = 'general' | 'run-list';

export interface RateWindow {
  limit: number;
  windowMs: number;
}

export interface RateLimiterOptions {
  clock: Clock;
  general?: RateWindow;
  runList?: RateWindow;
  /** Extra fraction of each window to wait out (default 0.05), for clock skew and network jitter. */
  margin?: number;
}

export const serviceRateLimits = {
  general: { limit: 30, windowMs: 1_000 },
  runList: { limit: 30, windowMs: 60_000 },
} as const satisfies Record<string, RateWindow>;

class SlidingWindow {
  private readonly sent: number[] = [];
  /** Set from the server's headers when it says the window is used up. */
  private blockedUntil = 0;

  constructor(private readonly window: RateWindow, private readonly margin: number) {}

  /** Milliseconds to wait before one more request fits; 0 if it fits now. */
  delayAt(now: number): number {
    const span = this.window.windowMs * (1 + this.margin);
    while (this.sent.length > 0 && this.sent[0]! <= now - span) this.sent.shift();
    const windowWait = this.sent.length < this.window.limit ? 0 : this.sent[0]! + span - now;
    return Math.max(windowWait, this.blockedUntil - now, 0);
  }

  record(now: number): void {
    this.sent.push(now);
  }

  blockUntil(time: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, time);
  }
}

/** How soon background work asks again while other requests wait for the bucket it wants. */
export const queueGraceMs = 250;

/** The limiter would hold the request past its deadline; `waitMs` is how long it would have waited. */
export class LimiterDeadlineError extends Error {
  constructor(readonly waitMs: number) {
    super(`The rate limit would hold the request for ${waitMs} ms, past its deadline.`);
  }
}

export class RateLimiter {
  private readonly windows: Record<RateBucket, SlidingWindow>;
  private readonly clock: Clock;
  /** Requests sleeping in acquire() until their bucket has room, per bucket. */
  private readonly waiting: Record<RateBucket, number> = { general: 0, 'run-list': 0 };

  constructor(options: RateLimiterOptions) {
    const margin = options.margin ?? 0.05;
    this.clock = options.clock;
    this.windows = {
      general: new SlidingWindow(options.general ?? serviceRateLimits.general, margin),
      'run-list': new SlidingWindow(options.runList ?? serviceRateLimits.runList, margin),
    };
  }

  /**
   * Waits (on the injected clock) until a request to `bucket` may be sent, and counts it as sent. A wait that would
   * end after `until.deadline` is not started: LimiterDeadlineError says how long it would have been (the wait counts
   * against the request's deadline, #14). `until.onWait` hears of each wait before it starts.
   */
  async acquire(bucket: RateBucket, signal?: AbortSignal, until: { deadline?: number; onWait?: (waitMs: number) => void } = {}): Promise<void> {
    const buckets = this.bucketsFor(bucket);
    for (;;) {
      const now = this.clock.now();
      const delay = Math.max(...buckets.map((window) => window.delayAt(now)));
      if (delay <= 0) {
        // Checked and recorded in the same turn of the event loop, so concurrent callers cannot both take the last slot.
        for (const window of buckets) window.record(now);
        return;
      }
      if (until.deadline !== undefined && now + delay > until.deadline) throw new LimiterDeadlineError(delay);
      until.onWait?.(delay);
      this.waiting[bucket]++;
      try {
        await this.clock.sleep(delay, signal);
      } finally {
        this.waiting[bucket]--;
      }
    }
  }

  /** How long a request to `bucket` would wait right now (0 = it can go). */
  delayFor(bucket: RateBucket): number {
    const now = this.clock.now();
    return Math.max(...this.bucketsFor(bucket).map((window) => window.delayAt(now)));
  }

  /**
   * How long background work should hold off a request to `bucket` (0: it may go now). Past the window's own wait,
   * requests already waiting for the bucket go first: a user's read queued there must not lose the slot it waits for
   * to a background one that arrives as it frees. Asked again after `queueGraceMs` while they wait.
   */
  backgroundDelay(bucket: RateBucket): number {
    return Math.max(this.delayFor(bucket), this.waiting[bucket] > 0 ? queueGraceMs : 0);
  }

  /**
   * Reads X-RateLimit-Remaining / X-RateLimit-Reset (seconds, a float) from a response: with nothing remaining,
   * the bucket the request used waits for the reset even if our own count thought there was room.
   */
  observe(bucket: RateBucket, headers: Record<string, string>): void {
    const remaining = Number.parseFloat(headers['x-ratelimit-remaining'] ?? '');
    const resetSeconds = Number.parseFloat(headers['x-ratelimit-reset'] ?? '');
    if (Number.isFinite(remaining) && remaining <= 0 && Number.isFinite(resetSeconds) && resetSeconds > 0) {
      this.windows[bucket].blockUntil(this.clock.now() + resetSeconds * 1000);
    }
  }

  private bucketsFor(bucket: RateBucket): SlidingWindow[] {
    return bucket === 'general' ? [this.windows.general] : [this.windows.general, this.windows[bucket]];
  }
}
