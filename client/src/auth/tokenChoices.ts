import * as vscode from 'vscode';
import { log } from '../log';
import { prompts } from '../userPrompts';
import { credentialsFilePath, credentialsFileToken, environmentToken } from './tokenSources';

/** A token to try, and how to name where it came from (never the token itself). */
export interface TokenChoice {
  token: string;
  source: string;
}

interface ChoiceItem extends vscode.QuickPickItem {
  choice?: TokenChoice;
}

/**
 * Asks which token to sign in with: the ones found for the host (TF_TOKEN_<host>, the `terraform login` file) and
 * "Paste a token…". Found tokens already refused in this sign-in (`refused`, by source) are not offered again.
 * Undefined when the user cancels.
 */
export async function chooseToken(host: string, refused: ReadonlySet<string>, reason?: string): Promise<TokenChoice | undefined> {
  const found = foundTokens(host).filter((choice) => !refused.has(choice.source));
  if (found.length === 0) return pasteToken(host, reason, refused.size > 0);
  const items: ChoiceItem[] = [
    ...found.map((choice) => ({ label: `$(key) Use ${choice.source}`, detail: 'found on this machine for this host', choice })),
    { label: '$(edit) Paste a token…', detail: `a user, team or organization API token of ${host}` },
  ];
  const picked = await prompts.quickPick(items, {
    title: `Sign in to ${host}`,
    placeHolder: reason ?? 'Choose the token to sign in with',
    ignoreFocusOut: true,
  });
  if (!picked) return undefined;
  return picked.choice ?? pasteToken(host, reason, refused.size > 0);
}

function foundTokens(host: string): TokenChoice[] {
  const choices: TokenChoice[] = [];
  const fromEnvironment = environmentToken(host, process.env);
  if (fromEnvironment) choices.push({ token: fromEnvironment.token, source: fromEnvironment.from });
  const file = credentialsFileToken(host, credentialsFilePath(process.env));
  if (file.kind === 'found') choices.push({ token: file.found.token, source: `the token of \`terraform login\` (${file.found.from})` });
  if (file.kind === 'problem') log.warn(`${file.message} Its token is not offered at sign-in.`);
  return choices;
}

async function pasteToken(host: string, reason: string | undefined, afterRefusal: boolean): Promise<TokenChoice | undefined> {
  const why = afterRefusal ? `${host} refused the last token. ` : reason ? `${reason} ` : '';
  const token = await prompts.inputBox({
    title: `Sign in to ${host}`,
    prompt: `${why}Paste a user, team or organization API token of ${host} (User Settings → Tokens on the service).`,
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const trimmed = value.trim();
      if (trimmed.length === 0) return 'The token cannot be empty.';
      return /\s/.test(trimmed) ? 'A token has no spaces: paste it again.' : undefined;
    },
  });
  const trimmed = token?.trim();
  return trimmed ? { token: trimmed, source: 'the pasted token' } : undefined;
}
