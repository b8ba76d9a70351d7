import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { registerCommands } from './commands';
import { Credentials } from './credentials';
import { startLanguageClient } from './languageClient';
import { log } from './log';
import { configuredAddress } from './settings';
import { signIn } from './signIn';

let client: LanguageClient | undefined;

/** What the extension offers to other code (and to its own end-to-end tests). */
export interface ExtensionApi {
  languageClient(): LanguageClient | undefined;
}

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const credentials = new Credentials(context.secrets);
  context.subscriptions.push(credentials, log);
  const address = () => configuredAddress((message) => {
    log.warn(message);
    void vscode.window.showWarningMessage(message);
  });

  const restartServer = async () => {
    const current = address();
    await client?.dispose();
    client = undefined;
    try {
      client = await startLanguageClient(context, { address: current, token: await credentials.get(current) });
    } catch (error) {
      reportActivationFailure(error);
    }
  };

  registerCommands(context, {
    'hcpTerraform.signIn': async () => {
      if (await signIn(credentials, address())) await restartServer();
    },
    'hcpTerraform.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', '@ext:hcp-terraform-runs.hcp-terraform-runs'),
    'hcpTerraform.showOutput': () => log.show(),
    'hcpTerraform.restartServer': restartServer,
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('hcpTerraform.address')) void restartServer();
    }),
    { dispose: () => void client?.dispose() },
  );

  await restartServer();
  return { languageClient: () => client };
}

export async function deactivate(): Promise<void> {
  await client?.dispose();
  client = undefined;
}

/** The server could not start: say so where the user looks, with the way to the details. */
function reportActivationFailure(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  log.error(`The HCP Terraform language server failed to start: ${message}`);
  void vscode.window
    .showErrorMessage(`HCP Terraform: the language server failed to start (${message}).`, 'Show Output')
    .then((choice) => choice && log.show());
}
