// Bearer token → Caller. Unknown, malformed and expired tokens resolve to null (the server answers 401);
// the token itself is never logged or echoed.
import type { Caller } from '../store/caller';
import type { Store } from '../store/store';

export function bearerToken(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}

export function resolveCaller(store: Store, authorization: string | undefined): Caller | null {
  const secret = bearerToken(authorization);
  if (!secret) return null;
  const token = store.tokens.get(secret);
  if (!token) return null;
  if (token.expiredAt && token.expiredAt.getTime() <= store.now().getTime()) return null;
  const owner = token.owner;
  switch (owner.kind) {
    case 'user': {
      const user = store.users.get(owner.userId);
      return user ? { kind: 'user', token, user } : null;
    }
    case 'team': {
      const team = store.teams.get(owner.teamId);
      const user = team && store.users.get(team.serviceUserId);
      return team && user ? { kind: 'team', token, team, user } : null;
    }
    case 'organization': {
      const organization = store.organization(owner.organization);
      const user = organization && store.users.get(organization.serviceUserId);
      return organization && user ? { kind: 'organization', token, organization: organization.name, user } : null;
    }
  }
}

/** Marks the token as used (served as `last-used-at`). */
export function touchToken(store: Store, caller: Caller): void {
  caller.token.lastUsedAt = store.now();
}
