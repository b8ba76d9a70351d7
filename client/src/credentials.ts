import * as vscode from 'vscode';

/**
 * Tokens live in VS Code's SecretStorage, one per service host, so a token is only ever handed to the host
 * it was given for. Nothing here logs a token.
 */
export class Credentials {
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the host whose token was stored or removed. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(address: string): Thenable<string | undefined> {
    return this.secrets.get(secretKey(address));
  }

  async store(address: string, token: string): Promise<void> {
    await this.secrets.store(secretKey(address), token);
    this.changed.fire(hostOf(address));
  }

  async delete(address: string): Promise<void> {
    await this.secrets.delete(secretKey(address));
    this.changed.fire(hostOf(address));
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function hostOf(address: string): string {
  return new URL(address).host.toLowerCase();
}

function secretKey(address: string): string {
  return `hcpTerraform.token/${hostOf(address)}`;
}
