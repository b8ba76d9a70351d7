// Starts the whole emulator (startEmulator, demo seed unless told otherwise, manual clock) and gives the
// emulator-core tests a small HTTP helper. Not a test file itself (no `.test.ts`).
import { startEmulator, type EmulatorOptions, type RunningEmulator, type TokenRole } from '../../emulator/src/index';

export interface ApiResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface CallOptions {
  /** A seeded role, a literal token, or null for no Authorization header. Default: owner. */
  token?: TokenRole | string | null;
  body?: unknown;
  /** Default application/vnd.api+json on POST/PATCH/DELETE; null sends none. */
  contentType?: string | null;
}

export interface CoreHarness {
  emulator: RunningEmulator;
  api(method: string, path: string, options?: CallOptions): Promise<ApiResult>;
  close(): Promise<void>;
}

const roles = new Set(['owner', 'member', 'reader', 'team', 'organization']);

export async function startCore(options: EmulatorOptions = {}): Promise<CoreHarness> {
  const emulator = await startEmulator({ clock: 'manual', ...options });
  const api = async (method: string, path: string, call: CallOptions = {}): Promise<ApiResult> => {
    const headers: Record<string, string> = { Accept: 'application/vnd.api+json' };
    const token = call.token === undefined ? 'owner' : call.token;
    if (token !== null) headers.Authorization = `Bearer ${roles.has(token) ? emulator.tokens[token as TokenRole] : token}`;
    const writes = method !== 'GET' && method !== 'HEAD';
    const contentType = call.contentType === undefined ? (writes ? 'application/vnd.api+json' : null) : call.contentType;
    if (contentType) headers['Content-Type'] = contentType;
    const url = path.startsWith('http') ? path : `${emulator.url}${path.startsWith('/api/') || path.startsWith('/_') || path.startsWith('/.') ? '' : '/api/v2'}${path}`;
    const response = await fetch(url, {
      method,
      headers,
      body: call.body === undefined ? undefined : typeof call.body === 'string' || call.body instanceof Uint8Array ? (call.body as string) : JSON.stringify(call.body),
    });
    const text = await response.text();
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, headers: response.headers, body, text };
  };
  return { emulator, api, close: () => emulator.close() };
}

/** The id of a seeded workspace, read over the API as the owner. */
export async function workspaceId(h: CoreHarness, name: string, organization = 'acme-demo'): Promise<string> {
  const result = await h.api('GET', `/organizations/${organization}/workspaces/${name}`);
  if (result.status !== 200) throw new Error(`workspace ${organization}/${name}: ${result.status} ${result.text}`);
  return result.body.data.id;
}
