import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import type { InitializationOptions } from '../../server/src/protocol';
import type { ClientDeps } from './clientDeps';
import { serverCommandMiddleware } from './commandMiddleware';
import { log } from './log';
import { redactingChannel } from './redactingChannel';

const clientId = 'hcpTerraform';

/** Starts dist/server.js over IPC. The id `hcpTerraform` makes `hcpTerraform.trace.server` the trace setting. */
export async function startLanguageClient(
  context: vscode.ExtensionContext,
  initializationOptions: InitializationOptions,
  knownSecrets: () => Iterable<string>,
  deps: ClientDeps,
): Promise<LanguageClient> {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6010'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'terraform' },
      { scheme: 'file', language: 'terraform-vars' },
      // VS Code opens *.tfvars.json as JSON: without this the server never hears of them open (no key completion).
      { scheme: 'file', language: 'json', pattern: '**/*.tfvars.json' },
    ],
    initializationOptions,
    outputChannel: log,
    // The trace holds every message's params (tokens, variable values): it is redacted before it is written.
    traceOutputChannel: redactingChannel(log, knownSecrets),
    middleware: { executeCommand: serverCommandMiddleware(deps) },
  };
  const client = new LanguageClient(clientId, 'HCP Terraform Language Server', serverOptions, clientOptions);
  await client.start();
  return client;
}
