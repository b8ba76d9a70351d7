// Organizations, their entitlement set (what Terraform CLI checks first, notes §12) and their subscription with
// its feature set (spec §2.1–2.2, §4.1; hosted edition only).
import type { Router } from '../http/router';
import { ok } from '../http/context';
import { notFound } from '../http/errors';
import { requireOrganization } from '../http/access';
import { isoMillis, relationship } from '../http/jsonapi';
import type { Organization, Subscription } from '../store/model';
import { canManageOrganizationToken, organizationsOf } from '../store/permissions';
import type { Caller } from '../store/caller';
import type { Store } from '../store/store';

export function serializeOrganization(store: Store, caller: Caller, organization: Organization): Record<string, unknown> {
  const featureSet = store.featureSetOf(organization.name);
  const owner = canManageOrganizationToken(store, caller, organization.name);
  return {
    id: organization.name,
    type: 'organizations',
    attributes: {
      name: organization.name,
      email: organization.email,
      'created-at': isoMillis(organization.createdAt),
      'plan-identifier': featureSet?.identifier ?? null,
      'plan-is-trial': false,
      'plan-is-enterprise': store.edition === 'enterprise',
      'cost-estimation-enabled': store.hasFeature(organization.name, 'cost-estimation'),
      'collaborator-auth-policy': 'password',
      'default-execution-mode': 'remote',
      permissions: {
        'can-update': owner,
        'can-destroy': owner,
        'can-manage-subscription': owner,
        'can-create-team': owner,
        'can-create-workspace': owner,
        'can-update-api-token': owner,
        'can-access-via-teams': true,
      },
    },
    relationships: {
      subscription: relationship('subscriptions', store.edition === 'hosted' ? organization.subscriptionId : null),
      'entitlement-set': relationship('entitlement-sets', entitlementSetId(organization)),
    },
    links: { self: `/api/v2/organizations/${organization.name}` },
  };
}

function entitlementSetId(organization: Organization): string {
  return `org-${organization.subscriptionId.slice(4)}`;
}

export function serializeSubscriptionDocument(store: Store, subscription: Subscription): Record<string, unknown> {
  const featureSet = store.featureSets.get(subscription.featureSetId);
  return {
    data: {
      id: subscription.id,
      type: 'subscriptions',
      attributes: { ...subscription.attributes },
      relationships: {
        organization: relationship('organizations', subscription.organization),
        'billing-account': { data: null },
        'feature-set': relationship('feature-sets', subscription.featureSetId),
      },
      links: { self: `/api/v2/subscriptions/${subscription.id}` },
    },
    // The feature set comes along without an `include` parameter (notes §3.1).
    included: featureSet ? [{ id: featureSet.id, type: 'feature-sets', attributes: { ...featureSet.attributes } }] : [],
  };
}

export function registerOrganizationRoutes(router: Router): void {
  router.add('GET', '/api/v2/organizations', (ctx) => {
    const names = organizationsOf(ctx.store, ctx.caller);
    const data = names.map((name) => ctx.store.organization(name)).filter((o): o is Organization => o !== undefined);
    return ok({ data: data.map((o) => serializeOrganization(ctx.store, ctx.caller, o)) });
  });

  router.add('GET', '/api/v2/organizations/:organization_name', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name);
    return ok({ data: serializeOrganization(ctx.store, ctx.caller, organization) });
  });

  router.add('GET', '/api/v2/organizations/:organization_name/entitlement-set', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name);
    const has = (feature: string) => ctx.store.hasFeature(organization.name, feature);
    const featureSet = ctx.store.featureSetOf(organization.name);
    return ok({
      data: {
        id: entitlementSetId(organization),
        type: 'entitlement-sets',
        attributes: {
          agents: !has('is-free-tier'),
          'audit-logging': has('audit-logging'),
          'cost-estimation': has('cost-estimation'),
          'global-run-tasks': has('global-run-tasks'),
          operations: true,
          'policy-enforcement': has('policy-enforcement'),
          'private-module-registry': true,
          'run-tasks': has('run-tasks'),
          sentinel: has('policy-enforcement'),
          sso: has('sso'),
          'state-storage': true,
          teams: has('teams'),
          'user-limit': featureSet?.attributes['user-limit'] ?? null,
          'vcs-integrations': true,
        },
        links: { self: `/api/v2/entitlement-sets/${entitlementSetId(organization)}` },
      },
    });
  });

  // Subscriptions exist only in the hosted edition (spec §1); any member of the organization may read them.
  router.add('GET', '/api/v2/organizations/:organization_name/subscription', (ctx) => {
    if (ctx.store.edition !== 'hosted') throw notFound();
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name);
    const subscription = ctx.store.subscriptions.get(organization.subscriptionId);
    if (!subscription) throw notFound();
    return ok(serializeSubscriptionDocument(ctx.store, subscription));
  });

  router.add('GET', '/api/v2/subscriptions/:subscription_id', (ctx) => {
    if (ctx.store.edition !== 'hosted') throw notFound();
    const subscription = ctx.store.subscriptions.get(ctx.params.subscription_id);
    if (!subscription) throw notFound();
    requireOrganization(ctx.store, ctx.caller, subscription.organization);
    return ok(serializeSubscriptionDocument(ctx.store, subscription));
  });
}
