import * as vscode from 'vscode';
import { validateTokenRequest, type TokenIdentity } from '../../server/src/protocol';
import { signedInMessage } from './auth/accountLabel';
import { chooseToken } from './auth/tokenChoices';
import type { ClientDeps } from './clientDeps';
import { errorMessage } from './serverAccess';
import { prompts } from './userPrompts';

/** How a sign-in ended: the account it made, or why there is none (nothing was stored then). */
export type SignInOutcome = { kind: 'signed-in'; identity: TokenIdentity } | { kind: 'cancelled' } | { kind: 'failed'; message: string };

/**
 * Signs in to a host: offers the tokens found for it or a paste, checks the chosen one with the service BEFORE
 * keeping it, and stores it (with who it is) only when the service accepts it. A refused token (401) is said to be
 * refused and the user is asked again; any other failure is reported and ends the sign-in. No token is logged.
 */
export async function signIn(deps: Pick<ClientDeps, 'server' | 'credentials'>, host: string, reason?: string): Promise<SignInOutcome> {
  const refused = new Set<string>();
  for (;;) {
    const choice = await chooseToken(host, refused, reason);
    if (!choice) return { kind: 'cancelled' };
    deps.credentials.noteSecret(choice.token);
    let identity: TokenIdentity;
    try {
      identity = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `HCP Terraform: checking the token with ${host}…` },
        () => deps.server.request(validateTokenRequest, { hostname: host, token: choice.token }),
      );
    } catch (error) {
      if (isRefused(error)) {
        refused.add(choice.source);
        // Not awaited: the question comes back at once, the message says why.
        void prompts.error(`HCP Terraform: ${host} refused ${choice.source} (401 Unauthorized): it is wrong, expired or revoked. Nothing was stored; choose or paste another token.`);
        continue;
      }
      const message = `HCP Terraform: could not check the token with ${host}: ${errorMessage(error).replace(/\.?$/, '.')} Nothing was stored; try Sign In again.`;
      void prompts.error(message);
      return { kind: 'failed', message };
    }
    await deps.credentials.store(host, choice.token, identity);
    void prompts.information(`HCP Terraform: ${signedInMessage(host, identity)}`);
    return { kind: 'signed-in', identity };
  }
}

/** Forgets the token of a host (asking which one when several are known). */
export async function signOut(deps: Pick<ClientDeps, 'credentials'>, host?: string): Promise<void> {
  const hosts = deps.credentials.hosts();
  if (hosts.length === 0) {
    void prompts.information('HCP Terraform: you are not signed in to any host.');
    return;
  }
  const chosen = host ?? (hosts.length === 1 ? hosts[0] : (await prompts.quickPick(hosts.map((label) => ({ label })), { title: 'Sign out of which host?' }))?.label);
  if (!chosen) return;
  await deps.credentials.delete(chosen);
  void prompts.information(`HCP Terraform: signed out of ${chosen}.`);
}

/** The server's answer to a token the service refused: a ResponseError whose data is `{ status: 401 }`. */
function isRefused(error: unknown): boolean {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && (data as { status?: unknown }).status === 401;
}
