import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { setTokenNotification } from '../../server/src/protocol';
import type { Identities } from './auth/identities';
import type { ClientDeps } from './clientDeps';
import { log } from './log';
import { prompts } from './prompts';
import { signIn } from './signIn';

/** Hosts whose sign-in was already offered this session: asked once, never in a loop (the command stays there). */
const offered = new Set<string>();

/**
 * Keeps the server's tokens in step with SecretStorage: every stored token is handed over when the server starts,
 * every sign-in or sign-out as it happens (no restart), and the server's "sign-in needed" becomes one offer to sign
 * in per host.
 */
export async function syncTokens(client: LanguageClient, deps: ClientDeps, identities: Identities): Promise<vscode.Disposable> {
  for (const { host, token } of await deps.credentials.all()) {
    await client.sendNotification(setTokenNotification, { hostname: host, token });
  }
  return vscode.Disposable.from(
    deps.credentials.onDidChange(({ host, token }) => {
      void client.sendNotification(setTokenNotification, { hostname: host, token: token ?? null });
    }),
    deps.events.onSignInNeeded(async ({ hostname, reason }) => {
      log.warn(`Sign-in needed for ${hostname}: ${reason}`);
      if (offered.has(hostname)) return;
      offered.add(hostname);
      void vscode.commands.executeCommand('setContext', 'hcpTerraform.signInHost', hostname);
      const choice = await prompts.warn(`HCP Terraform: ${reason}`, 'Sign In');
      if (choice === 'Sign In') await signIn(deps, identities, hostname, reason);
    }),
  );
}
