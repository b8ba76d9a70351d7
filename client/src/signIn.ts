import * as vscode from 'vscode';
import type { Credentials } from './credentials';

/** Asks for an API token for a host and keeps it in SecretStorage. Returns whether one was stored. */
export async function signIn(credentials: Credentials, host: string, reason?: string): Promise<boolean> {
  const token = await vscode.window.showInputBox({
    title: `Sign in to ${host}`,
    prompt: `${reason ? `${reason} ` : ''}Paste a user or team API token for ${host} (User Settings → Tokens on the service).`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const trimmed = value.trim();
      if (trimmed.length === 0) return 'The token cannot be empty.';
      return /\s/.test(trimmed) ? 'A token has no spaces: paste it again.' : undefined;
    },
  });
  if (token === undefined) return false;
  await credentials.store(host, token.trim());
  void vscode.window.showInformationMessage(`HCP Terraform: signed in to ${host}.`);
  return true;
}

/** Forgets the token of a host (asking which one when several are known). */
export async function signOut(credentials: Credentials): Promise<void> {
  const hosts = credentials.hosts();
  if (hosts.length === 0) {
    void vscode.window.showInformationMessage('HCP Terraform: you are not signed in to any host.');
    return;
  }
  const host = hosts.length === 1 ? hosts[0] : await vscode.window.showQuickPick(hosts, { title: 'Sign out of which host?' });
  if (!host) return;
  await credentials.delete(host);
  void vscode.window.showInformationMessage(`HCP Terraform: signed out of ${host}.`);
}
