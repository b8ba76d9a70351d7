/**
 * The service API client the language server uses: one instance per (address, token), composing the transport,
 * the rate limiter, the retry policy and one API object per group of operations.
 *
 *   const client = new ServiceClient({ address: 'https://app.terraform.io', token });
 *   const run = await client.runs.create({ workspaceId, message: 'From the editor' });
 *   for await (const run of iterateItems(client.runs.workspacePages(workspaceId))) ...
 */
import { serverVersion } from '../version';
import { AccountApi } from './account';
import { ChangeRequestsApi } from './changeRequests';
import { realClock } from './clock';
import type { Clock } from './clock';
import { ConfigurationVersionsApi } from './configurationVersions';
import { HttpTransport } from './http';
import type { HttpExchangeRecord } from './http';
import { OrganizationApi } from './organization';
import { PhasesApi } from './phases';
import { PlanOutputApi } from './planOutput';
import { RateLimiter } from './rateLimiter';
import type { RateBucket, RateWindow } from './rateLimiter';
import { Requester } from './requester';
import type { RequestWait } from './requester';
import { defaultRetryOptions } from './retry';
import type { RetryOptions } from './retry';
import { RunsApi } from './runs';
import { VariablesApi } from './variables';
import { WorkspacesApi } from './workspaces';

export const defaultUserAgent = `hcp-terraform-runs/${serverVersion}`;

export interface ServiceClientOptions {
  /** The service address, e.g. `https://app.terraform.io` (a path prefix is kept; `/api/v2` is added). */
  address: string;
  /** API token: user, team or organization. Sent only to `address`'s origin, never logged. */
  token: string;
  userAgent?: string;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
  /** Keep-alive connections per origin (default 6). */
  connections?: number;
  keepAliveTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Certificate authorities to trust (a private CA): see trustedCertificates.ts. */
  ca?: string[];
  /** Largest response body accepted (default 32 MiB). */
  maxResponseBytes?: number;
  retry?: Partial<RetryOptions>;
  /** Client-side limits; the defaults are the service's (30/s overall, 30/min for run lists). */
  rateLimits?: { general?: RateWindow; runList?: RateWindow; margin?: number };
  /** Time source for rate limiting and backoff; tests inject one they drive by hand. */
  clock?: Clock;
  /** One record per HTTP exchange, for an output channel; carries no token, body or pre-signed path. */
  onExchange?: (record: HttpExchangeRecord) => void;
  /** The most one call may take, rate-limit waits and retries included (default 90 s: one run-list window, 63 s, fits). */
  deadlineMs?: number;
  /** Hears of each wait before a request (rate limit, retry backoff): tell the user rather than show a spinner. */
  onWait?: (wait: RequestWait) => void;
}

export class ServiceClient {
  readonly address: URL;
  readonly runs: RunsApi;
  readonly workspaces: WorkspacesApi;
  readonly variables: VariablesApi;
  readonly changeRequests: ChangeRequestsApi;
  readonly organization: OrganizationApi;
  readonly configurationVersions: ConfigurationVersionsApi;
  readonly phases: PhasesApi;
  /** Finished plans' JSON (cached by plan id). */
  readonly planOutput: PlanOutputApi;
  readonly account: AccountApi;
  private readonly transport: HttpTransport;
  private readonly limiter: RateLimiter;

  constructor(options: ServiceClientOptions) {
    this.address = parseAddress(options.address);
    if (typeof options.token !== 'string' || options.token.trim().length === 0) {
      throw new TypeError('An API token is required: sign in to create one.');
    }
    const clock = options.clock ?? realClock;
    this.transport = new HttpTransport({
      origin: this.address.origin,
      token: options.token,
      userAgent: options.userAgent ?? defaultUserAgent,
      connections: options.connections,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs,
      connectTimeoutMs: options.connectTimeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      ...(options.ca ? { ca: options.ca } : {}),
      onExchange: options.onExchange,
    });
    this.limiter = new RateLimiter({ clock, ...options.rateLimits });
    const requester = new Requester({
      transport: this.transport,
      limiter: this.limiter,
      clock,
      retry: { ...defaultRetryOptions, ...options.retry },
      apiBase: new URL(`${this.address.pathname.replace(/\/$/, '')}/api/v2`, this.address.origin),
      token: options.token,
      timeoutMs: options.timeoutMs ?? 30_000,
      deadlineMs: options.deadlineMs ?? 90_000,
      ...(options.onWait ? { onWait: options.onWait } : {}),
    });
    this.runs = new RunsApi(requester);
    this.workspaces = new WorkspacesApi(requester);
    this.variables = new VariablesApi(requester);
    this.changeRequests = new ChangeRequestsApi(requester);
    this.organization = new OrganizationApi(requester);
    this.configurationVersions = new ConfigurationVersionsApi(requester, clock);
    this.phases = new PhasesApi(requester, clock);
    this.planOutput = new PlanOutputApi(requester);
    this.account = new AccountApi(requester);
  }

  /**
   * How long background work should hold off a request to `bucket` (0: it may go now): while the rate limit has no
   * room, or other requests already wait for it. Background work asks first, so that it never queues behind the
   * limit, nor takes a freed slot from what a user is waiting for.
   */
  backgroundDelay(bucket: RateBucket): number {
    return this.limiter.backgroundDelay(bucket);
  }

  /** Closes the keep-alive connections. */
  close(): Promise<void> {
    return this.transport.close();
  }

  /** Closes at once, failing any request in flight (shutdown never waits for a service that does not answer). */
  destroy(): Promise<void> {
    return this.transport.destroy();
  }
}

/** Accepts `https://host`, `https://host/`, `http://127.0.0.1:8080`; a bad value gets a message saying what to enter. */
function parseAddress(address: string): URL {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new TypeError(`"${address}" is not a service address: enter a URL such as https://app.terraform.io`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`"${address}" is not a service address: it must start with https:// (or http:// for a local emulator).`);
  }
  if (url.username || url.password) {
    throw new TypeError('The service address must not contain a user name or password: sign in with a token instead.');
  }
  url.search = '';
  url.hash = '';
  // People paste the API base itself; the client adds /api/v2, so it must not be there twice.
  url.pathname = url.pathname.replace(/\/api\/v2\/?$/, '/');
  return url;
}
