import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { linkedWorkspacesRequest, serverStatusRequest } from '../../server/src/protocol';
import { log } from './log';
import type { ServerEvents } from './serverEvents';

const signedInContextKey = 'hcpTerraform.signedIn';

/**
 * Keeps the `hcpTerraform.signedIn` context key true while the server has a token for the configured host or for
 * any linked folder's host (from Sign In, TF_TOKEN_… or `terraform login`), so the views' welcome texts never ask
 * a signed-in user to sign in.
 */
export function trackSignedIn(client: LanguageClient, events: ServerEvents): vscode.Disposable {
  const update = async () => {
    try {
      const [status, folders] = await Promise.all([client.sendRequest(serverStatusRequest), client.sendRequest(linkedWorkspacesRequest)]);
      const signedIn = status.signedIn || folders.some((folder) => folder.signedIn);
      await vscode.commands.executeCommand('setContext', signedInContextKey, signedIn);
    } catch (error) {
      log.warn(`Could not read the sign-in state: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void update();
  return events.onWorkspaceChanged(() => void update());
}
