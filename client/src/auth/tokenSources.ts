// Where a token for a host may already be waiting, so Sign In can offer it instead of asking for a paste: the
// `TF_TOKEN_<host>` variable and the credentials file `terraform login` writes. The same rules as the language
// server's token resolver (server/src/auth/tokens.ts), whose encoding helpers this reuses, so both agree on which
// variable and which file entry belong to a host. No vscode here: unit-tested with plain objects and temp files.
// Nothing here logs or throws a token; a problem is described by the file or variable name only.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { comparableHost, decodeTokenVariableHost, tokenVariableName } from '../../../server/src/auth/tokens';

export interface FoundToken {
  token: string;
  /** The variable's name or the file's path, to show the user where it came from. */
  from: string;
}

export type CredentialsFileResult =
  | { kind: 'found'; found: FoundToken }
  | { kind: 'none' }
  /** The file exists but cannot be used: a message safe to show (never its content). */
  | { kind: 'problem'; message: string };

export { tokenVariableName };

/**
 * The token of `TF_TOKEN_<host>`: dots are `_`, hyphens `__`, and a port stays part of the name as Terraform reads it
 * (`TF_TOKEN_localhost:8443`): a variable without the port is not a token for every port of the host.
 */
export function environmentToken(host: string, environment: Readonly<Record<string, string | undefined>>): FoundToken | undefined {
  const key = comparableHost(host);
  for (const [name, value] of Object.entries(environment)) {
    if (!name.startsWith('TF_TOKEN_') || !value?.trim()) continue;
    const decoded = decodeTokenVariableHost(name);
    if (decoded !== undefined && decoded === key) return { token: value.trim(), from: name };
  }
  return undefined;
}

/** Where `terraform login` keeps tokens: `%APPDATA%\terraform.d` on Windows, else `~/.terraform.d`. */
export function credentialsFilePath(environment: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): string {
  if (platform === 'win32' && environment.APPDATA) return path.join(environment.APPDATA, 'terraform.d', 'credentials.tfrc.json');
  return path.join(environment.HOME ?? os.homedir(), '.terraform.d', 'credentials.tfrc.json');
}

/** `credentials["<host>"].token` of the credentials file (host names compared as Terraform compares them). */
export function credentialsFileToken(host: string, file: string): CredentialsFileResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'none' };
    const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : typeof code === 'string' ? code : 'unreadable';
    return { kind: 'problem', message: `Cannot read ${file} (${why}).` };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // Never quote the parse error: V8 repeats the start of the text, which may be a token.
    return { kind: 'problem', message: `${file} is not valid JSON: run \`terraform login\` again to rewrite it.` };
  }
  const credentials = (document as { credentials?: unknown } | null)?.credentials;
  if (typeof credentials !== 'object' || credentials === null) return { kind: 'none' };
  const key = comparableHost(host);
  for (const [name, entry] of Object.entries(credentials as Record<string, unknown>)) {
    if (comparableHost(name) !== key) continue;
    const token = (entry as { token?: unknown } | null)?.token;
    if (typeof token === 'string' && token.trim()) return { kind: 'found', found: { token: token.trim(), from: file } };
  }
  return { kind: 'none' };
}
