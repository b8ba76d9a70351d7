// Read-backs after an organization token generate or delete lost its answer (uncertainOutcome.ts says why), through
// the token's status (GET …/authentication-token: the record, never the secret). A generate whose answer was lost
// has lost its secret too, for good: whatever is found, the command fails and tells the user whether the old token
// still works, and that only generating again (which replaces the token) yields a secret. No secret is ever quoted.
import type { OrganizationToken, ServiceClient } from '../api';
import { ServiceError } from '../api';
import type { Target } from './context';
import { describeReadError, lostAnswerCause, outcomeFailure } from './uncertainOutcome';

/** The token's id before a generate: null when there is none, undefined when it could not be read. */
export type TokenBefore = string | null | undefined;

/** The organization's token record; null when there is none (the service's 404, to a caller that may manage it). */
async function currentToken(client: ServiceClient, organization: string): Promise<OrganizationToken | null> {
  try {
    return await client.organization.getToken(organization);
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Read before a generate, so a lost answer can be told apart: a new token has a new id. A failed read only makes
 * that answer "may have"; it never stops the generate.
 */
export async function tokenBeforeGenerate(client: ServiceClient, organization: string): Promise<TokenBefore> {
  try {
    const token = await currentToken(client, organization);
    return token === null ? null : token.id;
  } catch {
    return undefined;
  }
}

/** After a generate lost its answer: always a failure (no secret), saying whether a new token replaced the old one. */
export async function readBackGeneratedToken(target: Target, organization: string, before: TokenBefore, error: unknown): Promise<never> {
  const cause = lostAnswerCause(error);
  const now = await tokenToCheck(
    target,
    organization,
    (reason) =>
      `${cause} A new organization token of ${organization} may have been generated, and the token could not be read to check (${reason}); its secret could not be received either. It was not sent again: generate it again to get a secret (that replaces any token there, so anything still using the old one stops working).`,
  );
  if (now === null) {
    throw outcomeFailure(`${cause} ${organization} has no organization token, so none was generated; it was not sent again. Generate it again.`);
  }
  const created = now.attributes['created-at'] ? `, created ${now.attributes['created-at']}` : '';
  if (before === undefined) {
    throw outcomeFailure(
      `${cause} A new organization token of ${organization} may have been generated (the one there now is ${now.id}${created}), and its secret could not be received. It was not sent again: generate it again to get a secret (that replaces the token there now).`,
    );
  }
  if (now.id === before) {
    throw outcomeFailure(
      `${cause} The organization token of ${organization} is still the one it had (${now.id}${created}), so no new one was generated and that one still works; it was not sent again. Generate it again if you still want a new one.`,
    );
  }
  throw outcomeFailure(
    `${cause} A new organization token of ${organization} was generated (${now.id}), but its secret was lost with the answer and the service never shows it again${before ? '; the token before it no longer works' : ''}. It was not sent again: generate it again to get a secret (that replaces ${now.id}).`,
  );
}

/** After a delete lost its answer: done when there is no token now; else a failure saying which token is still there. */
export async function readBackDeletedToken(target: Target, organization: string, error: unknown): Promise<void> {
  const cause = lostAnswerCause(error);
  const now = await tokenToCheck(
    target,
    organization,
    (reason) => `${cause} The organization token of ${organization} may have been deleted anyway, and it could not be read to check (${reason}). It was not sent again: look at the Organization view before trying again.`,
  );
  if (now === null) return;
  throw outcomeFailure(`${cause} ${organization} still has its organization token (${now.id}), so it was not deleted and still works; it was not sent again. Delete it again if you still want to.`);
}

/** The token there now, read to check a write whose answer was lost; a failure saying `unreadable(why)` if it cannot be read. */
async function tokenToCheck(target: Target, organization: string, unreadable: (reason: string) => string): Promise<OrganizationToken | null> {
  try {
    return await currentToken(target.client, organization);
  } catch (readError) {
    throw outcomeFailure(unreadable(describeReadError(readError)));
  }
}
