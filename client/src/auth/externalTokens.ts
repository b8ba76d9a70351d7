// Tokens for a host that the extension did not store and so cannot remove: a TF_TOKEN_<host> variable, or the entry
// `terraform login` wrote in its credentials file. The language server signs in with them when the extension stored
// none (server/src/auth/tokens.ts, same order: the variable, then the file), so Sign Out must tell the user about
// them and how to remove them rather than claim they are signed out. No vscode here; never a token in what it says.
import { credentialsFilePath, credentialsFileToken, environmentToken } from './tokenSources';

export type ExternalToken = { kind: 'environment'; variable: string } | { kind: 'credentials-file'; file: string };

/** Where the server would find a token for `host` once the extension's own is gone; undefined when nowhere. */
export function externalToken(host: string, environment: Readonly<Record<string, string | undefined>> = process.env, file = credentialsFilePath(environment)): ExternalToken | undefined {
  const variable = environmentToken(host, environment);
  if (variable) return { kind: 'environment', variable: variable.from };
  const fromFile = credentialsFileToken(host, file);
  return fromFile.kind === 'found' ? { kind: 'credentials-file', file: fromFile.found.from } : undefined;
}

/** "the environment variable TF_TOKEN_app_terraform_io", "the credentials file of `terraform login` (<path>)". */
export function externalTokenPlace(token: ExternalToken): string {
  return token.kind === 'environment' ? `the environment variable ${token.variable}` : `the credentials file of \`terraform login\` (${token.file})`;
}

/** What the user does to remove it: the extension never edits their files or environment. */
export function externalTokenRemoval(host: string, token: ExternalToken): string {
  return token.kind === 'environment'
    ? `remove ${token.variable} from the environment VS Code starts with, then restart VS Code`
    : `run \`terraform logout ${host}\``;
}
