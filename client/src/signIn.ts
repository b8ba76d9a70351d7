import * as vscode from 'vscode';
import type { Credentials } from './credentials';
import { hostOf } from './credentials';

/** Asks for an API token for the given address and keeps it in SecretStorage. Returns whether one was stored. */
export async function signIn(credentials: Credentials, address: string): Promise<boolean> {
  const host = hostOf(address);
  const token = await vscode.window.showInputBox({
    title: `Sign in to ${host}`,
    prompt: `Paste a user or team API token for ${host} (create one under User Settings → Tokens).`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim().length === 0 ? 'The token cannot be empty.' : /\s/.test(value.trim()) ? 'A token has no spaces.' : undefined),
  });
  if (token === undefined) return false;
  await credentials.store(address, token.trim());
  void vscode.window.showInformationMessage(`Signed in to ${host}.`);
  return true;
}
