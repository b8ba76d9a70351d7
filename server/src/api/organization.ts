/** The organization's subscription with its feature set (spec §4.1, hosted edition only) and its API token (spec §4.4). */
import { MalformedResponseError } from './errors';
import { segment } from './query';
import type { CallOptions, Requester } from './requester';
import type { OperationName } from './operations';
import { findIncluded } from './schemas/jsonapi';
import { pageFetcher } from './lists';
import type { PageFetcher } from './pagination';
import {
  featureSetSchema,
  organizationDocumentSchema,
  organizationListDocumentSchema,
  organizationTokenDocumentSchema,
  subscriptionDocumentSchema,
} from './schemas/organization';
import type { FeatureSet, Organization, OrganizationToken, Subscription } from './schemas/organization';

export interface SubscriptionWithFeatureSet {
  subscription: Subscription;
  /** The feature set from `included`; undefined if the service did not include it. */
  featureSet: FeatureSet | undefined;
}

export interface GeneratedOrganizationToken {
  record: OrganizationToken;
  /** The secret, readable only now. Store it securely; never log it. */
  secret: string;
}

export class OrganizationApi {
  constructor(private readonly requester: Requester) {}

  /** The organizations the token's user or team belongs to (an organization token sees its own). */
  pages(pageSize = 100): PageFetcher<Organization> {
    return pageFetcher(this.requester, { operation: 'listOrganizations', path: '/organizations', query: {}, pageSize, schema: organizationListDocumentSchema });
  }

  /** One organization; its `permissions` say what this token may do there (`can-update-api-token`). */
  async get(organization: string, options: CallOptions = {}): Promise<Organization> {
    const result = await this.requester.call({
      operation: 'getOrganization',
      method: 'GET',
      path: `/organizations/${segment(organization)}`,
      schema: organizationDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  getSubscription(organization: string, options: CallOptions = {}): Promise<SubscriptionWithFeatureSet> {
    return this.subscription('getOrganizationSubscription', `/organizations/${segment(organization)}/subscription`, options);
  }

  getSubscriptionById(subscriptionId: string, options: CallOptions = {}): Promise<SubscriptionWithFeatureSet> {
    return this.subscription('getSubscription', `/subscriptions/${segment(subscriptionId)}`, options);
  }

  /** Generates a new organization token, replacing any earlier one. `expiredAt` omitted or null: it never expires. */
  async generateToken(
    organization: string,
    input: { expiredAt?: Date | string | null } = {},
    options: CallOptions = {},
  ): Promise<GeneratedOrganizationToken> {
    const expiredAt = input.expiredAt instanceof Date ? input.expiredAt.toISOString() : input.expiredAt;
    const result = await this.requester.call({
      operation: 'generateOrganizationToken',
      method: 'POST',
      path: `/organizations/${segment(organization)}/authentication-token`,
      body: { data: { type: 'authentication-token', attributes: { 'expired-at': expiredAt ?? null } } },
      schema: organizationTokenDocumentSchema,
      ...options,
    });
    const record = result.data.data;
    const secret = record.attributes.token;
    if (!secret) {
      throw new MalformedResponseError(
        'Could not generate the organization token: the service did not return its secret.',
        'generateOrganizationToken',
        result.status,
        'data.attributes.token is missing',
      );
    }
    return { record, secret };
  }

  /** The organization token's record without its secret (`GET`, notes §9); undefined when there is none (404). */
  async getToken(organization: string, options: CallOptions = {}): Promise<OrganizationToken> {
    const result = await this.requester.call({
      operation: 'getOrganizationToken',
      method: 'GET',
      path: `/organizations/${segment(organization)}/authentication-token`,
      schema: organizationTokenDocumentSchema,
      ...options,
    });
    return result.data.data;
  }

  async deleteToken(organization: string, options: CallOptions = {}): Promise<void> {
    await this.requester.call({
      operation: 'deleteOrganizationToken',
      method: 'DELETE',
      path: `/organizations/${segment(organization)}/authentication-token`,
      ...options,
    });
  }

  private async subscription(operation: OperationName, path: string, options: CallOptions): Promise<SubscriptionWithFeatureSet> {
    const result = await this.requester.call({ operation, method: 'GET', path, schema: subscriptionDocumentSchema, ...options });
    const subscription = result.data.data;
    const link = subscription.relationships?.['feature-set']?.data;
    const identifier = link && !Array.isArray(link) ? link : undefined;
    // Found by the relationship, else the only feature set in `included` (both shapes are seen in the wild).
    const raw =
      findIncluded(result.data.included, identifier) ??
      result.data.included?.find((resource) => resource.type === 'feature-sets');
    const parsed = raw ? featureSetSchema.safeParse(raw) : undefined;
    if (parsed && !parsed.success) {
      throw new MalformedResponseError(
        `Could not read the subscription: its feature set is malformed (${parsed.error.issues[0]?.message ?? 'unknown problem'}).`,
        operation,
        result.status,
        `included feature set: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      );
    }
    return { subscription, featureSet: parsed?.data };
  }
}
