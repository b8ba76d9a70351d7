import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { linkedWorkspacesRequest, serverStatusRequest } from '../../server/src/protocol';
import { hostOf } from './credentials';
import { log } from './log';
import type { ServerEvents } from './serverEvents';

const signedInContextKey = 'hcpTerraform.signedIn';
/** The host a signed-out welcome asks to sign in to (the configured address's), for the welcome texts' when clauses. */
const signInHostContextKey = 'hcpTerraform.signInHost';

/**
 * Keeps the `hcpTerraform.signedIn` context key true while the server has a token for the configured host or for
 * any linked folder's host (from Sign In, TF_TOKEN_… or `terraform login`), so the views' welcome texts never ask
 * a signed-in user to sign in; and `hcpTerraform.signInHost` naming the host to sign in to.
 */
export function trackSignedIn(client: LanguageClient, events: ServerEvents): vscode.Disposable {
  const update = async () => {
    try {
      const [status, folders] = await Promise.all([client.sendRequest(serverStatusRequest), client.sendRequest(linkedWorkspacesRequest)]);
      const signedIn = status.signedIn || folders.some((folder) => folder.signedIn);
      await vscode.commands.executeCommand('setContext', signInHostContextKey, hostOrUndefined(status.address));
      await vscode.commands.executeCommand('setContext', signedInContextKey, signedIn);
    } catch (error) {
      log.warn(`Could not read the sign-in state: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void update();
  return events.onWorkspaceChanged(() => void update());
}

function hostOrUndefined(address: string): string | undefined {
  try {
    return hostOf(address);
  } catch {
    return undefined;
  }
}
