// Finds the API token for a service host the way Terraform does, first found wins:
//   1. the client (initializationOptions, or hcpTerraform/setToken when the user signs in), per host;
//   2. TF_TOKEN_<host> (dots → `_`, hyphens → `__`, non-ASCII host names in punycode, a port kept: `TF_TOKEN_localhost:8443`);
//   3. the credentials file `terraform login` writes (~/.terraform.d/credentials.tfrc.json, `credentials.<host>.token`).
// A token is only ever returned for the host it was stored under, so it is only sent there. Tokens never appear in
// a warning or a log line; only where a token came from is reported.
//
// resolve() is called many times a second (every isSignedIn while indexing and typing), so it must be cheap: the
// environment is decoded once, and the credentials file is only read again when its identity on disk changed.
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { domainToASCII, domainToUnicode } from 'node:url';

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
  /**
   * The identity of a file on disk; undefined when it does not exist. The credentials file is read again only when
   * this changes. Injected by tests; when `readFile` is injected without it, the file is read on every resolve.
   */
  statFile?: (file: string) => FileIdentity | undefined;
  /** Problems worth telling the user (an unreadable credentials file), once each. */
  onWarning?: (message: string) => void;
}

/** What tells one version of a file from another without reading it (`terraform login` replaces the file). */
export interface FileIdentity {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** The credentials file as last read: its tokens by comparable host, and the identity it had when read. */
interface CredentialsSnapshot {
  identity: FileIdentity | undefined;
  tokens: ReadonlyMap<string, string>;
}

export class TokenResolver {
  private readonly clientTokens = new Map<string, string>();
  private readonly environment: Readonly<Record<string, string | undefined>>;
  private readonly homeDirectory: string;
  private readonly readFile: (file: string) => string | undefined;
  /** Undefined: no way to tell whether the file changed, so it is read every time (a test's injected readFile). */
  private readonly statFile: ((file: string) => FileIdentity | undefined) | undefined;
  private readonly warned = new Set<string>();
  /** TF_TOKEN_* decoded, built on first use: comparable host → the first usable variable for it. */
  private environmentTokens: ReadonlyMap<string, { token: string; variable: string }> | undefined;
  private credentials: CredentialsSnapshot | undefined;
  /** What is wrong with the credentials file as last read (unreadable, not JSON, another shape); undefined when fine. */
  private fileProblem: string | undefined;

  constructor(private readonly options: TokenResolverOptions = {}) {
    // The environment is taken as fixed for the resolver's life: Terraform too reads its environment once, at start,
    // and the server never changes process.env. Enumerating process.env is slow, so it is done once.
    this.environment = options.environment ?? process.env;
    this.homeDirectory = options.homeDirectory ?? this.environment.HOME ?? os.homedir();
    this.readFile = options.readFile ?? readIfExists;
    this.statFile = options.statFile ?? (options.readFile ? undefined : statIfExists);
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

  /**
   * Why the credentials file's tokens are not used, when it exists but cannot be (the sign-in advice then says to fix
   * it: `terraform login` writes to that same file). Undefined when it is fine or absent.
   */
  credentialsFileProblem(): string | undefined {
    this.credentialsFileTokens(this.credentialsFilePath());
    return this.fileProblem;
  }

  /** Where Terraform keeps `terraform login` tokens. */
  credentialsFilePath(): string {
    const appData = this.environment.APPDATA;
    return process.platform === 'win32' && appData
      ? path.join(appData, 'terraform.d', 'credentials.tfrc.json')
      : path.join(this.homeDirectory, '.terraform.d', 'credentials.tfrc.json');
  }

  private fromEnvironment(host: string): ResolvedToken | undefined {
    this.environmentTokens ??= decodeEnvironmentTokens(this.environment);
    const found = this.environmentTokens.get(host);
    return found && { token: found.token, source: 'environment', from: found.variable };
  }

  private fromCredentialsFile(host: string): ResolvedToken | undefined {
    const file = this.credentialsFilePath();
    const token = this.credentialsFileTokens(file)?.get(host);
    return token === undefined ? undefined : { token, source: 'credentials-file', from: file };
  }

  /**
   * The file's tokens, read again only when its identity changed (a `terraform login` while the server runs replaces
   * the file: another inode, mtime or size) or it appeared or went away. Undefined when it cannot be read.
   */
  private credentialsFileTokens(file: string): ReadonlyMap<string, string> | undefined {
    const identity = this.identityOf(file);
    const cached = this.credentials;
    if (identity !== null && cached && sameIdentity(cached.identity, identity)) return cached.tokens;
    const tokens = this.readCredentialsFile(file);
    // A file that could not be read is not remembered: fixing its permissions changes neither mtime nor size.
    this.credentials = identity !== null && tokens ? { identity, tokens } : undefined;
    return tokens;
  }

  /** The file's identity, undefined when it does not exist; null when unknown (no stat function, or stat failed). */
  private identityOf(file: string): FileIdentity | undefined | null {
    if (!this.statFile) return null;
    try {
      return this.statFile(file);
    } catch {
      return null; // reading it says why, once
    }
  }

  /** Its tokens by host: none when it does not exist or cannot be used; undefined when it cannot be read. */
  private readCredentialsFile(file: string): ReadonlyMap<string, string> | undefined {
    this.fileProblem = undefined;
    let text: string | undefined;
    try {
      text = this.readFile(file);
    } catch (error) {
      this.problem(file, `cannot be read (${describeError(error)})`, 'Fix its permissions');
      return undefined;
    }
    if (text === undefined) return new Map();
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch {
      // Never the parser's message: it quotes the text, which holds tokens.
      this.problem(file, 'is not valid JSON', 'Fix the JSON or delete the file');
      return new Map();
    }
    const read = credentialsByHost(document);
    if (!read.wellShaped) this.problem(file, `is not shaped as \`terraform login\` writes it (${credentialsShape})`, 'Fix it to that shape or delete the file');
    return read.tokens;
  }

  /** Remembers the file's problem and tells it once: what is wrong, what it costs, what to do (never its content). */
  private problem(file: string, what: string, fix: string): void {
    this.fileProblem = `${file} ${what}`;
    this.warnOnce(`${file} ${what}, so the tokens \`terraform login\` saved there are not used. ${fix}, then sign in again (\`terraform login\` writes to this same file).`);
  }

  private warnOnce(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    this.options.onWarning?.(message);
  }
}

/**
 * TF_TOKEN_* variables by the comparable host they name. Terraform's rule exactly: the port is part of the host, so
 * TF_TOKEN_localhost is not a token for localhost:8080 (it would send one host's token to every port of it). The
 * first usable variable for a host wins, in the environment's order; blank values are no token, values are trimmed.
 */
function decodeEnvironmentTokens(environment: Readonly<Record<string, string | undefined>>): Map<string, { token: string; variable: string }> {
  const tokens = new Map<string, { token: string; variable: string }>();
  for (const [name, value] of Object.entries(environment)) {
    if (!name.startsWith('TF_TOKEN_') || !value || !value.trim()) continue;
    const host = decodeTokenVariableHost(name);
    if (host !== undefined && !tokens.has(host)) tokens.set(host, { token: value.trim(), variable: name });
  }
  return tokens;
}

/** `credentials.<host>.token` by comparable host; the first entry with a usable token wins for a host. */
const credentialsShape = '{"credentials": {"<host>": {"token": "<token>"}}}';

/** The file's tokens by comparable host, and whether it has the shape Terraform reads (entries it cannot use are not). */
function credentialsByHost(document: unknown): { tokens: Map<string, string>; wellShaped: boolean } {
  const tokens = new Map<string, string>();
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return { tokens, wellShaped: false };
  const credentials = (document as { credentials?: unknown }).credentials;
  if (credentials === undefined) return { tokens, wellShaped: true }; // a file with other CLI settings only
  if (typeof credentials !== 'object' || credentials === null || Array.isArray(credentials)) return { tokens, wellShaped: false };
  let wellShaped = true;
  for (const [name, entry] of Object.entries(credentials as Record<string, unknown>)) {
    const host = comparableHost(name);
    const token = (entry as { token?: unknown } | null)?.token;
    if (typeof token !== 'string') wellShaped = false;
    else if (!tokens.has(host) && token.trim()) tokens.set(host, token.trim());
  }
  return { tokens, wellShaped };
}

/**
 * The variable Terraform reads a host's token from: TF_TOKEN_app_terraform_io, TF_TOKEN_my__tfe_example_com. A port
 * stays in the name as Terraform compares it (`TF_TOKEN_localhost:8443`, 443 left out): Terraform keeps the port in
 * the host it looks up, so a variable without one never matches a host with one. Such a name cannot be `export`ed
 * from a POSIX shell; `env 'TF_TOKEN_localhost:8443=…' command` sets it.
 */
export function tokenVariableName(host: string): string {
  return `TF_TOKEN_${comparableHost(host).replace(/-/g, '__').replace(/\./g, '_')}`;
}

/**
 * The host a TF_TOKEN_ variable names, in comparable form; undefined when the name cannot be one. Terraform's rules
 * (internal/command/cliconfig collectCredentialsFromEnv): `__` is a hyphen, then `_` a dot; the rest may be written
 * as is (dots, hyphens, punycode or UTF-8, any case); a `:port` stays part of the host.
 */
export function decodeTokenVariableHost(name: string): string | undefined {
  if (!name.startsWith('TF_TOKEN_')) return undefined;
  const raw = name.slice('TF_TOKEN_'.length).replace(/__/g, '-').replace(/_/g, '.');
  return hostForComparison(hostForDisplay(raw));
}

/**
 * Lower case, punycode for non-ASCII labels, no trailing dot, port 443 left out: how Terraform compares host names
 * (svchost.ForComparison). Lenient where Terraform would refuse (a key for anything the user wrote); strict checks
 * are hostForComparison's.
 */
export function comparableHost(host: string): string {
  const trimmed = host.trim().replace(/\.$/, '');
  const [name, port] = splitPort(trimmed);
  const lower = name.toLowerCase();
  const ascii = /^[\x00-\x7f]*$/.test(lower) ? lower : domainToASCII(lower) || lower;
  const normalizedPort = port === undefined ? undefined : normalizePort(port);
  return normalizedPort ? `${ascii}:${normalizedPort}` : ascii;
}

/**
 * svchost.ForComparison: the host in comparable form, or undefined where Terraform reports an error (an empty label,
 * a label already in punycode, a port that is not a number or above 65535, a name IDNA rejects).
 */
export function hostForComparison(given: string): string | undefined {
  const colon = given.indexOf(':');
  const name = colon < 0 ? given : given.slice(0, colon);
  let port: string | undefined;
  if (colon >= 0) {
    const digits = given.slice(colon + 1);
    if (!/^\d+$/.test(digits) || Number(digits) > 65535) return undefined;
    port = normalizePort(digits);
  }
  if (!name || name.split('.').some((label) => label === '' || label.toLowerCase().startsWith('xn--'))) return undefined;
  const ascii = domainToASCII(name);
  if (!ascii) return undefined;
  return port ? `${ascii}:${port}` : ascii;
}

/**
 * svchost.ForDisplay: punycode labels back to Unicode, with IDNA's transitional mapping (ß → ss, ς → σ, joiners
 * dropped), so that a variable written either way names the same host. Unchanged when IDNA rejects it.
 */
function hostForDisplay(given: string): string {
  const colon = given.indexOf(':');
  const name = colon < 0 ? given : given.slice(0, colon);
  const portPortion = colon < 0 ? '' : given.slice(colon);
  const port = portPortion && /^:\d+$/.test(portPortion) ? normalizePort(portPortion.slice(1)) : undefined;
  const shownPort = portPortion ? (port === undefined ? portPortion : port ? `:${port}` : '') : '';
  const transitional = name.replace(/ß/g, 'ss').replace(/ς/g, 'σ').replace(/[\u200c\u200d]/g, '');
  const ascii = domainToASCII(transitional);
  if (!ascii) return given;
  const display = domainToUnicode(ascii);
  return (display || given.slice(0, name.length)) + shownPort;
}

/** A port as Terraform keeps it: without leading zeros; 443 (the https default) is no port at all (''). */
function normalizePort(port: string): string {
  const value = Number(port);
  if (!Number.isInteger(value)) return port;
  return value === 443 ? '' : String(value);
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

function statIfExists(file: string): FileIdentity | undefined {
  try {
    const { mtimeMs, size, ino } = statSync(file);
    return { mtimeMs, size, ino };
  } catch (error) {
    if ((error as { code?: string }).code === 'ENOENT' || (error as { code?: string }).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function sameIdentity(a: FileIdentity | undefined, b: FileIdentity | undefined): boolean {
  if (!a || !b) return a === b;
  return a.mtimeMs === b.mtimeMs && a.size === b.size && a.ino === b.ino;
}

function describeError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
}
