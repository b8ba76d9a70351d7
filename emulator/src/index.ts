// The emulator's in-process API: startEmulator() gives a running fake of the service on a local port, its
// seeded tokens, and a control surface (clock, faults, request log, notifications, reset) for tests and demos.
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { selfSignedCertificate, type Certificate } from './http/certificate';
import type { AddressInfo } from 'node:net';
import { Clock } from './clock';
import { loadTerraformParser } from '../../server/src/model';
import { createControlHandler, type ControlSurface } from './http/controlApi';
import { FaultInjector, type FaultSpec } from './http/faults';
import { RateLimiter } from './http/rateLimit';
import { RequestLog, type RequestLogEntry } from './http/requestLog';
import { Router } from './http/router';
import { createPipeline } from './http/server';
import { registerCoreRoutes } from './routes';
import { createRunEngine, registerRunRoutes } from './runs';
import { includedResources } from './runs/includes';
import { serializeRun } from './runs/serialize';
import { applySeed, type SeedName } from './seeds';
import { scheduleDemoActivity } from './seeds/demoActivity';
import { resolveTokens } from './seeds/tokens';
import type { NotificationRecord, TokenRole } from './store/model';
import { Store } from './store/store';

export type { FaultSpec } from './http/faults';
export type { RequestLogEntry } from './http/requestLog';
export type { NotificationRecord, TokenRole } from './store/model';

export interface EmulatorOptions {
  /** 0 = any free port (default 0). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 'demo'. */
  seed?: SeedName;
  /** How fast runs progress in real-time mode (1 = realistic seconds per phase); default 1. */
  speed?: number;
  /** Subscription endpoints exist only in 'hosted' (404 otherwise); default 'hosted'. */
  edition?: 'hosted' | 'enterprise';
  /** 'manual' = time only moves when advanced (tests); default 'real'. */
  clock?: 'real' | 'manual';
  /** Fix tokens (otherwise random per start). */
  tokens?: Partial<Record<TokenRole, string>>;
  /** Serve https: true = a self-signed certificate for 127.0.0.1 and localhost made at start (see RunningEmulator.caPem). */
  tls?: boolean | Certificate;
  /** The origin of every absolute URL handed out (upload, log, json-output, state download URLs), e.g. behind a proxy. */
  publicUrl?: string;
}

export interface RunningEmulator {
  /** e.g. http://127.0.0.1:43123 (API base = url + '/api/v2'). */
  url: string;
  /** `acme-demo` for both seeds (the empty seed keeps the demo's organization and workspace names). */
  organization: string;
  /** owner, member (may queue plans on demo-app, not apply), reader, team (owners team), organization. */
  tokens: Record<TokenRole, string>;
  /** With tls: the certificate (PEM) a client trusts as its CA. */
  caPem?: string;
  control: EmulatorControl;
  close(): Promise<void>;
}

export interface EmulatorControl {
  advance(ms: number): Promise<void>;
  now(): Date;
  injectFault(fault: FaultSpec): void;
  clearFaults(): void;
  requests(): RequestLogEntry[];
  notifications(): NotificationRecord[];
  /** Back to the seeded state: store, runs, faults, request log, notifications and rate windows. */
  reset(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const settings = validateOptions(options);
  const tokens = resolveTokens(options.tokens);
  const clock = new Clock({ mode: settings.clock, speed: settings.speed });
  const store = new Store(clock, settings.edition);
  // Plans follow uploaded configurations through the same HCL grammar as the language server.
  store.terraformParser = await loadTerraformParser();
  const router = new Router();
  registerCoreRoutes(router);
  // The runs module, before the seed (which creates runs through it).
  const runs = createRunEngine(store, clock);
  registerRunRoutes(router, runs);
  store.workspaceChangeHooks.push((workspaceId) => runs.workspaceChanged(workspaceId));
  store.runIncluder = (caller, runId, nested, origin) => {
    const run = runs.run(runId);
    return run ? [serializeRun(runs, caller, run), ...includedResources(runs, caller, [run], nested, origin)] : [];
  };

  const seed = () => {
    const name = applySeed(store, settings.seed, tokens);
    if (settings.seed === 'demo' && settings.clock === 'real') scheduleDemoActivity(store, clock);
    return name;
  };
  const organization = seed();
  const faults = new FaultInjector();
  const log = new RequestLog();
  const rateLimiter = new RateLimiter(clock);

  const reset = async (): Promise<void> => {
    clock.clearScheduled();
    store.clear();
    for (const hook of store.resetHooks) await hook();
    faults.clear();
    log.clear();
    rateLimiter.clear();
    seed();
  };

  const surface: ControlSurface = {
    advance: (ms) => clock.advance(ms),
    now: () => clock.now(),
    clockMode: () => clock.mode,
    injectFault: (fault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    requests: () => log.all(),
    notifications: () => store.notifications.map((n) => ({ ...n, teams: [...n.teams] })),
    reset,
  };

  const certificate = options.tls === true ? selfSignedCertificate() : options.tls || undefined;
  const pipeline = createPipeline({
      store,
      router,
      rateLimiter,
      faults,
      log,
      control: createControlHandler(surface),
      serviceHeaders: serviceHeaders(settings.edition),
      origin: { tls: certificate !== undefined, ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}) },
    });
  const server: Server = certificate ? createTlsServer({ key: certificate.key, cert: certificate.cert }, pipeline) : createServer(pipeline);
  const address = await listen(server, settings.port, settings.host);
  const hostForUrl = address.family === 'IPv6' || address.address.includes(':') ? `[${address.address}]` : address.address;

  const control: EmulatorControl = {
    advance: surface.advance,
    now: surface.now,
    injectFault: surface.injectFault,
    clearFaults: surface.clearFaults,
    requests: surface.requests,
    notifications: surface.notifications,
    reset,
  };
  return {
    url: `${certificate ? 'https' : 'http'}://${hostForUrl}:${address.port}`,
    organization,
    tokens: { ...tokens },
    ...(certificate ? { caPem: certificate.cert } : {}),
    control,
    close: () => close(server, clock),
  };
}

interface Settings {
  port: number;
  host: string;
  seed: SeedName;
  speed: number;
  edition: 'hosted' | 'enterprise';
  clock: 'real' | 'manual';
  publicUrl?: string;
}

/** Rejects bad options with a message that says which one and what is allowed. */
export function validateOptions(options: EmulatorOptions): Settings {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be an integer from 0 to 65535 (got ${String(options.port)}).`);
  const seed = options.seed ?? 'demo';
  if (seed !== 'demo' && seed !== 'empty') throw new Error(`seed must be "demo" or "empty" (got ${JSON.stringify(seed)}).`);
  const speed = options.speed ?? 1;
  if (typeof speed !== 'number' || !Number.isFinite(speed) || speed <= 0) throw new Error(`speed must be a positive number (got ${String(options.speed)}).`);
  const edition = options.edition ?? 'hosted';
  if (edition !== 'hosted' && edition !== 'enterprise') throw new Error(`edition must be "hosted" or "enterprise" (got ${JSON.stringify(edition)}).`);
  const clock = options.clock ?? 'real';
  if (clock !== 'real' && clock !== 'manual') throw new Error(`clock must be "real" or "manual" (got ${JSON.stringify(clock)}).`);
  const host = options.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host.length === 0) throw new Error('host must be a non-empty string.');
  let publicUrl: string | undefined;
  if (options.publicUrl !== undefined) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(options.publicUrl);
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) throw new Error(`publicUrl must be an http(s) URL such as https://127.0.0.1:8443 (got ${JSON.stringify(options.publicUrl)}).`);
    publicUrl = parsed.origin;
  }
  return { port, host, seed, speed, edition, clock, ...(publicUrl ? { publicUrl } : {}) };
}

function serviceHeaders(edition: 'hosted' | 'enterprise'): Record<string, string> {
  if (edition === 'hosted') return { 'TFP-API-Version': '2.6', 'TFP-AppName': 'HCP Terraform' };
  return { 'TFP-API-Version': '2.6', 'TFP-AppName': 'Terraform Enterprise', 'X-TFE-Version': 'v202507-1', 'X-TFE-Current-Version': 'v202507-1' };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(new Error(`The emulator could not listen on ${host}:${port}: ${error.message}`));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function close(server: Server, clock: Clock): Promise<void> {
  clock.dispose();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
