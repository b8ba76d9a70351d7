import * as vscode from 'vscode';
import { parseStoredIdentity, type StoredIdentity } from './auth/accountLabel';

/**
 * Tokens live in VS Code's SecretStorage, one per service host, so a token is only ever handed to the host it was
 * given for. The list of hosts (not secret) sits in globalState, since SecretStorage cannot be enumerated, and so does
 * who each token is (name and kind, for the Accounts menu; never the token). Nothing here logs a token.
 */
export class Credentials {
  private readonly changed = new vscode.EventEmitter<{ host: string; token: string | undefined }>();
  /** Fires with the host whose token was stored (token set) or removed (token undefined). */
  readonly onDidChange = this.changed.event;

  /** Every token this session has read or stored, so the trace channel can blot them out wherever they appear. */
  private readonly seen = new Set<string>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly state: vscode.Memento,
  ) {}

  async get(host: string): Promise<string | undefined> {
    const token = await this.secrets.get(secretKey(host));
    if (token) this.seen.add(token);
    return token;
  }

  /** A token on its way to be checked (sign-in): blotted out of the trace like stored ones, whatever the answer. */
  noteSecret(token: string): void {
    this.seen.add(token);
  }

  knownTokens(): Iterable<string> {
    return this.seen;
  }

  hosts(): string[] {
    return this.state.get<string[]>(hostsKey, []);
  }

  /** Every stored host with its token, for handing to a freshly started server. */
  async all(): Promise<Array<{ host: string; token: string }>> {
    const entries = await Promise.all(this.hosts().map(async (host) => ({ host, token: await this.get(host) })));
    return entries.filter((entry): entry is { host: string; token: string } => typeof entry.token === 'string');
  }

  /** Stores a host's token; `identity` (who the service said it is) is kept beside the host list, when known. */
  async store(host: string, token: string, identity?: StoredIdentity): Promise<void> {
    this.seen.add(token);
    await this.secrets.store(secretKey(host), token);
    await this.state.update(hostsKey, [...new Set([...this.hosts(), host])]);
    await this.setIdentity(host, identity);
    this.changed.fire({ host, token });
  }

  async delete(host: string): Promise<void> {
    await this.secrets.delete(secretKey(host));
    await this.state.update(hostsKey, this.hosts().filter((known) => known !== host));
    await this.setIdentity(host, undefined);
    this.changed.fire({ host, token: undefined });
  }

  /** Who the host's stored token is, when it was learnt (at sign-in, or lazily for tokens stored before). */
  identity(host: string): StoredIdentity | undefined {
    return parseStoredIdentity(this.state.get<Record<string, unknown>>(identitiesKey, {})[host]);
  }

  async setIdentity(host: string, identity: StoredIdentity | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, unknown>>(identitiesKey, {}) };
    if (identity) all[host] = { kind: identity.kind, name: identity.name, id: identity.id };
    else delete all[host];
    await this.state.update(identitiesKey, all);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** `app.terraform.io`, or `tfe.example.com:8443` when a port is part of the address (as Terraform names hosts). */
export function hostOf(address: string): string {
  return new URL(address).host.toLowerCase();
}

const hostsKey = 'hcpTerraform.signedInHosts';
const identitiesKey = 'hcpTerraform.signedInIdentities';

function secretKey(host: string): string {
  return `hcpTerraform.token/${host}`;
}
