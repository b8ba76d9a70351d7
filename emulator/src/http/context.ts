// What a route handler receives and what it returns. Handlers return data (never touch the socket), so the
// server can apply faults, rate-limit headers and logging uniformly, and tests can call handlers directly.
import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../store/caller';
import type { Store } from '../store/store';

export interface RequestContext {
  method: string;
  /** Path without the query, percent-encoding as received, e.g. `/api/v2/workspaces/ws-1`. */
  path: string;
  /** Absolute URL as the client addressed it (host header), for the absolute links of list documents. */
  url: URL;
  /** Query parameters with brackets decoded: `page%5Bsize%5D=5` reads as `page[size]`. */
  query: URLSearchParams;
  /** Decoded `:name` segments of the matched route. */
  params: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (undefined when the request had none); raw bytes are in rawBody. */
  body: unknown;
  rawBody: Buffer;
  store: Store;
  /** null only on public routes (ping, discovery, uploads). */
  caller: Caller | null;
}

/** The context of a route that requires a token: the server answers 401 before the handler otherwise. */
export interface AuthedContext extends RequestContext {
  caller: Caller;
}

export interface ApiResponse {
  status: number;
  /** Serialized as JSON with the JSON:API media type unless `raw` is given. */
  body?: unknown;
  raw?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export type Handler<C extends RequestContext = AuthedContext> = (ctx: C) => ApiResponse | Promise<ApiResponse>;

export const ok = (body: unknown): ApiResponse => ({ status: 200, body });
export const created = (body: unknown): ApiResponse => ({ status: 201, body });
/** Run actions: 202 and no body (spec §4.2). */
export const accepted = (): ApiResponse => ({ status: 202 });
export const noContent = (): ApiResponse => ({ status: 204 });
