// Finds the API token for a service host the way Terraform does, first found wins:
//   1. the client (initializationOptions, or hcpTerraform/setToken when the user signs in), per host;
//   2. TF_TOKEN_<host> (dots → `_`, hyphens → `__`, non-ASCII host names in punycode);
//   3. the credentials file `terraform login` writes (~/.terraform.d/credentials.tfrc.json, `credentials.<host>.token`).
// A token is only ever returned for the host it was stored under, so it is only sent there. Tokens never appear in
// a warning or a log line; only where a token came from is reported.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { domainToASCII } from 'node:url';

export type TokenSource = 'client' | 'environment' | 'credentials-file';

export interface ResolvedToken {
  token: string;
  source: TokenSource;
  /** For `environment`: the variable's name; for `credentials-file`: the file. */
  from?: string;
}

export interface TokenResolverOptions {
  environment?: Readonly<Record<string, string | undefined>>;
  /** The user's home folder (default: HOME, else the OS's idea of it). */
  homeDirectory?: string;
  /** Reads a file; undefined when it does not exist. Injected by tests. */
  readFile?: (file: string) => string | undefined;
  /** Problems worth telling the user (an unreadable credentials file), once each. */
  onWarning?: (message: string) => void;
}

export class TokenResolver {
  private readonly clientTokens = new Map<string, string>();
  private readonly environment: Readonly<Record<string, string | undefined>>;
  private readonly homeDirectory: string;
  private readonly readFile: (file: string) => string | undefined;
  private readonly warned = new Set<string>();

  constructor(private readonly options: TokenResolverOptions = {}) {
    this.environment = options.environment ?? process.env;
    this.homeDirectory = options.homeDirectory ?? this.environment.HOME ?? os.homedir();
    this.readFile = options.readFile ?? readIfExists;
  }

  /** The client's token for `host` (null/empty removes it: signed out). Returns whether anything changed. */
  setClientToken(host: string, token: string | null | undefined): boolean {
    const key = comparableHost(host);
    const value = typeof token === 'string' ? token.trim() : '';
    const previous = this.clientTokens.get(key);
    if (value) this.clientTokens.set(key, value);
    else this.clientTokens.delete(key);
    return previous !== (value || undefined);
  }

  resolve(host: string): ResolvedToken | undefined {
    const key = comparableHost(host);
    const fromClient = this.clientTokens.get(key);
    if (fromClient) return { token: fromClient, source: 'client' };
    return this.fromEnvironment(key) ?? this.fromCredentialsFile(key);
  }

  /** Where Terraform keeps `terraform login` tokens. */
  credentialsFilePath(): string {
    const appData = this.environment.APPDATA;
    return process.platform === 'win32' && appData
      ? path.join(appData, 'terraform.d', 'credentials.tfrc.json')
      : path.join(this.homeDirectory, '.terraform.d', 'credentials.tfrc.json');
  }

  private fromEnvironment(host: string): ResolvedToken | undefined {
    // Environment variable names cannot hold a port, so `localhost:8080` is looked up as `localhost` (as Terraform
    // cannot express it either, this only adds a way that otherwise does not exist).
    const wanted = new Set([host, host.replace(/:\d+$/, '')]);
    for (const [name, value] of Object.entries(this.environment)) {
      if (!name.startsWith('TF_TOKEN_') || !value || !value.trim()) continue;
      const decoded = decodeTokenVariableHost(name);
      if (decoded !== undefined && wanted.has(decoded)) return { token: value.trim(), source: 'environment', from: name };
    }
    return undefined;
  }

  private fromCredentialsFile(host: string): ResolvedToken | undefined {
    const file = this.credentialsFilePath();
    let text: string | undefined;
    try {
      text = this.readFile(file);
    } catch (error) {
      this.warnOnce(`Cannot read ${file} (${describeError(error)}); tokens saved by \`terraform login\` are not used.`);
      return undefined;
    }
    if (text === undefined) return undefined;
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      this.warnOnce(`${file} is not valid JSON; tokens saved by \`terraform login\` are not used. Run \`terraform login\` again to rewrite it.`);
      return undefined;
    }
    const credentials = (document as { credentials?: unknown } | null)?.credentials;
    if (typeof credentials !== 'object' || credentials === null) return undefined;
    for (const [name, entry] of Object.entries(credentials as Record<string, unknown>)) {
      if (comparableHost(name) !== host) continue;
      const token = (entry as { token?: unknown } | null)?.token;
      if (typeof token === 'string' && token.trim()) return { token: token.trim(), source: 'credentials-file', from: file };
    }
    return undefined;
  }

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.options.onWarning?.(message);
  }
}

/** The variable Terraform reads a host's token from: TF_TOKEN_app_terraform_io, TF_TOKEN_my__tfe_example_com. */
export function tokenVariableName(host: string): string {
  return `TF_TOKEN_${comparableHost(host).replace(/:\d+$/, '').replace(/-/g, '__').replace(/\./g, '_')}`;
}

/** The host a TF_TOKEN_ variable names, in comparable form; undefined when the name cannot be one. */
export function decodeTokenVariableHost(name: string): string | undefined {
  const encoded = name.slice('TF_TOKEN_'.length);
  if (!encoded) return undefined;
  // `__` first: it stands for a hyphen, a single `_` for a dot.
  const host = encoded.replace(/__/g, '-').replace(/_/g, '.');
  return comparableHost(host);
}

/** Lower case, punycode for non-ASCII labels, no trailing dot: how Terraform compares host names. */
export function comparableHost(host: string): string {
  const trimmed = host.trim().replace(/\.$/, '');
  const [name, port] = splitPort(trimmed);
  const ascii = /^[\x00-\x7f]*$/.test(name) ? name.toLowerCase() : domainToASCII(name.toLowerCase()) || name.toLowerCase();
  return port ? `${ascii}:${port}` : ascii;
}

function splitPort(host: string): [string, string | undefined] {
  const match = /^(.*):(\d+)$/.exec(host);
  return match ? [match[1]!, match[2]] : [host, undefined];
}

function readIfExists(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
