import type * as vscode from 'vscode';
import type { TokenIdentity } from '../../../server/src/protocol';

const identitiesKey = 'hcpTerraform.accountIdentities';

/** Who each host's stored token is (name, kind, id): shown as the account, kept beside the host list. No secret. */
export class Identities {
  constructor(private readonly state: vscode.Memento) {}

  get(host: string): TokenIdentity | undefined {
    return this.state.get<Record<string, TokenIdentity>>(identitiesKey, {})[host];
  }

  async set(host: string, identity: TokenIdentity | undefined): Promise<void> {
    const all = { ...this.state.get<Record<string, TokenIdentity>>(identitiesKey, {}) };
    if (identity) all[host] = { kind: identity.kind, name: identity.name, id: identity.id };
    else delete all[host];
    await this.state.update(identitiesKey, all);
  }
}

/** "olivia-owner @ app.terraform.io", "owners @ tfe.example.com (team token)". */
export function accountLabel(host: string, identity: TokenIdentity | undefined): string {
  if (!identity) return host;
  const kind = identity.kind === 'team' ? ' (team token)' : identity.kind === 'organization' ? ' (organization token)' : '';
  return `${identity.name} @ ${host}${kind}`;
}
