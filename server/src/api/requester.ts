/**
 * Turns one API operation into HTTP exchanges: rate limiting, retries (reads only, unless a write provably was
 * not processed), sharing of identical GETs in flight, error mapping to typed errors, JSON parsing and schema
 * validation. Operation modules (runs.ts, workspaces.ts...) describe calls; this class performs them.
 */
import type { z } from 'zod';
import type { Clock } from './clock';
import { ApiError, MalformedResponseError, RateLimitedError, ServiceError, redactSecrets } from './errors';
import type { ServiceErrorObject } from './errors';
import type { HttpMethod, HttpResponse, HttpTransport } from './http';
import { InFlightRequests } from './inflight';
import { meaningOf, operationLabels } from './operations';
import type { OperationName } from './operations';
import { buildQuery } from './query';
import type { QueryParams } from './query';
import { LimiterDeadlineError } from './rateLimiter';
import type { RateBucket, RateLimiter } from './rateLimiter';
import { decideRetry, rateLimitWaitMs } from './retry';
import type { AttemptOutcome, RetryOptions } from './retry';
import { errorDocumentSchema } from './schemas/jsonapi';
import { markUncertainWrite } from './uncertainWrites';

export const jsonApiMediaType = 'application/vnd.api+json';

export interface ApiCall<T> {
  operation: OperationName;
  method: HttpMethod;
  /** Path under the API base (`/runs/run-1`); ids already encoded with `segment()`. */
  path?: string;
  /** Instead of `path`: an absolute URL on the service (a pagination link). */
  url?: URL;
  query?: QueryParams;
  /** Serialised as JSON. */
  body?: unknown;
  /** Validates the response body; omit for operations that answer without one (202/204). */
  schema?: z.ZodType<T>;
  /** The run-list endpoints have their own, lower limit. */
  bucket?: RateBucket;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Values that must never appear in an error message (a sensitive variable's value), besides the token. */
  secrets?: readonly string[];
  /** A 204 is an answer ("not yet"), not a malformed body: `data` is then undefined and `status` says 204. */
  allowNoContent?: boolean;
  /** Follow redirects (GET only); a hop to another origin never carries the token (http.ts). Default 3. */
  maxRedirects?: number;
}

export interface ApiResult<T> {
  status: number;
  headers: Record<string, string>;
  data: T;
}

/** A request outside the JSON:API (pre-signed upload and log URLs): no token, no JSON, its own content type. */
export interface RawCall {
  operation: OperationName;
  method: HttpMethod;
  url: URL;
  headers?: Record<string, string>;
  body?: Uint8Array | string;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface RequesterOptions {
  transport: HttpTransport;
  limiter: RateLimiter;
  clock: Clock;
  retry: RetryOptions;
  /** Absolute base of the API, e.g. `https://app.terraform.io/api/v2`. */
  apiBase: URL;
  token: string;
  timeoutMs: number;
  /**
   * The most a call may take in all, rate-limit waits and retries included (#14: sustained 429s once held a
   * request for 331 s). Past it the call fails with what to do instead of waiting on.
   */
  deadlineMs: number;
  /** Hears of every wait before a request (rate limit or retry backoff), so the user can be told instead of a spinner. */
  onWait?: (wait: RequestWait) => void;
}

/** A wait before (re)sending a request. */
export interface RequestWait {
  operation: OperationName;
  /**
   * Why it waits, as it truly is (a notice blaming the service's rate limit while the service was down misled):
   * 'paced': the client spacing its own requests to stay under the service's limits (no 429 involved);
   * 'rate-limited': the service answered 429; 'unreachable': no connection could be made or it broke;
   * 'timed-out': no answer in time; 'server-error': a 5xx answer (`status`).
   */
  reason: WaitReason;
  waitMs: number;
  /** For 'server-error': the status the service answered. */
  status?: number;
}

export type WaitReason = 'paced' | 'rate-limited' | 'unreachable' | 'timed-out' | 'server-error';

interface RawExchange {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export class Requester {
  private readonly inFlight = new InFlightRequests<RawExchange>();

  constructor(private readonly options: RequesterOptions) {}

  /** Performs an API operation and returns its validated body (undefined when no schema was given). */
  async call<T = undefined>(call: ApiCall<T>): Promise<ApiResult<T>> {
    const url = call.url ?? this.urlFor(call.path ?? '/', call.query);
    if (url.origin !== this.options.apiBase.origin) {
      throw new MalformedResponseError(
        `Could not ${operationLabels[call.operation]}: the service pointed to another host (${url.origin}).`,
        call.operation,
        0,
        `a link leads to ${url.origin} instead of ${this.options.apiBase.origin}`,
      );
    }
    const bucket = call.bucket ?? 'general';
    const isRead = call.method === 'GET';
    // A call given a longer timeout of its own (an upload) gets at least that long in all.
    const deadline = this.options.clock.now() + Math.max(this.options.deadlineMs, call.timeoutMs ?? 0);
    const send = (signal: AbortSignal | undefined) =>
      this.withRetries(call.operation, isRead, signal, deadline, async (attemptSignal) => {
        await this.acquire(call.operation, bucket, attemptSignal, deadline);
        const response = await this.options.transport.send({
          method: call.method,
          url,
          headers: this.jsonApiHeaders(call.method),
          body: call.body === undefined ? undefined : JSON.stringify(call.body),
          authenticate: true,
          timeoutMs: this.attemptTimeout(call.timeoutMs, deadline),
          signal: attemptSignal,
          operation: call.operation,
          ...(call.maxRedirects !== undefined ? { maxRedirects: call.maxRedirects } : {}),
        });
        this.options.limiter.observe(bucket, response.headers);
        return response;
      });
    // Identical GETs in flight share one exchange (with the shared signal, aborted only when every caller left);
    // each caller still validates the body with its own schema.
    if (isRead) return this.interpret(call, await this.inFlight.run(`${bucket} ${url.href}`, call.signal, send));
    try {
      return this.interpret(call, await send(call.signal));
    } catch (error) {
      throw error instanceof ApiError ? markUncertainWrite(error, call.operation) : error;
    }
  }

  /** A pre-signed URL (upload, log): never authenticated, retried only when it is a read. */
  async raw(call: RawCall): Promise<HttpResponse> {
    try {
      return await this.rawOnce(call);
    } catch (error) {
      throw call.method !== 'GET' && error instanceof ApiError ? markUncertainWrite(error, call.operation) : error;
    }
  }

  private async rawOnce(call: RawCall): Promise<HttpResponse> {
    const deadline = this.options.clock.now() + Math.max(this.options.deadlineMs, call.timeoutMs ?? 0);
    const response = await this.withRetries(call.operation, call.method === 'GET', call.signal, deadline, (signal) =>
      this.options.transport.send({
        method: call.method,
        url: call.url,
        headers: call.headers,
        body: call.body,
        authenticate: false,
        timeoutMs: this.attemptTimeout(call.timeoutMs, deadline),
        signal,
        operation: call.operation,
      }),
    );
    if (response.status >= 400) throw this.serviceError(call.operation, response);
    return response;
  }

  urlFor(path: string, query?: QueryParams): URL {
    const base = this.options.apiBase;
    return new URL(base.pathname.replace(/\/$/, '') + path + buildQuery(query), base.origin);
  }

  private jsonApiHeaders(method: HttpMethod): Record<string, string> {
    // The service answers 415 to a write without the JSON:API Content-Type, even when it has no body.
    return method === 'GET' ? { accept: jsonApiMediaType } : { accept: jsonApiMediaType, 'content-type': jsonApiMediaType };
  }

  /** The limiter's wait, told to onWait and bounded by the call's deadline (then a RateLimitedError saying when to retry). */
  private async acquire(operation: OperationName, bucket: RateBucket, signal: AbortSignal | undefined, deadline: number): Promise<void> {
    try {
      await this.options.limiter.acquire(bucket, signal, {
        deadline,
        onWait: (waitMs) => this.options.onWait?.({ operation, reason: 'paced', waitMs }),
      });
    } catch (error) {
      if (!(error instanceof LimiterDeadlineError)) throw error;
      const seconds = Math.max(1, Math.ceil(error.waitMs / 1000));
      throw new RateLimitedError(
        `Could not ${operationLabels[operation]}: the editor is holding requests to stay within the service's rate limits. Try again in ${seconds} s.`,
        operation,
        0,
        error.waitMs,
      );
    }
  }

  /** Each attempt's timeout, never past the call's deadline. */
  private attemptTimeout(timeoutMs: number | undefined, deadline: number): number {
    return Math.max(1, Math.min(timeoutMs ?? this.options.timeoutMs, deadline - this.options.clock.now()));
  }

  private async withRetries<R extends RawExchange>(
    operation: OperationName,
    isRead: boolean,
    signal: AbortSignal | undefined,
    deadline: number,
    attemptOnce: (signal: AbortSignal | undefined) => Promise<R>,
  ): Promise<R> {
    for (let attempt = 1; ; attempt++) {
      let outcome: AttemptOutcome;
      let response: R | undefined;
      try {
        response = await attemptOnce(signal);
        outcome = { kind: 'response', status: response.status, headers: response.headers };
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        outcome = { kind: 'error', error };
      }
      let decision = decideRetry(outcome, { isRead, attempt, options: this.options.retry });
      // A retry that could only start after the deadline is not waited for: the last outcome is the answer.
      if (decision.retry && this.options.clock.now() + decision.delayMs > deadline) decision = { retry: false };
      if (!decision.retry) {
        if (outcome.kind === 'error') throw outcome.error;
        if (response!.status === 429) throw this.rateLimitedError(operation, attempt, response!.headers);
        return response!;
      }
      this.options.onWait?.({ operation, ...waitCause(outcome), waitMs: decision.delayMs });
      await this.options.clock.sleep(decision.delayMs, signal);
    }
  }

  private interpret<T>(call: ApiCall<T>, raw: RawExchange): ApiResult<T> {
    if (raw.status < 200 || raw.status >= 300) throw this.serviceError(call.operation, raw, call.secrets);
    if (!call.schema || (raw.status === 204 && call.allowNoContent)) return { status: raw.status, headers: raw.headers, data: undefined as T };
    const label = operationLabels[call.operation];
    const malformed = (problem: string) =>
      new MalformedResponseError(
        `Could not ${label}: the service sent an unexpected response (${problem}).`,
        call.operation,
        raw.status,
        problem,
      );
    if (raw.body.length === 0) throw malformed(`status ${raw.status} with an empty body`);
    let json: unknown;
    try {
      json = JSON.parse(raw.body.toString('utf8'));
    } catch {
      // Not the parser's message: V8 quotes the start of the body in it, and a body may hold a secret (a generated
      // token, a sensitive value echoed back) that no error message may carry, not even in part.
      throw malformed(`the body is not valid JSON (${raw.body.length} bytes)`);
    }
    const parsed = call.schema.safeParse(json);
    if (!parsed.success) throw malformed(this.redact(describeIssues(parsed.error.issues), call.secrets));
    return { status: raw.status, headers: raw.headers, data: parsed.data };
  }

  private serviceError(operation: OperationName, raw: RawExchange, secrets: readonly string[] = []): ServiceError {
    const errors = parseErrorObjects(raw.body).map((error) => ({
      ...error,
      title: error.title === undefined ? undefined : this.redact(error.title, secrets),
      detail: error.detail === undefined ? undefined : this.redact(error.detail, secrets),
    }));
    const first = errors[0];
    const title = first?.title ?? statusText(raw.status);
    const detail = first?.detail;
    const meaning = meaningOf(operation, raw.status);
    const said = detail && detail !== title ? `${title}: ${detail}` : title;
    const message = `Could not ${operationLabels[operation]}: ${meaning} (${raw.status} ${said}).`;
    return new ServiceError(message, operation, raw.status, title, detail, meaning, errors);
  }

  private rateLimitedError(operation: OperationName, attempts: number, headers: Record<string, string>): RateLimitedError {
    const waitMs = rateLimitWaitMs(headers, this.options.clock.now());
    const when = waitMs === undefined ? 'in a moment' : `in ${Math.max(1, Math.ceil(waitMs / 1000))} s`;
    return new RateLimitedError(
      `Could not ${operationLabels[operation]}: the service is rate limiting this token (still 429 after ${attempts} attempts). Try again ${when}.`,
      operation,
      attempts,
      waitMs,
    );
  }

  private redact(text: string, secrets: readonly string[] = []): string {
    return redactSecrets(text, [this.options.token, ...secrets]);
  }
}

/** Why a retry waits, from the attempt it follows (only 429s, 5xx, network errors and timeouts are retried). */
function waitCause(outcome: AttemptOutcome): Pick<RequestWait, 'reason' | 'status'> {
  if (outcome.kind === 'response') return outcome.status === 429 ? { reason: 'rate-limited' } : { reason: 'server-error', status: outcome.status };
  return outcome.error.kind === 'timeout' ? { reason: 'timed-out' } : { reason: 'unreachable' };
}

/** Reads JSON:API error objects, or the older list of strings; anything else gives no objects (the status still speaks). */
function parseErrorObjects(body: Buffer): ServiceErrorObject[] {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return [];
  }
  const parsed = errorDocumentSchema.safeParse(json);
  if (!parsed.success) return [];
  return parsed.data.errors.map((error) => {
    if (typeof error === 'string') return { title: error };
    const status = error.status === null || error.status === undefined ? undefined : Number(error.status);
    return {
      status: Number.isFinite(status) ? status : undefined,
      title: error.title ?? undefined,
      detail: error.detail ?? undefined,
      pointer: error.source?.pointer ?? undefined,
    };
  });
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(document)';
    return `${path}: ${issue.message}`;
  });
  const more = issues.length > 3 ? ` and ${issues.length - 3} more problem(s)` : '';
  return shown.join('; ') + more;
}

function statusText(status: number): string {
  const texts: Record<number, string> = {
    400: 'bad request', 401: 'unauthorized', 403: 'forbidden', 404: 'not found', 409: 'conflict',
    415: 'unsupported media type', 422: 'unprocessable entity', 429: 'too many requests',
    500: 'internal server error', 502: 'bad gateway', 503: 'service unavailable', 504: 'gateway timeout',
  };
  return texts[status] ?? `HTTP ${status}`;
}

/** Per-call options every operation accepts. */
export interface CallOptions {
  /** Cancels the call (and any wait before a retry); the promise rejects with a CancelledError. */
  signal?: AbortSignal;
  /** Overrides the client's default timeout for this call. */
  timeoutMs?: number;
}
