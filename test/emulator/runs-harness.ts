// A runs-focused emulator for the runs-*.test.ts files: the real HTTP pipeline, router and runs engine, on a
// manual clock, with direct access to the store so a test can shape a workspace (features, policy sets, run
// tasks, plan outcome) before it queues runs over HTTP. Not a test file itself (no `.test.ts`).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock } from '../../emulator/src/clock';
import { FaultInjector } from '../../emulator/src/http/faults';
import { RateLimiter } from '../../emulator/src/http/rateLimit';
import { RequestLog } from '../../emulator/src/http/requestLog';
import { createPipeline } from '../../emulator/src/http/server';
import type { RunEngine } from '../../emulator/src/runs';
import { addConfigurationVersion, addOrganization, addTeam, addWorkspace, grant } from '../../emulator/src/seeds/builders';
import { freeFeatureSet } from '../../emulator/src/seeds/featureSets';
import type { People } from '../../emulator/src/seeds/people';
import type { ConfigurationVersion, TokenRole, Workspace } from '../../emulator/src/store/model';
import type { Store } from '../../emulator/src/store/store';
import { createRunsEmulator } from './runsEmulator';

export const organization = 'acme-demo';
export const freeOrganization = 'acme-free';

export interface Harness {
  url: string;
  store: Store;
  engine: RunEngine;
  clock: Clock;
  tokens: Record<TokenRole, string>;
  people: People;
  /** `demo-app`: member may queue plans, reader may read; one uploaded configuration version declaring resources. */
  workspace: Workspace;
  version: ConfigurationVersion;
  /** A workspace of the free organization (no cost estimation, policies or run tasks). */
  freeWorkspace: Workspace;
  api(method: string, path: string, options?: { token?: TokenRole | string; body?: unknown; contentType?: string | null }): Promise<ApiResult>;
  /** Creates a run over HTTP as `token` (default owner) and returns its id; fails the test on anything but 201. */
  createRun(attributes?: Record<string, unknown>, options?: { token?: TokenRole; workspaceId?: string }): Promise<string>;
  run(id: string): Promise<Record<string, any>>;
  addWorkspace(name: string, fields?: Partial<Workspace>): { workspace: Workspace; version: ConfigurationVersion };
  close(): Promise<void>;
}

export interface ApiResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export const mainTf = `
resource "aws_instance" "web" {
  ami = "ami-123"
}

resource "aws_s3_bucket" "assets" {
  bucket = "assets"
}
`;

/**
 * `followConfiguration`: plans are worked out from the configuration (engine/), as `startEmulator` does.
 * `realRateLimits`: the service's limits (30/s, 30/min on run lists). Off by default because a manual clock never
 * leaves its second on its own: tests that are not about rate limits would trip them after 30 requests.
 */
export async function startHarness(options: { realRateLimits?: boolean; followConfiguration?: boolean } = {}): Promise<Harness> {
  const clock = new Clock({ mode: 'manual', start: new Date('2026-03-15T12:00:00Z') });
  const { store, router, engine, tokens, people } = await createRunsEmulator(clock, organization);
  // Plans follow the uploaded configuration only when asked, as in the running emulator; otherwise they play the
  // workspace's seeded plan outcome, which most runs tests shape directly.
  store.followConfiguration = options.followConfiguration === true;
  const makeWorkspace = (name: string, fields: Partial<Workspace> = {}, org = organization) => {
    const workspace = addWorkspace(store, org, name, { createdDaysAgo: 200, ...fields });
    if (org === organization) {
      grant(people.developers, workspace, 'plan');
      grant(people.auditors, workspace, 'read');
    }
    const version = addConfigurationVersion(store, workspace, 'v1', { files: new Map([['main.tf', Buffer.from(mainTf)]]) });
    return { workspace, version };
  };
  const { workspace, version } = makeWorkspace('demo-app');
  addOrganization(store, freeOrganization, freeFeatureSet(), 100);
  addTeam(store, freeOrganization, 'owners', [people.owner], true);
  const { workspace: freeWorkspace } = makeWorkspace('free-app', {}, freeOrganization);

  const server: Server = createServer(
    createPipeline({
      store,
      router,
      rateLimiter: options.realRateLimits
        ? new RateLimiter(clock)
        : new RateLimiter(clock, { default: { limit: 100_000, windowMs: 1000 }, 'run-lists': { limit: 100_000, windowMs: 60_000 } }),
      faults: new FaultInjector(),
      log: new RequestLog(),
      control: async (_req, res) => void res.writeHead(404).end(),
      serviceHeaders: {},
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api: Harness['api'] = async (method, path, options = {}) => {
    const token = options.token === undefined ? tokens.owner : (tokens as Record<string, string>)[options.token] ?? options.token;
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    const contentType = options.contentType === undefined ? 'application/vnd.api+json' : options.contentType;
    if (contentType !== null && method !== 'GET') headers['Content-Type'] = contentType;
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await response.text();
    let body: any;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body, text };
  };

  const harness: Harness = {
    url,
    store,
    engine,
    clock,
    tokens,
    people,
    workspace,
    version,
    freeWorkspace,
    api,
    async createRun(attributes = {}, options = {}) {
      const result = await api('POST', '/api/v2/runs', {
        token: options.token ?? 'owner',
        body: runBody(options.workspaceId ?? workspace.id, attributes),
      });
      if (result.status !== 201) throw new Error(`create run answered ${result.status}: ${result.text}`);
      return result.body.data.id as string;
    },
    async run(id) {
      const result = await api('GET', `/api/v2/runs/${id}`);
      if (result.status !== 200) throw new Error(`GET run answered ${result.status}: ${result.text}`);
      return result.body.data;
    },
    addWorkspace: (name, fields) => makeWorkspace(name, fields),
    close: () =>
      new Promise<void>((resolve) => {
        clock.dispose();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return harness;
}

/**
 * Before each test: demo-app back to a plain workspace with changes to plan (manual apply, no policies, no run
 * tasks, unlocked) and no runs; each test then shapes what it needs.
 */
export function resetToPlainWorkspace(h: Harness): void {
  Object.assign(h.workspace, {
    autoApply: false,
    policySets: [],
    runTasks: [],
    lockedBy: null,
    planOutcome: { hasChanges: true, errors: false, resourceAdditions: 2, resourceChanges: 0, resourceDestructions: 0 },
  });
  h.engine.reset();
  h.workspace.lockedBy = null; // the engine's reset releases run locks; a user lock set by a test must go too
  // A plain workspace has no state: plans manage what the current state holds, so an earlier test's applies go.
  h.store.stateVersions.deleteWorkspace(h.workspace.id);
}

export function runBody(workspaceId: string, attributes: Record<string, unknown> = {}, relationships: Record<string, unknown> = {}) {
  return {
    data: {
      type: 'runs',
      attributes,
      relationships: { workspace: { data: { type: 'workspaces', id: workspaceId } }, ...relationships },
    },
  };
}

/** The states a run went through, read from its sparse status-timestamps (in the order they were reached). */
export function statesReached(run: Record<string, any>): string[] {
  return Object.keys(run.attributes['status-timestamps'])
    .filter((key) => key !== 'plan-queueable-at')
    .map((key) => key.replace(/-at$/, ''));
}
