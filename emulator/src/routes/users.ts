// Users and `GET /account/details`: how a client learns who (and what kind of token) it is (notes §2).
import type { Router } from '../http/router';
import { ok } from '../http/context';
import { notFound } from '../http/errors';
import { relationship } from '../http/jsonapi';
import type { Caller } from '../store/caller';
import { organizationsOf } from '../store/permissions';
import type { User } from '../store/model';
import type { Store } from '../store/store';

export function serializeUser(user: User, options: { withEmail?: boolean } = {}): Record<string, unknown> {
  return {
    id: user.id,
    type: 'users',
    attributes: {
      username: user.username,
      'is-service-account': user.isServiceAccount,
      'avatar-url': `https://www.gravatar.com/avatar/${user.id.slice(5)}?s=100&d=mm`,
      'v2-only': false,
      'is-site-admin': false,
      'is-sso-login': false,
      'two-factor': { enabled: false, verified: false },
      ...(options.withEmail ? { email: user.email } : {}),
      permissions: { 'can-create-organizations': !user.isServiceAccount, 'can-change-email': !user.isServiceAccount, 'can-change-username': !user.isServiceAccount },
    },
    relationships: {
      'authentication-tokens': { links: { related: `/api/v2/users/${user.id}/authentication-tokens` } },
    },
    links: { self: `/api/v2/users/${user.id}` },
  };
}

function authenticatedResource(caller: Caller): Record<string, unknown> {
  switch (caller.kind) {
    case 'user':
      return relationship('users', caller.user.id, `/api/v2/users/${caller.user.id}`);
    case 'team':
      return relationship('teams', caller.team.id, `/api/v2/teams/${caller.team.id}`);
    case 'organization':
      return relationship('organizations', caller.organization, `/api/v2/organizations/${caller.organization}`);
  }
}

/** Users the caller shares an organization with (or itself). */
function canSeeUser(store: Store, caller: Caller, user: User): boolean {
  if (user.id === caller.user.id) return true;
  const organizations = new Set(organizationsOf(store, caller));
  return [...store.teams.values()].some((t) => organizations.has(t.organization) && t.memberIds.includes(user.id));
}

export function registerUserRoutes(router: Router): void {
  router.add('GET', '/api/v2/account/details', (ctx) => {
    const document = serializeUser(ctx.caller.user, { withEmail: true });
    (document.relationships as Record<string, unknown>)['authenticated-resource'] = authenticatedResource(ctx.caller);
    return ok({ data: document });
  });
  router.add('GET', '/api/v2/users/:user_id', (ctx) => {
    const user = ctx.store.users.get(ctx.params.user_id);
    if (!user || !canSeeUser(ctx.store, ctx.caller, user)) throw notFound();
    return ok({ data: serializeUser(user, { withEmail: user.id === ctx.caller.user.id }) });
  });
}
