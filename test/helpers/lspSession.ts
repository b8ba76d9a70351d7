// An LSP session against the emulator, as an editor would run it: the demo-app fixture copied to a temp folder
// as the workspace folder, the emulator's URL as the address, and a client that answers the server's requests
// (configuration, capability registration, progress creation) and records every notification it receives.
// Waiting is always on an event with a bound, never a sleep.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { InitializeParams, MessageConnection, ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { startLspProcess, type LspProcess } from './lspProcess';

/** textDocument/publishDiagnostics as the tests read it. */
export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: Array<{ code?: unknown; message: string }>;
}

export interface ReceivedMessage {
  method: string;
  params: unknown;
}

export interface LspSession extends LspProcess {
  folder: string;
  folderUri: string;
  /** Every notification and server→client request received so far, in order. */
  received: ReceivedMessage[];
  /** Resolves with the first message (already received or future) matching; rejects after `timeoutMs`. */
  waitFor<T = unknown>(method: string, predicate?: (params: T) => boolean, timeoutMs?: number): Promise<T>;
  /** Like waitFor but only messages received after this call. */
  waitForNext<T = unknown>(method: string, predicate?: (params: T) => boolean, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export interface SessionOptions {
  address: string;
  token?: string;
  env?: NodeJS.ProcessEnv;
  /** The hcpTerraform settings section answered to workspace/configuration. */
  settings?: unknown;
  /** Copies this fixture (default test/fixtures/demo-app). */
  fixture?: string;
  capabilities?: InitializeParams['capabilities'];
  /** Adds files to the copied folder before the server starts (nested modules, other links...). */
  prepare?: (folder: string) => Promise<void>;
  /** More initializationOptions (beside address and token). */
  initializationOptions?: Record<string, unknown>;
  /** Called with the connection before it listens (to trace it from the first message, as an editor's trace does). */
  onConnection?: (connection: ProtocolConnection) => void;
  /** Answers to server→client requests (window/showMessageRequest, hcpTerraform/trustHost…); recorded like the rest. */
  answer?: Record<string, (params: any) => unknown>;
}

/**
 * Answers every confirmation the server asks before a destructive command (window/showMessageRequest offering
 * "Do nothing") with its go-ahead button, as a user who means the action they picked; any other question gets null.
 */
export const confirmDestructiveCommands: SessionOptions['answer'] = {
  'window/showMessageRequest': (params: { actions?: Array<{ title: string }> }) =>
    params.actions?.some((action) => action.title === 'Do nothing') ? (params.actions.find((action) => action.title !== 'Do nothing') ?? null) : null,
};

export async function startSession(options: SessionOptions): Promise<LspSession> {
  const base = await mkdtemp(path.join(os.tmpdir(), 'hcp-lsp-'));
  const folder = path.join(base, 'demo-app');
  await cp(path.resolve(options.fixture ?? 'test/fixtures/demo-app'), folder, { recursive: true });
  await options.prepare?.(folder);
  const folderUri = pathToFileURL(folder).href;
  const received: ReceivedMessage[] = [];
  const waiters: Array<{ method: string; predicate: (params: unknown) => boolean; resolve: (params: unknown) => void; from: number }> = [];
  const record = (method: string, params: unknown) => {
    received.push({ method, params });
    for (const waiter of [...waiters]) {
      if (waiter.method === method && received.length > waiter.from && safe(waiter.predicate, params)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params);
      }
    }
  };
  const setup = (protocolConnection: ProtocolConnection) => {
    options.onConnection?.(protocolConnection);
    // The protocol connection is a message connection underneath: its catch-all handlers see every notification.
    const connection = protocolConnection as unknown as MessageConnection;
    connection.onNotification((method: string, params: unknown) => record(method, params));
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => {
      record('workspace/configuration', params);
      return params.items.map(() => options.settings ?? null);
    });
    connection.onRequest('client/registerCapability', (params: unknown) => {
      record('client/registerCapability', params);
      return null;
    });
    connection.onRequest('window/workDoneProgress/create', (params: unknown) => {
      record('window/workDoneProgress/create', params);
      return null;
    });
    connection.onRequest('window/showMessageRequest', (params: unknown) => {
      record('window/showMessageRequest', params);
      return options.answer?.['window/showMessageRequest']?.(params) ?? null;
    });
    for (const [method, answer] of Object.entries(options.answer ?? {})) {
      if (method === 'window/showMessageRequest') continue;
      connection.onRequest(method, (params: unknown) => {
        record(method, params);
        return answer(params);
      });
    }
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onRequest('workspace/diagnostic/refresh', () => null);
    // $/progress for tokens nobody registered a handler for: that is every server-created progress here.
    connection.onUnhandledProgress((params: unknown) => record('$/progress', params));
  };
  const capabilities: InitializeParams['capabilities'] = options.capabilities ?? {
    workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true }, workspaceFolders: true },
    window: { workDoneProgress: true },
    textDocument: { publishDiagnostics: {} },
  };
  const env: NodeJS.ProcessEnv = { HOME: base, APPDATA: base, ...stripTokens(process.env), ...options.env };
  const server = await startLspProcess(
    {
      rootUri: folderUri,
      workspaceFolders: [{ uri: folderUri, name: 'demo-app' }],
      capabilities,
      initializationOptions: { address: options.address, ...(options.token ? { token: options.token } : {}), ...options.initializationOptions },
    },
    env,
    setup,
  );
  const wait = <T>(fromIndex: number, method: string, predicate: (params: T) => boolean = () => true, timeoutMs = 15_000): Promise<T> => {
    const found = received.slice(fromIndex).find((message) => message.method === method && safe(predicate as (p: unknown) => boolean, message.params));
    if (found) return Promise.resolve(found.params as T);
    return new Promise<T>((resolve, reject) => {
      const waiter = { method, predicate: predicate as (p: unknown) => boolean, resolve: (params: unknown) => (clearTimeout(timer), resolve(params as T)), from: fromIndex };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`No ${method} matching within ${timeoutMs} ms. Received: ${received.map((m) => m.method).join(', ')}\nstderr: ${server.stderr().slice(-2000)}`));
      }, timeoutMs);
      waiters.push(waiter);
    });
  };
  return {
    ...server,
    folder,
    folderUri,
    received,
    waitFor: (method, predicate, timeoutMs) => wait(0, method, predicate, timeoutMs),
    waitForNext: (method, predicate, timeoutMs) => wait(received.length, method, predicate, timeoutMs),
    async close() {
      await server.stop().catch(() => server.child.kill());
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** The test runner's own TF_TOKEN_* variables must not leak into a server under test. */
function stripTokens(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).map(([key, value]) => [key, key.startsWith('TF_TOKEN_') || key.startsWith('TF_CLOUD_') || key === 'TF_WORKSPACE' ? undefined : value]));
}

function safe(predicate: (params: unknown) => boolean, params: unknown): boolean {
  try {
    return predicate(params);
  } catch {
    return false;
  }
}
