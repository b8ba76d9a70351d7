// How an account reads in the Accounts menu and in messages: "olivia-owner @ app.terraform.io", and for a token
// that is not a user's, what it is, since a team or organization token may do less than the user expects.
import type { TokenIdentity } from '../../../server/src/protocol';

/** What is kept about a token besides it (in globalState, never the token): enough to label the account. */
export type StoredIdentity = Pick<TokenIdentity, 'kind' | 'name' | 'id'>;

/** "(team token)", "(organization token)", or nothing for a user's own token. */
export function tokenKindSuffix(kind: TokenIdentity['kind']): string {
  switch (kind) {
    case 'team':
      return '(team token)';
    case 'organization':
      return '(organization token)';
    default:
      return '';
  }
}

/** The account label: "<name> @ <host>" plus the token kind; just the host while the identity is not known yet. */
export function accountLabel(host: string, identity: StoredIdentity | undefined): string {
  if (!identity) return host;
  const suffix = tokenKindSuffix(identity.kind);
  return `${identity.name} @ ${host}${suffix ? ` ${suffix}` : ''}`;
}

/** "Signed in to app.terraform.io as olivia-owner (team token)." */
export function signedInMessage(host: string, identity: StoredIdentity): string {
  const suffix = tokenKindSuffix(identity.kind);
  return `Signed in to ${host} as ${identity.name}${suffix ? ` ${suffix}` : ''}.`;
}

/** Reads back what globalState holds, dropping anything malformed (an older or hand-edited state never crashes). */
export function parseStoredIdentity(value: unknown): StoredIdentity | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, name, id } = value as Record<string, unknown>;
  if (typeof name !== 'string' || typeof id !== 'string') return undefined;
  const knownKind = kind === 'user' || kind === 'team' || kind === 'organization' ? kind : 'unknown';
  return { kind: knownKind, name, id };
}
