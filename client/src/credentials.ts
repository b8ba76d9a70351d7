import * as vscode from 'vscode';

/**
 * Tokens live in VS Code's SecretStorage, one per service host, so a token is only ever handed to the host it was
 * given for. The list of hosts (not secret) sits in globalState, since SecretStorage cannot be enumerated.
 * Nothing here logs a token.
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

  async store(host: string, token: string): Promise<void> {
    this.seen.add(token);
    await this.secrets.store(secretKey(host), token);
    await this.state.update(hostsKey, [...new Set([...this.hosts(), host])]);
    this.changed.fire({ host, token });
  }

  async delete(host: string): Promise<void> {
    await this.secrets.delete(secretKey(host));
    await this.state.update(hostsKey, this.hosts().filter((known) => known !== host));
    this.changed.fire({ host, token: undefined });
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

function secretKey(host: string): string {
  return `hcpTerraform.token/${host}`;
}
