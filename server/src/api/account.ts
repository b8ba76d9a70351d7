/** `GET /api/v2/ping` (reachability and the service's identity headers) and `GET /account/details` (who the token is). */
import type { CallOptions, Requester } from './requester';
import { accountDocumentSchema } from './schemas/account';
import type { Account } from './schemas/account';

export interface PingResult {
  /** `TFP-API-Version`, e.g. "2.6". */
  apiVersion: string | undefined;
  /** `TFP-AppName`: "HCP Terraform" or "Terraform Enterprise". */
  appName: string | undefined;
  /** `X-TFE-Version` on Terraform Enterprise. */
  enterpriseVersion: string | undefined;
  /** `X-RateLimit-Limit`. */
  rateLimit: number | undefined;
}

export type TokenKind = 'user' | 'team' | 'organization' | 'unknown';

export interface AccountDetails {
  account: Account;
  /** What the token authenticates: a user, or (for service users) a team or organization. */
  tokenKind: TokenKind;
  /** The id of that user, team or organization (an organization's id is its name). */
  authenticatedId: string | undefined;
}

export class AccountApi {
  constructor(private readonly requester: Requester) {}

  async ping(options: CallOptions = {}): Promise<PingResult> {
    const { headers } = await this.requester.call({ operation: 'ping', method: 'GET', path: '/ping', ...options });
    const rateLimit = Number.parseInt(headers['x-ratelimit-limit'] ?? '', 10);
    return {
      apiVersion: headers['tfp-api-version'],
      appName: headers['tfp-appname'],
      enterpriseVersion: headers['x-tfe-version'],
      rateLimit: Number.isFinite(rateLimit) ? rateLimit : undefined,
    };
  }

  async details(options: CallOptions = {}): Promise<AccountDetails> {
    const result = await this.requester.call({
      operation: 'getAccountDetails',
      method: 'GET',
      path: '/account/details',
      schema: accountDocumentSchema,
      ...options,
    });
    const account = result.data.data;
    const resource = account.relationships?.['authenticated-resource']?.data;
    const identifier = resource && !Array.isArray(resource) ? resource : undefined;
    return { account, tokenKind: tokenKindOf(account, identifier?.type), authenticatedId: identifier?.id ?? account.id };
  }

  /** A user by id (`GET /users/:id`): who created or archived a change request, who made a token. */
  async user(userId: string, options: CallOptions = {}): Promise<Account> {
    const result = await this.requester.call({ operation: 'getUser', method: 'GET', path: `/users/${encodeURIComponent(userId)}`, schema: accountDocumentSchema, ...options });
    return result.data.data;
  }
}

function tokenKindOf(account: Account, resourceType: string | undefined): TokenKind {
  if (resourceType === 'teams') return 'team';
  if (resourceType === 'organizations') return 'organization';
  if (resourceType === 'users' || account.attributes['is-service-account'] === false) return 'user';
  return 'unknown';
}
