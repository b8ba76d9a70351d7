import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { setTokenNotification } from '../../server/src/protocol';
import type { Credentials } from './credentials';

/**
 * Keeps the server's tokens in step with SecretStorage: every stored token is handed over when the server starts,
 * every sign-in or sign-out as it happens (no restart). The offer to sign in when the server needs a token lives in
 * auth/signInPrompt.ts, registered once per activation so a server restart never asks again.
 */
export async function syncTokens(client: LanguageClient, credentials: Credentials): Promise<vscode.Disposable> {
  for (const { host, token } of await credentials.all()) {
    await client.sendNotification(setTokenNotification, { hostname: host, token });
  }
  return credentials.onDidChange(({ host, token }) => {
    void client.sendNotification(setTokenNotification, { hostname: host, token: token ?? null });
  });
}
