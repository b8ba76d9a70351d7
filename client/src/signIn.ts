// Sign-in as VS Code users expect: offer the tokens the machine already has for the host (TF_TOKEN_<host>, the
// `terraform login` file) or a pasted one, check it with the service before keeping it, and say who it is.
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-languageserver-protocol';
import type { TokenIdentity } from '../../server/src/protocol';
import { validateTokenRequest } from '../../server/src/protocol';
import { accountLabel, type Identities } from './auth/identities';
import { foundTokens } from './auth/tokenSources';
import type { ClientDeps } from './clientDeps';
import { prompts } from './prompts';
import { errorMessage } from './serverAccess';

export interface SignInResult {
  host: string;
  token: string;
  identity: TokenIdentity;
}

/** Asks for a token for `host` until the service accepts one or the user gives up. Stores it; returns who it is. */
export async function signIn(deps: ClientDeps, identities: Identities, host: string, reason?: string): Promise<SignInResult | undefined> {
  for (;;) {
    const token = await chooseToken(host, reason);
    if (token === undefined) return undefined;
    let identity: TokenIdentity;
    try {
      identity = await deps.server.request(validateTokenRequest, { hostname: host, token });
    } catch (error) {
      const refused = error instanceof ResponseError && (error.data as { status?: number } | undefined)?.status === 401;
      const message = refused ? `${host} refused that token: it is wrong, expired or revoked. Nothing was saved.` : `could not check the token with ${host}: ${errorMessage(error)}. Nothing was saved.`;
      const again = await prompts.error(`HCP Terraform: ${message}`, 'Try Another Token');
      if (again !== 'Try Another Token') return undefined;
      reason = undefined;
      continue;
    }
    await identities.set(host, identity);
    await deps.credentials.store(host, token);
    void prompts.info(`HCP Terraform: signed in to ${host} as ${accountLabel(host, identity).replace(` @ ${host}`, '')}.`);
    return { host, token, identity };
  }
}

async function chooseToken(host: string, reason: string | undefined): Promise<string | undefined> {
  const found = foundTokens(host);
  if (found.length > 0) {
    const items = [
      ...found.map((f) => ({
        label: f.source === 'environment' ? `$(symbol-variable) Use ${f.where}` : '$(file) Use the token `terraform login` saved',
        detail: f.source === 'environment' ? 'From the environment VS Code was started with' : f.where,
        token: f.token as string | undefined,
      })),
      { label: '$(key) Paste a token…', detail: 'A user, team or organization API token', token: undefined },
    ];
    const picked = await prompts.pick(items, { title: `Sign in to ${host}`, placeHolder: reason ?? 'Which token?', ignoreFocusOut: true });
    if (!picked) return undefined;
    if (picked.token) return picked.token;
  }
  const pasted = await prompts.input({
    title: `Sign in to ${host}`,
    prompt: `${reason ? `${reason} ` : ''}Paste a user, team or organization API token for ${host} (User Settings → Tokens on the service).`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const trimmed = value.trim();
      if (trimmed.length === 0) return 'The token cannot be empty.';
      return /\s/.test(trimmed) ? 'A token has no spaces: paste it again.' : undefined;
    },
  });
  return pasted?.trim() || undefined;
}

/** Forgets the token of a host (asking which one when several are known). */
export async function signOut(deps: ClientDeps, identities: Identities, host?: string): Promise<void> {
  const hosts = deps.credentials.hosts();
  if (hosts.length === 0) {
    void prompts.info('HCP Terraform: you are not signed in to any host.');
    return;
  }
  const chosen = host ?? (hosts.length === 1 ? hosts[0] : (await prompts.pick(hosts.map((h) => ({ label: h, description: accountLabel(h, identities.get(h)) })), { title: 'Sign out of which host?' }))?.label);
  if (!chosen) return;
  await deps.credentials.delete(chosen);
  await identities.set(chosen, undefined);
  vscode.window.setStatusBarMessage(`HCP Terraform: signed out of ${chosen}`, 4_000);
}
