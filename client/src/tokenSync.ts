import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { setTokenNotification } from '../../server/src/protocol';
import type { Credentials } from './credentials';
import { log } from './log';
import type { ServerEvents } from './serverEvents';
import { signIn } from './signIn';

/**
 * Keeps the server's tokens in step with SecretStorage: every stored token is handed over when the server starts,
 * every sign-in or sign-out as it happens (no restart), and the server's "sign-in needed" becomes an offer to sign in.
 */
export async function syncTokens(client: LanguageClient, credentials: Credentials, events: ServerEvents): Promise<vscode.Disposable> {
  for (const { host, token } of await credentials.all()) {
    await client.sendNotification(setTokenNotification, { hostname: host, token });
  }
  const offered = new Set<string>();
  return vscode.Disposable.from(
    credentials.onDidChange(({ host, token }) => {
      void client.sendNotification(setTokenNotification, { hostname: host, token: token ?? null });
    }),
    events.onSignInNeeded(async ({ hostname, reason }) => {
      log.warn(`Sign-in needed for ${hostname}: ${reason}`);
      if (offered.has(hostname)) return; // one prompt per host per session; the Sign In command stays available
      offered.add(hostname);
      const choice = await vscode.window.showWarningMessage(`HCP Terraform: ${reason}`, 'Sign In');
      if (choice === 'Sign In') await signIn(credentials, hostname, reason);
    }),
  );
}
