/**
 * One HTTP exchange with the service or with a pre-signed storage URL, over undici with keep-alive (one Pool per
 * origin). This layer owns the headers that must be right on every request: the User-Agent, and the bearer token
 * — attached ONLY when the target is the origin the client was built for, so neither a redirect nor a pre-signed
 * `log-read-url`/`upload-url` on another host ever sees it. Retries, rate limits and JSON live above this layer.
 */
import type { Pool } from 'undici';
import { ApiError, CancelledError, MalformedResponseError, NetworkError, TimeoutError, redactSecrets } from './errors';
import type { OperationName } from './operations';
import { operationLabels } from './operations';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface HttpRequest {
  method: HttpMethod;
  url: URL;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send the bearer token (still only if `url` is on the client's origin). Pre-signed URLs pass false. */
  authenticate: boolean;
  timeoutMs: number;
  signal?: AbortSignal;
  operation?: OperationName;
  /** Follow up to this many redirects (GET only); the token is dropped on any hop to another origin. */
  maxRedirects?: number;
}

export interface HttpResponse {
  status: number;
  /** Lower-cased header names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  body: Buffer;
  /** Where the final response came from (after redirects). */
  url: URL;
}

export interface HttpExchangeRecord {
  method: HttpMethod;
  /** Path and query on the service's origin; only the origin for other hosts (pre-signed URLs are secrets). */
  target: string;
  status?: number;
  errorKind?: string;
  durationMs: number;
}

export interface HttpTransportOptions {
  /** The service origin, e.g. `https://app.terraform.io`. */
  origin: string;
  token: string;
  userAgent: string;
  /** Keep-alive sockets per origin. */
  connections?: number;
  keepAliveTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Largest response body accepted, to protect the editor from a runaway server. */
  maxResponseBytes?: number;
  /** Certificate authorities to trust instead of Node's defaults (trustedCertificates.ts). */
  ca?: string[];
  /** Called once per exchange, for logs. Never given the token, bodies or pre-signed paths. */
  onExchange?: (record: HttpExchangeRecord) => void;
}

/**
 * Codes that prove the request never left this machine (no connection was ever made), so resending it cannot
 * duplicate a write. A reset or closed socket after connecting (ECONNRESET, UND_ERR_SOCKET) proves nothing.
 */
const notSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

const defaultMaxResponseBytes = 32 * 1024 * 1024;

export class HttpTransport {
  private readonly pools = new Map<string, Pool>();
  private readonly origin: string;
  private closed = false;

  constructor(private readonly options: HttpTransportOptions) {
    this.origin = new URL(options.origin).origin;
  }

  get serviceOrigin(): string {
    return this.origin;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    let current = request;
    const maxRedirects = request.method === 'GET' ? (request.maxRedirects ?? 3) : 0;
    for (let hop = 0; ; hop++) {
      const response = await this.exchange(current);
      const location = response.headers['location'];
      if (response.status < 300 || response.status >= 400 || !location || hop >= maxRedirects) return response;
      // The next hop gets the token only if it is on our origin: exchange() decides that from the URL.
      current = { ...current, url: new URL(location, current.url) };
    }
  }

  /** Closes every keep-alive connection. Requests after this fail. */
  async close(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.close().catch(() => undefined)));
  }

  /**
   * Closes at once, for shutdown: requests in flight fail instead of being waited for (close() waits for them,
   * which against a service that never answers meant the editor's shutdown waited out the 30 s timeout).
   */
  async destroy(): Promise<void> {
    this.closed = true;
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((pool) => pool.destroy().catch(() => undefined)));
  }

  private pool(origin: string): Pool {
    // undici is loaded by the first request, not at the server's start: evaluating it takes ~70 ms, which a server
    // with no service to talk to (an editor without a token, a folder that links to no workspace) never needs.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Pool } = require('undici') as typeof import('undici');
    let pool = this.pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.options.connections ?? 6,
        keepAliveTimeout: this.options.keepAliveTimeoutMs ?? 30_000,
        connect: { timeout: this.options.connectTimeoutMs ?? 10_000, ...(this.options.ca ? { ca: this.options.ca } : {}) },
        // Our own timer (below) bounds the whole exchange; undici's per-phase timers would only race it.
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }

  private headersFor(request: HttpRequest): Record<string, string> {
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent };
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    delete headers['authorization'];
    if (request.authenticate && request.url.origin === this.origin) {
      headers['authorization'] = `Bearer ${this.options.token}`;
    }
    return headers;
  }

  private async exchange(request: HttpRequest): Promise<HttpResponse> {
    const started = Date.now();
    const label = request.operation ? operationLabels[request.operation] : `${request.method} a resource`;
    if (request.signal?.aborted) throw new CancelledError(`trying to ${label}`, request.operation);
    if (this.closed) {
      throw new NetworkError(`Could not ${label}: the connection to the service was closed.`, request.operation, 'CLOSED', false);
    }
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout.signal]) : timeout.signal;
    const record = (fields: Partial<HttpExchangeRecord>) =>
      this.options.onExchange?.({ method: request.method, target: this.describeTarget(request.url), durationMs: Date.now() - started, ...fields });
    try {
      const response = await this.pool(request.url.origin).request({
        method: request.method,
        path: request.url.pathname + request.url.search,
        headers: this.headersFor(request),
        body: request.body,
        signal,
      });
      const body = await this.readBody(response.body, response.statusCode, label, request.operation);
      record({ status: response.statusCode });
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body, url: request.url };
    } catch (error) {
      const mapped = this.mapError(error, request, label, timeout.signal.aborted);
      record({ errorKind: mapped.kind });
      throw mapped;
    } finally {
      clearTimeout(timer);
    }
  }

  private async readBody(
    body: AsyncIterable<Buffer>,
    status: number,
    label: string,
    operation: OperationName | undefined,
  ): Promise<Buffer> {
    const limit = this.options.maxResponseBytes ?? defaultMaxResponseBytes;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.length;
      if (size > limit) {
        // Not a network failure to retry: the same request would bring the same oversized answer.
        const problem = `the response is larger than ${limit} bytes`;
        throw new MalformedResponseError(`Could not ${label}: ${problem}.`, operation, status, problem);
      }
      chunks.push(chunk);
    }
    return Buffer.concat(chunks);
  }

  private mapError(error: unknown, request: HttpRequest, label: string, timedOut: boolean): ApiError {
    if (error instanceof ApiError) return error;
    if (timedOut) {
      return new TimeoutError(
        `Could not ${label}: the service did not answer within ${formatSeconds(request.timeoutMs)}.`,
        request.operation,
        request.timeoutMs,
      );
    }
    if (request.signal?.aborted) return new CancelledError(`trying to ${label}`, request.operation);
    const code = errorCode(error);
    const reason = redactSecrets(describeNetworkFailure(code, error), [this.options.token]);
    return new NetworkError(
      `Could not ${label}: ${reason} (${request.url.origin}). Check the address and your network connection.`,
      request.operation,
      code,
      !(code && notSentCodes.has(code)),
    );
  }

  private describeTarget(url: URL): string {
    return url.origin === this.origin ? url.pathname + url.search : `${url.origin}/…`;
  }
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** undici puts the system error code on the error itself or on its `cause`. */
function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describeNetworkFailure(code: string | undefined, error: unknown): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'the connection was refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be resolved';
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'connecting timed out';
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before the answer arrived';
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `a network error occurred (${code ?? message})`;
    }
  }
}

function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}
