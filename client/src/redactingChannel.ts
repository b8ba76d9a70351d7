import * as vscode from 'vscode';
import { redactTrace } from './traceRedaction';

/**
 * The language client's trace channel (`hcpTerraform.trace.server`). vscode-jsonrpc writes every message's params
 * into it, tokens and variable values included, so every text passes through redactTrace before reaching `target`.
 */
export function redactingChannel(target: vscode.LogOutputChannel, knownSecrets: () => Iterable<string>): vscode.LogOutputChannel {
  const clean = (text: string) => redactTrace(text, knownSecrets());
  const cleanArgs = (args: unknown[]) => args.map((arg) => (typeof arg === 'string' ? clean(arg) : arg));
  return {
    get name() {
      return target.name;
    },
    get logLevel() {
      return target.logLevel;
    },
    onDidChangeLogLevel: target.onDidChangeLogLevel,
    append: (value) => target.append(clean(value)),
    appendLine: (value) => target.appendLine(clean(value)),
    replace: (value) => target.replace(clean(value)),
    clear: () => target.clear(),
    show: (...args: unknown[]) => (target.show as (...a: unknown[]) => void)(...args),
    hide: () => target.hide(),
    trace: (message, ...args) => target.trace(clean(message), ...cleanArgs(args)),
    debug: (message, ...args) => target.debug(clean(message), ...cleanArgs(args)),
    info: (message, ...args) => target.info(clean(message), ...cleanArgs(args)),
    warn: (message, ...args) => target.warn(clean(message), ...cleanArgs(args)),
    error: (error, ...args) => target.error(typeof error === 'string' ? clean(error) : new Error(clean(error.message)), ...cleanArgs(args)),
    dispose: () => undefined, // the log channel outlives each language client; the extension disposes it
  };
}
