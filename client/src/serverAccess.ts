import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { NotificationType, RequestType, RequestType0 } from 'vscode-languageserver-protocol';
import type { ServerCommandArguments, ServerCommandResults, ServerCommandVerb } from '../../server/src/protocol';
import { serverCommand } from '../../server/src/protocol';

/**
 * The one way the client's views and commands talk to the language server: typed requests and server commands,
 * with a clear error when the server is not running (restarting, or failed to start), and an event when it
 * (re)starts so views can reload.
 */
export class ServerAccess implements vscode.Disposable {
  private current: LanguageClient | undefined;
  private readonly started = new vscode.EventEmitter<void>();
  /** Fires after the language server (re)started and has its tokens. */
  readonly onDidStart = this.started.event;

  setClient(client: LanguageClient | undefined): void {
    this.current = client;
    if (client) this.started.fire();
  }

  get running(): boolean {
    return this.current !== undefined;
  }

  private client(): LanguageClient {
    if (!this.current) throw new Error('The HCP Terraform language server is not running: run "HCP Terraform: Restart Language Server".');
    return this.current;
  }

  request<R>(type: RequestType0<R, void>, token?: vscode.CancellationToken): Promise<R>;
  request<P, R>(type: RequestType<P, R, void>, params: P, token?: vscode.CancellationToken): Promise<R>;
  request(type: RequestType0<unknown, void> | RequestType<unknown, unknown, void>, ...rest: unknown[]): Promise<unknown> {
    return (this.client().sendRequest as (...args: unknown[]) => Promise<unknown>)(type, ...rest);
  }

  notify<P>(type: NotificationType<P>, params: P): Promise<void> {
    return (this.client().sendNotification as (type: unknown, params: unknown) => Promise<void>)(type, params);
  }

  /**
   * Runs a server command (`hcpTerraform.server.<verb>`) directly, bypassing the command middleware, so the caller
   * handles the error itself (the palette and the tree say what went wrong in their own words).
   */
  command<V extends ServerCommandVerb>(verb: V, args: ServerCommandArguments[V]): Promise<ServerCommandResults[V]> {
    return this.client().sendRequest('workspace/executeCommand', { command: serverCommand(verb), arguments: [args] }) as Promise<ServerCommandResults[V]>;
  }

  /** An LSP WorkspaceEdit (from a server request) as VS Code's. */
  protocolToEdit(edit: import('vscode-languageserver-protocol').WorkspaceEdit): Promise<vscode.WorkspaceEdit> {
    return this.client().protocol2CodeConverter.asWorkspaceEdit(edit);
  }

  dispose(): void {
    this.started.dispose();
  }
}

/** A server error as the user should read it: the server's own message (already actionable and free of secrets). */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
