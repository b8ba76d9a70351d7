// The HTTP face of EmulatorControl under /_emulator/ (loopback peers only, checked by the pipeline; no auth).
//   POST   /_emulator/clock/advance {"ms": N}   → 200 {"now": iso}
//   GET    /_emulator/clock                     → 200 {"now": iso, "mode": "real"|"manual"}
//   POST   /_emulator/faults  FaultSpec JSON    → 201 (a RegExp path as {"pathPattern": "..."})
//   DELETE /_emulator/faults                    → 204
//   GET    /_emulator/requests                  → 200 [RequestLogEntry…]
//   GET    /_emulator/notifications             → 200 [NotificationRecord…]
//   POST   /_emulator/reset                     → 204
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FaultSpec } from './faults';
import type { RequestLogEntry } from './requestLog';
import type { NotificationRecord } from '../store/model';

/** The in-process control surface this API exposes (EmulatorControl in index.ts satisfies it). */
export interface ControlSurface {
  advance(ms: number): Promise<void>;
  now(): Date;
  clockMode(): string;
  injectFault(fault: FaultSpec): void;
  clearFaults(): void;
  requests(): RequestLogEntry[];
  notifications(): NotificationRecord[];
  reset(): Promise<void>;
}

/** One advance may move the clock this far: beyond it the timers it replays (demo pushes, runs) would spin for minutes. */
export const maxAdvanceMs = 7 * 24 * 60 * 60 * 1000;

export function createControlHandler(control: ControlSurface) {
  return async (req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> => {
    const method = (req.method ?? 'GET').toUpperCase();
    // Loopback peers only (the pipeline checks the socket); a browser on this machine is a loopback peer too, so a
    // web page must not reach it either: by DNS rebinding (a Host that is not loopback) or a cross-site request.
    const refused = browserRefusal(req);
    if (refused) return send(res, 403, { error: refused });
    const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
    try {
      const route = `${method} ${path}`;
      switch (route) {
        case 'POST /_emulator/clock/advance': {
          const input = parseJson(body) as { ms?: unknown };
          if (typeof input?.ms !== 'number' || !Number.isFinite(input.ms) || input.ms < 0 || input.ms > maxAdvanceMs) {
            return send(res, 400, { error: `Send {"ms": <milliseconds from 0 to ${maxAdvanceMs} (7 days)>}; advance again for more.` });
          }
          await control.advance(input.ms);
          return send(res, 200, { now: control.now().toISOString() });
        }
        case 'GET /_emulator/clock':
          return send(res, 200, { now: control.now().toISOString(), mode: control.clockMode() });
        case 'POST /_emulator/faults':
          control.injectFault(faultFromJson(parseJson(body)));
          return send(res, 201, { ok: true });
        case 'DELETE /_emulator/faults':
          control.clearFaults();
          return send(res, 204);
        case 'GET /_emulator/requests':
          return send(res, 200, control.requests());
        case 'GET /_emulator/notifications':
          return send(res, 200, control.notifications());
        case 'POST /_emulator/reset':
          await control.reset();
          return send(res, 204);
        default:
          return send(res, 404, { error: `No control endpoint ${route}. See emulator/README.md.` });
      }
    } catch (error) {
      send(res, 400, { error: error instanceof Error ? error.message : String(error) });
    }
  };
}

const loopbackHost = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

/** Why a request that a browser could have sent on a page's behalf is refused; undefined when it is fine. */
function browserRefusal(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? '';
  if (!loopbackHost.test(host)) return `The control API answers only requests addressed to a loopback host (got Host "${host.slice(0, 100)}").`;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost = '';
    try {
      originHost = new URL(origin).host;
    } catch {
      // an unparseable Origin is refused below
    }
    if (!loopbackHost.test(originHost)) return 'The control API refuses cross-origin requests from web pages.';
  }
  if (req.headers['sec-fetch-site'] === 'cross-site') return 'The control API refuses cross-origin requests from web pages.';
  return undefined;
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new Error('The body is not valid JSON.');
  }
}

/** A FaultSpec from JSON: `path` (exact) or `pathPattern` (a RegExp source); `times: null` means Infinity. */
export function faultFromJson(input: unknown): FaultSpec {
  if (typeof input !== 'object' || input === null) throw new Error('Send a fault as a JSON object, e.g. {"kind": "status", "status": 503, "path": "/api/v2/runs"}.');
  const raw = input as Record<string, unknown>;
  let path: string | RegExp;
  if (typeof raw.pathPattern === 'string') {
    try {
      path = new RegExp(raw.pathPattern);
    } catch {
      throw new Error(`pathPattern "${raw.pathPattern}" is not a valid regular expression.`);
    }
  } else if (typeof raw.path === 'string') path = raw.path;
  else throw new Error('A fault needs "path" (exact path without query) or "pathPattern" (regular expression).');
  return {
    path,
    kind: raw.kind as FaultSpec['kind'],
    ...(typeof raw.method === 'string' ? { method: raw.method } : {}),
    ...(typeof raw.status === 'number' ? { status: raw.status } : {}),
    ...(typeof raw.latencyMs === 'number' ? { latencyMs: raw.latencyMs } : {}),
    ...(typeof raw.times === 'number' ? { times: raw.times } : raw.times === null || raw.times === 'Infinity' ? { times: Infinity } : {}),
    ...(typeof raw.beforeHandling === 'boolean' ? { beforeHandling: raw.beforeHandling } : {}),
  };
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) return void res.writeHead(status).end();
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': String(bytes.length) });
  res.end(bytes);
}
