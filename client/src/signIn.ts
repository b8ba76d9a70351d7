import * as vscode from 'vscode';
import { validateTokenRequest, type TokenIdentity } from '../../server/src/protocol';
import { signedInMessage } from './auth/accountLabel';
import { externalToken, externalTokenPlace, externalTokenRemoval, type ExternalToken } from './auth/externalTokens';
import { chooseToken } from './auth/tokenChoices';
import type { ClientDeps } from './clientDeps';
import { hostOf } from './credentials';
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

/** Where a host's token lies when the extension stored none (injected by tests). */
export type ExternalTokenLookup = (host: string) => ExternalToken | undefined;

/**
 * Signs out of a host (asking which one when several are signed in): forgets the token the extension stored, and
 * tells the truth about a token it cannot forget. The server also signs in with TF_TOKEN_<host> and the credentials
 * file of `terraform login`; when one of those remains, the message says so and how to remove it, instead of
 * "signed out" (or "not signed in") while the views still show the account.
 */
export async function signOut(deps: Pick<ClientDeps, 'credentials' | 'address'>, host?: string, lookup: ExternalTokenLookup = (name) => externalToken(name)): Promise<void> {
  const stored = deps.credentials.hosts();
  const candidates = [...new Set([...stored, ...(host ? [host] : []), ...configuredHost(deps.address())])];
  const signedIn = candidates
    .map((name) => ({ host: name, stored: stored.includes(name), external: lookup(name) }))
    .filter((entry) => entry.stored || entry.external);
  if (signedIn.length === 0 || (host && !signedIn.some((entry) => entry.host === host))) {
    void prompts.information(host ? `HCP Terraform: you are not signed in to ${host}.` : 'HCP Terraform: you are not signed in to any host.');
    return;
  }
  const items = signedIn.map((entry) => ({ label: entry.host, description: entry.stored ? 'signed in by HCP Terraform' : `token from ${externalTokenPlace(entry.external!)}`, entry }));
  const chosen = host ? signedIn.find((entry) => entry.host === host) : signedIn.length === 1 ? signedIn[0] : (await prompts.quickPick(items, { title: 'Sign out of which host?' }))?.entry;
  if (!chosen) return;
  if (chosen.stored) await deps.credentials.delete(chosen.host);
  if (!chosen.external) {
    void prompts.information(`HCP Terraform: signed out of ${chosen.host}.`);
    return;
  }
  const place = externalTokenPlace(chosen.external);
  const removal = externalTokenRemoval(chosen.host, chosen.external);
  void prompts.warning(
    chosen.stored
      ? `HCP Terraform: removed the token HCP Terraform stored for ${chosen.host}, but you are still signed in there with the token from ${place}, which HCP Terraform does not change. To sign out, ${removal}.`
      : `HCP Terraform: you are signed in to ${chosen.host} with the token from ${place}, which HCP Terraform does not change. To sign out, ${removal}.`,
  );
}

/** The configured address's host, where the server signs in by default; none while the address is not a URL. */
function configuredHost(address: string): string[] {
  try {
    return [hostOf(address)];
  } catch {
    return [];
  }
}

/** The server's answer to a token the service refused: a ResponseError whose data is `{ status: 401 }`. */
function isRefused(error: unknown): boolean {
  const data = (error as { data?: unknown } | null)?.data;
  return typeof data === 'object' && data !== null && (data as { status?: unknown }).status === 401;
}
