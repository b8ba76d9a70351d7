// Change requests and the organization token (workspace variables: variableCommands.ts). The organization token's
// secret is returned once and never logged. A write whose answer was lost is never sent again: the state is read
// back (readBack*.ts) and reported.
import type { ChangeRequest } from '../api';
import { isArchived, ServiceError } from '../api';
import type { ServiceClient } from '../api';
import type { ChangeRequestSummary, ServerCommandResults } from '../protocol';
import type { ParsedArguments } from './arguments';
import type { CoreContext, Target } from './context';
import { resolveTarget } from './context';
import { invalidParams, requestFailed, toResponseError } from './errors';
import { readBackArchivedChangeRequest, readBackCreatedChangeRequest } from './readBackChangeRequests';
import { readBackDeletedToken, readBackGeneratedToken, tokenBeforeGenerate } from './readBackOrganizationToken';
import { doneDespite, mayHaveSucceeded, warnUser } from './uncertainOutcome';

export async function createChangeRequest(context: CoreContext, args: ParsedArguments<'createChangeRequest'>): Promise<ServerCommandResults['createChangeRequest']> {
  if (args.subject === undefined) throw invalidParams('createChangeRequest needs a subject: ask the user for one, then send it as subject.');
  const target = resolveTarget(context, args);
  const targetIds = [...new Set([args.workspaceId, ...(args.workspaceIds ?? [])])];
  try {
    const created = await target.client.changeRequests.create(args.organization, { subject: args.subject, message: args.message, targetIds });
    return { id: created.id, type: created.type };
  } catch (error) {
    if (mayHaveSucceeded(error)) {
      const { found, workspaceNames } = await readBackCreatedChangeRequest(target, { subject: args.subject, message: args.message, workspaceIds: targetIds }, error);
      warnUser(context, doneDespite(error, `the change request "${args.subject}" is on ${workspaceNames.join(', ')}`));
      return { id: found[0]!.id, type: found[0]!.type };
    }
    throw toResponseError(error, (e) =>
      e.status === 404
        ? `Could not create the change request: organization ${args.organization} was not found, this token may not create change requests there, or its plan does not include change requests (they need the top paid edition).`
        : undefined,
    );
  }
}

export async function archiveChangeRequest(context: CoreContext, args: ParsedArguments<'archiveChangeRequest'>): Promise<ChangeRequestSummary> {
  const target = resolveTarget(context, args);
  let archived: ChangeRequest;
  try {
    archived = await target.client.changeRequests.archive(args.changeRequestId);
  } catch (error) {
    if (!mayHaveSucceeded(error)) {
      throw toResponseError(error, (e) => (e.status === 400 || e.status === 409 ? `Change request ${args.changeRequestId} is already archived.` : undefined));
    }
    archived = await readBackArchivedChangeRequest(target, args.changeRequestId, error);
    warnUser(context, doneDespite(error, `change request ${args.changeRequestId} is archived`));
  }
  return (await withUserNames(target, [archived]))[0]!;
}

export function summarizeChangeRequest(changeRequest: ChangeRequest): ChangeRequestSummary {
  const a = changeRequest.attributes;
  const summary: ChangeRequestSummary = { id: changeRequest.id, subject: a.subject ?? '', message: a.message ?? '', archived: isArchived(changeRequest) };
  if (a['created-at']) summary.createdAt = a['created-at'];
  if (a['archived-at']) summary.archivedAt = a['archived-at'];
  const archivedBy = typeof a['archived-by'] === 'string' ? a['archived-by'] : relatedUser(changeRequest, 'archived-by-user');
  if (archivedBy) summary.archivedBy = archivedBy;
  const createdBy = relatedUser(changeRequest, 'created-by');
  if (createdBy) summary.createdBy = createdBy;
  const workspace = changeRequest.relationships?.['workspace']?.data;
  if (workspace && !Array.isArray(workspace)) summary.workspaceId = workspace.id;
  return summary;
}

function relatedUser(changeRequest: ChangeRequest, name: string): string | undefined {
  const data = changeRequest.relationships?.[name]?.data;
  return data && !Array.isArray(data) ? data.id : undefined;
}

/**
 * Summaries whose creator and archiver read as user names: each user is read once per call (`GET /users/:id`);
 * one that cannot be read keeps its id, which is still better than nothing.
 */
export async function withUserNames(target: Target, changeRequests: ChangeRequest[]): Promise<ChangeRequestSummary[]> {
  const summaries = changeRequests.map(summarizeChangeRequest);
  const ids = new Set(summaries.flatMap((s) => [s.createdBy, s.archivedBy]).filter((id): id is string => typeof id === 'string' && id.startsWith('user-')));
  const names = new Map<string, string>();
  await Promise.all(
    [...ids].map(async (id) => {
      const user = await target.client.account.user(id).catch(() => undefined);
      if (user?.attributes.username) names.set(id, user.attributes.username);
    }),
  );
  for (const summary of summaries) {
    if (summary.createdBy) summary.createdBy = names.get(summary.createdBy) ?? summary.createdBy;
    if (summary.archivedBy) summary.archivedBy = names.get(summary.archivedBy) ?? summary.archivedBy;
  }
  return summaries;
}

export async function generateOrganizationToken(context: CoreContext, args: ParsedArguments<'generateOrganizationToken'>): Promise<ServerCommandResults['generateOrganizationToken']> {
  const target = resolveTarget(context, args);
  // Which token is there now: if the answer is lost, a new id is the proof that the old token was replaced.
  const before = await tokenBeforeGenerate(target.client, args.organization);
  try {
    const { record, secret } = await target.client.organization.generateToken(args.organization, { expiredAt: args.expiredAt ?? null });
    const result: ServerCommandResults['generateOrganizationToken'] = { id: record.id, token: secret };
    if (record.attributes['expired-at']) result.expiredAt = record.attributes['expired-at'];
    return result;
  } catch (error) {
    // The secret came only in the lost answer: the read-back can say what happened, never return a token.
    if (mayHaveSucceeded(error)) await readBackGeneratedToken(target, args.organization, before, error);
    throw toResponseError(error);
  }
}

export async function deleteOrganizationToken(context: CoreContext, args: ParsedArguments<'deleteOrganizationToken'>): Promise<{ deleted: true }> {
  const target = resolveTarget(context, args);
  try {
    await target.client.organization.deleteToken(args.organization);
    return { deleted: true };
  } catch (error) {
    if (mayHaveSucceeded(error)) {
      await readBackDeletedToken(target, args.organization, error);
      warnUser(context, doneDespite(error, `${args.organization} has no organization token now`));
      return { deleted: true };
    }
    // The service answers 404 both when there is no token and when the caller may not manage it: the organization's
    // permissions tell which, so the message names the real cause instead of blaming permissions.
    if (error instanceof ServiceError && error.status === 404) throw requestFailed(await whyNoTokenToDelete(target.client, args.organization));
    throw toResponseError(error);
  }
}

/** Why DELETE answered 404, told apart by what the organization says this token may do. */
export async function whyNoTokenToDelete(client: ServiceClient, organization: string): Promise<string> {
  try {
    const permissions = (await client.organization.get(organization)).attributes.permissions;
    if (permissions?.['can-update-api-token'] === true) return `${organization} has no organization token to delete: it was never generated or is already deleted.`;
    if (permissions?.['can-update-api-token'] === false) {
      return `This token may not delete the organization token of ${organization}: only the owners team, its token and the organization token may. Sign in with one of those.`;
    }
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return `Organization ${organization} was not found, or this token cannot see it.`;
  }
  return `Could not delete the organization token of ${organization}: there is none, or this token may not manage it (only the owners team, its token and the organization token may).`;
}
