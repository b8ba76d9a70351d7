// ClientDeps for unit tests: a fake language server answering requests by method from handlers the test swaps (to
// take the service down or bring it back), and the events the views subscribe to, fired by the test.
import type { ClientDeps } from '../../../client/src/clientDeps';
import { EventEmitter } from './vscode';

type Handler = (params: unknown) => unknown;

export class FakeServer {
  running = true;
  readonly handlers = new Map<string, Handler>();
  /** Every request made, by method, in order (tests count reads). */
  readonly requests: Array<{ method: string; params: unknown }> = [];
  readonly started = new EventEmitter<void>();
  readonly onDidStart = this.started.event;

  on(type: { method: string }, handler: Handler): void {
    this.handlers.set(type.method, handler);
  }

  async request(type: { method: string }, params?: unknown): Promise<unknown> {
    this.requests.push({ method: type.method, params });
    const handler = this.handlers.get(type.method);
    if (!handler) throw new Error(`no fake answer for ${type.method}`);
    return handler(params);
  }

  /** Answers the server command `verb` (`hcpTerraform.server.<verb>`); recorded as the method `command:<verb>`. */
  onCommand(verb: string, handler: Handler): void {
    this.handlers.set(`command:${verb}`, handler);
  }

  command(verb: string, args: unknown): Promise<unknown> {
    return this.request({ method: `command:${verb}` }, args);
  }

  count(type: { method: string }): number {
    return this.requests.filter((request) => request.method === type.method).length;
  }
}

export function fakeDeps(server = new FakeServer()) {
  const runsChanged = new EventEmitter<{ hostname: string; workspaceId: string; runs: unknown[] }>();
  const workspaceChanged = new EventEmitter<unknown>();
  const credentialsChanged = new EventEmitter<{ host: string; token: string | undefined }>();
  const acted = new EventEmitter<unknown>();
  const deps = {
    server,
    events: { onRunsChanged: runsChanged.event, onWorkspaceChanged: workspaceChanged.event },
    credentials: { onDidChange: credentialsChanged.event },
    activity: { onDidAct: acted.event },
    address: () => 'https://app.terraform.io',
  } as unknown as ClientDeps;
  return { deps, server, runsChanged, workspaceChanged, credentialsChanged };
}

/** Resolves with the next value `event` fires whose value passes `accept`; rejects after `withinMs` without one. */
export function nextEvent<T>(event: (listener: (value: T) => unknown) => { dispose(): void }, accept: (value: T) => boolean = () => true, withinMs = 2_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`no matching event within ${withinMs} ms`));
    }, withinMs);
    const subscription = event((value) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    });
  });
}
