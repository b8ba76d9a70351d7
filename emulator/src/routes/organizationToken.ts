// The organization API token (spec §4.4, notes §9): one per organization; generating replaces (and revokes)
// the previous one. Only owners-team members, the owners team token and the organization token may manage it;
// anyone else gets 404.
import type { Router } from '../http/router';
import { created, noContent, ok } from '../http/context';
import { invalidAttribute, notFound } from '../http/errors';
import { isoMillis, readAttributes, readData } from '../http/jsonapi';
import type { Caller } from '../store/caller';
import type { Token } from '../store/model';
import { newId, newTokenSecret } from '../store/ids';
import { canManageOrganizationToken } from '../store/permissions';
import type { Store } from '../store/store';

const expiredAtPointer = '/data/attributes/expired-at';
/** ISO 8601 date-time in UTC: a `Z` or `+00:00` offset, seconds and fractions optional. */
const utcDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|\+00:00|\+0000)$/;

export function serializeOrganizationToken(token: Token, options: { withSecret: boolean }): Record<string, unknown> {
  return {
    id: token.id,
    type: 'authentication-tokens',
    attributes: {
      'created-at': isoMillis(token.createdAt),
      'last-used-at': token.lastUsedAt ? isoMillis(token.lastUsedAt) : null,
      description: null,
      // The secret is readable only in the generation response (spec §2.6).
      token: options.withSecret ? token.secret : null,
      'expired-at': token.expiredAt ? isoMillis(token.expiredAt) : null,
    },
    relationships: {
      'created-by': { data: token.createdBy },
    },
  };
}

/** Reads `expired-at`: omitted or null = never expires; otherwise a future UTC date-time, or 422. */
export function readExpiredAt(body: unknown, now: Date): Date | null {
  const data = readData(body);
  // The spec's word exactly ("must be `authentication-token`"), though the response's type is the plural.
  if (data.type !== 'authentication-token') {
    throw invalidAttribute('data.type must be "authentication-token".', '/data/type');
  }
  const value = readAttributes(data)['expired-at'];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !utcDateTime.test(value)) {
    throw invalidAttribute('expired-at must be a UTC date-time in ISO 8601, e.g. 2030-01-31T00:00:00Z, or null.', expiredAtPointer);
  }
  const date = new Date(value.replace(/\+0000$/, 'Z'));
  // Date rolls impossible days over (Feb 31 → Mar 3); a real date reads back with the same calendar day.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value.slice(0, 10)) {
    throw invalidAttribute(`expired-at "${value}" is not a real date.`, expiredAtPointer);
  }
  if (date.getTime() <= now.getTime()) throw invalidAttribute('expired-at must be in the future.', expiredAtPointer);
  return date;
}

function createdBy(caller: Caller): Token['createdBy'] {
  switch (caller.kind) {
    case 'user':
      return { id: caller.user.id, type: 'users' };
    case 'team':
      return { id: caller.team.id, type: 'teams' };
    case 'organization':
      return { id: caller.organization, type: 'organizations' };
  }
}

function requireManager(store: Store, caller: Caller, organization: string): void {
  if (!store.organization(organization) || !canManageOrganizationToken(store, caller, organization)) throw notFound();
}

export function registerOrganizationTokenRoutes(router: Router): void {
  const path = '/api/v2/organizations/:organization_name/authentication-token';

  router.add('POST', path, (ctx) => {
    const organization = ctx.params.organization_name;
    requireManager(ctx.store, ctx.caller, organization);
    const expiredAt = readExpiredAt(ctx.body, ctx.store.now());
    const previous = ctx.store.organizationToken(organization);
    if (previous) ctx.store.tokens.delete(previous.secret); // the old token stops working at once
    const token: Token = {
      id: newId('at'),
      secret: newTokenSecret(),
      owner: { kind: 'organization', organization },
      createdAt: ctx.store.now(),
      expiredAt,
      lastUsedAt: null,
      createdBy: createdBy(ctx.caller),
      role: 'organization',
    };
    ctx.store.tokens.set(token.secret, token);
    return created({ data: serializeOrganizationToken(token, { withSecret: true }) });
  });

  router.add('GET', path, (ctx) => {
    requireManager(ctx.store, ctx.caller, ctx.params.organization_name);
    const token = ctx.store.organizationToken(ctx.params.organization_name);
    if (!token) throw notFound();
    return ok({ data: serializeOrganizationToken(token, { withSecret: false }) });
  });

  router.add('DELETE', path, (ctx) => {
    requireManager(ctx.store, ctx.caller, ctx.params.organization_name);
    const token = ctx.store.organizationToken(ctx.params.organization_name);
    if (!token) throw notFound();
    ctx.store.tokens.delete(token.secret);
    return noContent();
  });
}

