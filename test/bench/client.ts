// A bench client: starts the built server over stdio as an editor would, records every publishDiagnostics, and
// reads the server process's memory from /proc (Linux; elsewhere memory is reported as not measured).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { LogMessageNotification, PublishDiagnosticsNotification } from 'vscode-languageserver-protocol/node';
import type { ProtocolConnection, PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { startLspProcess } from '../helpers/lspProcess';
import type { LspProcess } from '../helpers/lspProcess';
import { serverStatusRequest, type InitializationOptions } from '../../server/src/protocol';

export interface BenchServer extends LspProcess {
  /** Resolves with the time (performance.now) of the first publishDiagnostics after now that matches. */
  nextDiagnostics(match: (params: PublishDiagnosticsParams) => boolean, timeoutMs?: number): Promise<number>;
  /** Round trip of a request the server answers without work: the floor the transport sets. */
  noop(): Promise<number>;
  /** Every publishDiagnostics, with its arrival time. */
  onDiagnostics(listener: (params: PublishDiagnosticsParams, at: number) => void): void;
  /** Resolves with the time of the next log line (window/logMessage) matching, or undefined after `timeoutMs`. */
  nextLog(match: RegExp, timeoutMs: number): Promise<number | undefined>;
  memory(): { rssMb?: number; peakMb?: number };
}

/**
 * options.initializationOptions: the service's address and token (a scenario against the emulator); options.setup:
 * more handlers, registered before the server's first message (as startLspProcess's setup); options.nodeArgs: node
 * options for the server process (`--cpu-prof`).
 */
export async function startBenchServer(
  rootFolder?: string,
  options: { initializationOptions?: InitializationOptions; setup?: (connection: ProtocolConnection) => void; nodeArgs?: string[] } = {},
): Promise<BenchServer> {
  const listeners = new Set<(params: PublishDiagnosticsParams, at: number) => void>();
  const waiters = new Set<{ match: (params: PublishDiagnosticsParams) => boolean; resolve: (at: number) => void }>();
  const logWaiters = new Set<{ match: RegExp; resolve: (at: number) => void }>();
  const rootUri = rootFolder ? pathToFileURL(rootFolder).href : null;
  const server = await startLspProcess(
    {
      rootUri,
      workspaceFolders: rootFolder ? [{ uri: rootUri as string, name: 'bench' }] : null,
      capabilities: { textDocument: { completion: { completionList: { itemDefaults: ['editRange', 'data'] } } } },
      ...(options.initializationOptions ? { initializationOptions: options.initializationOptions } : {}),
    },
    {},
    (connection) => {
      options.setup?.(connection);
      connection.onNotification(LogMessageNotification.type, ({ message }) => {
        for (const waiter of [...logWaiters]) if (waiter.match.test(message)) waiter.resolve(performance.now());
      });
      connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
        const at = performance.now();
        for (const listener of listeners) listener(params, at);
        for (const waiter of [...waiters]) {
          if (waiter.match(params)) {
            waiters.delete(waiter);
            waiter.resolve(at);
          }
        }
      });
    },
    options.nodeArgs,
  );
  return {
    ...server,
    nextDiagnostics(match, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve: (at: number) => (clearTimeout(timer), resolve(at)) };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(new Error(`no matching publishDiagnostics within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    onDiagnostics(listener) {
      listeners.add(listener);
    },
    nextLog(match, timeoutMs) {
      return new Promise((resolve) => {
        const waiter = {
          match,
          resolve: (at: number | undefined) => {
            clearTimeout(timer);
            logWaiters.delete(waiter);
            resolve(at);
          },
        };
        const timer = setTimeout(() => waiter.resolve(undefined), timeoutMs);
        logWaiters.add(waiter);
      });
    },
    async noop() {
      const started = performance.now();
      await server.connection.sendRequest(serverStatusRequest);
      return performance.now() - started;
    },
    memory() {
      try {
        const status = readFileSync(`/proc/${server.child.pid}/status`, 'utf8');
        const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1]);
        return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
      } catch {
        return {};
      }
    },
  };
}

export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** p90 beside p99: with a few dozen samples p99 is the slowest one, and p90 tells one outlier from a pattern. */
export function summary(samples: number[]): { p50: number; p90: number; p99: number; n: number } {
  return { p50: percentile(samples, 50), p90: percentile(samples, 90), p99: percentile(samples, 99), n: samples.length };
}
