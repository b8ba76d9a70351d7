// The request pipeline: control API → faults → caller → rate limit → route → 401/415 → handler → response.
// Handlers return data; only this file writes to sockets, so faults and headers apply to every route alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Caller } from '../store/caller';
import type { Store } from '../store/store';
import type { ApiResponse, RequestContext } from './context';
import { resolveCaller, touchToken } from './auth';
import { ApiError, badRequest, errorDocument, notFound, unauthorized, unsupportedMediaType } from './errors';
import type { FaultInjector, FaultSpec } from './faults';
import { isJsonApiContentType, jsonApiMediaType, needsJsonApiContentType } from './mediaType';
import { tooManyRequestsBody, type RateLimiter } from './rateLimit';
import type { RequestLog } from './requestLog';
import { requestUrl, type OriginSettings } from './publicOrigin';
import type { Router } from './router';

export interface PipelineDeps {
  store: Store;
  router: Router;
  rateLimiter: RateLimiter;
  faults: FaultInjector;
  log: RequestLog;
  /** Answers `/_emulator/…` (already restricted to loopback peers by the pipeline). */
  control: (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void>;
  /** Headers on every API response (TFP-API-Version, TFP-AppName, …). */
  serviceHeaders: Record<string, string>;
  /** Where absolute URLs point (publicOrigin.ts); default: plain http on the Host addressed. */
  origin?: OriginSettings;
}

const maxBodyBytes = 20 * 1024 * 1024;
const apiPrefix = '/api/v2/';

export function createPipeline(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      // Last resort: the pipeline itself failed. Answer 500 without internals; never crash the process.
      console.error('[emulator] request failed:', error instanceof Error ? error.message : String(error));
      if (!res.headersSent) sendJson(res, 500, errorDocument(new ApiError(500, 'internal server error')), {});
      else res.destroy();
    });
  };
}

async function handle(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  // Read before the body: giving up on a too-large body destroys the request, and its socket with it.
  const peer = req.socket.remoteAddress;
  const url = requestUrl(req, deps.origin ?? { tls: false }, isLoopback(peer));
  const rawPath = (req.url ?? '/').split('?')[0];
  const pathWithQuery = req.url ?? '/';
  const body = await readBody(req);

  if (rawPath.startsWith('/_emulator/') || rawPath === '/_emulator') {
    if (!isLoopback(peer)) return void sendJson(res, 404, errorDocument(notFound()), {});
    if (body === 'too-large') return void sendJson(res, 413, errorDocument(new ApiError(413, 'payload too large')), { Connection: 'close' });
    return deps.control(req, res, body);
  }

  const caller = resolveCaller(deps.store, req.headers.authorization);
  const record = (status: number, fault?: FaultSpec) =>
    deps.log.record({
      time: deps.store.now().toISOString(),
      method,
      path: pathWithQuery,
      status,
      ...(caller?.token.role ? { tokenRole: caller.token.role } : {}),
      ...(fault ? { fault: fault.kind } : {}),
    });

  const fault = deps.faults.take(method, rawPath);
  if (fault?.kind === 'latency') await delay(fault.latencyMs ?? 0);
  const failsBefore = fault && (fault.kind === 'reset' || fault.kind === 'status' || fault.kind === 'html') && fault.beforeHandling !== false;
  if (failsBefore && fault.kind === 'reset') {
    record(0, fault);
    return void req.socket.destroy();
  }

  const isApi = rawPath.startsWith(apiPrefix) || rawPath === '/api/v2';
  const match = deps.router.match(method, rawPath);
  let headers: Record<string, string> = {};
  if (isApi) {
    const verdict = deps.rateLimiter.take(match?.route.rateLimit ?? 'default', rateIdentity(caller, peer));
    headers = { ...deps.serviceHeaders, ...verdict.headers, 'X-Request-Id': randomUUID(), 'Cache-Control': 'no-cache' };
    if (fault?.kind === 'rate-limit' || !verdict.allowed) {
      if (fault?.kind === 'rate-limit') headers['X-RateLimit-Remaining'] = '0';
      record(429, fault?.kind === 'rate-limit' ? fault : undefined);
      return void sendJson(res, 429, tooManyRequestsBody, headers);
    }
  }
  if (failsBefore && fault.kind === 'status') {
    record(fault.status!, fault);
    return void sendJson(res, fault.status!, errorDocument(statusFaultError(fault.status!)), headers);
  }
  if (failsBefore && fault.kind === 'html') return void sendHtmlFault(res, fault, record);

  let response: ApiResponse;
  try {
    if (body === 'too-large') {
      // The rest of the body was never read, so this connection cannot carry another request.
      headers = { ...headers, Connection: 'close' };
      throw new ApiError(413, 'payload too large', `Request bodies are limited to ${maxBodyBytes} bytes.`);
    }
    if (!match) throw notFound();
    if (match.route.requiresAuth && !caller) throw unauthorized();
    if (isApi && needsJsonApiContentType(method) && !isJsonApiContentType(req.headers['content-type'])) throw unsupportedMediaType();
    if (caller) touchToken(deps.store, caller);
    const ctx: RequestContext = {
      method,
      path: rawPath,
      url,
      query: url.searchParams,
      params: match.params,
      headers: req.headers,
      body: parseJsonBody(body, req.headers['content-type'], match.route.unparseableBodyStatus),
      rawBody: body,
      store: deps.store,
      caller,
    };
    response = await match.route.handler(ctx);
  } catch (error) {
    response = errorResponse(error);
  }

  if (fault && !failsBefore) {
    if (fault.kind === 'reset') {
      record(0, fault);
      return void req.socket.destroy();
    }
    if (fault.kind === 'status') response = { status: fault.status!, body: errorDocument(statusFaultError(fault.status!)) };
    if (fault.kind === 'html') return void sendHtmlFault(res, fault, record);
    // Valid JSON, but nothing the API promises: every schema the client has must refuse it.
    if (fault.kind === 'wrong-shape') response = { ...response, raw: undefined, body: { data: { id: 42, type: null, attributes: 'unexpected' } } };
  }
  const bytes = responseBytes(response);
  const allHeaders = { ...headers, ...response.headers };
  if (bytes) allHeaders['Content-Type'] = response.contentType ?? jsonApiMediaType;

  if (fault?.kind === 'truncate' && bytes && bytes.length > 1) {
    // Announce the full length, send half, then cut the connection: the client sees a body that ends early.
    record(response.status, fault);
    res.writeHead(response.status, { ...allHeaders, 'Content-Length': String(bytes.length) });
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
    return;
  }
  if (fault?.kind === 'malformed') {
    const broken = Buffer.from('{"data": [{"id": "mal', 'utf8');
    record(response.status, fault);
    res.writeHead(response.status, { ...allHeaders, 'Content-Type': jsonApiMediaType, 'Content-Length': String(broken.length) });
    return void res.end(broken);
  }
  record(response.status, fault?.kind === 'status' || fault?.kind === 'latency' || fault?.kind === 'wrong-shape' ? fault : undefined);
  res.writeHead(response.status, bytes ? { ...allHeaders, 'Content-Length': String(bytes.length) } : allHeaders);
  res.end(bytes ?? undefined);
}

/** What a load balancer in front of the service answers when the service behind it fails: HTML, not JSON:API. */
function sendHtmlFault(res: ServerResponse, fault: FaultSpec, record: (status: number, fault?: FaultSpec) => void): void {
  const status = fault.status ?? 502;
  const titles: Record<number, string> = { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out' };
  const title = `${status} ${titles[status] ?? 'Error'}`;
  const page = Buffer.from(`<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>\n`, 'utf8');
  record(status, fault);
  res.writeHead(status, { 'Content-Type': 'text/html', 'Content-Length': String(page.length) });
  res.end(page);
}

function statusFaultError(status: number): ApiError {
  const titles: Record<number, string> = { 500: 'internal server error', 502: 'bad gateway', 503: 'service unavailable', 504: 'gateway timeout' };
  return new ApiError(status, titles[status] ?? 'error', 'Injected by the emulator (fault).');
}

function errorResponse(error: unknown): ApiResponse {
  if (error instanceof ApiError) return { status: error.status, body: errorDocument(error) };
  console.error('[emulator] handler failed:', error instanceof Error ? error.stack ?? error.message : String(error));
  return { status: 500, body: errorDocument(new ApiError(500, 'internal server error')) };
}

function responseBytes(response: ApiResponse): Buffer | undefined {
  if (response.raw) return response.raw;
  if (response.body === undefined) return undefined;
  return Buffer.from(JSON.stringify(response.body), 'utf8');
}

function parseJsonBody(body: Buffer, contentType: string | undefined, unparseableStatus: 400 | 422): unknown {
  if (body.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== jsonApiMediaType && type !== 'application/json') return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    if (unparseableStatus === 422) throw new ApiError(422, 'invalid request body', 'The request body is not valid JSON.');
    throw badRequest('The request body is not valid JSON.');
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Rate limits count per user (all tokens of a user share it), per team, per organization token, else per peer. */
function rateIdentity(caller: Caller | null, peer: string | undefined): string {
  if (!caller) return `peer:${peer ?? 'unknown'}`;
  if (caller.kind === 'user') return `user:${caller.user.id}`;
  if (caller.kind === 'team') return `team:${caller.team.id}`;
  return `organization:${caller.organization}`;
}

export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1' || (address?.startsWith('127.') ?? false);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { ...headers, 'Content-Type': jsonApiMediaType, 'Content-Length': String(bytes.length) });
  res.end(bytes);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
