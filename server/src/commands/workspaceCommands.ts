// Change requests, the organization token and workspace variables. Variable commands re-read the workspace's
// variables right away so diagnostics follow; the organization token's secret is returned once and never logged.
// A write whose answer was lost is never sent again: the state is read back (readBack*.ts) and reported.
import type { ChangeRequest, Variable } from '../api';
import { isArchived, ServiceError } from '../api';
import type { ServiceClient } from '../api';
import type { ChangeRequestSummary, ServerCommandResults, VariableSummary } from '../protocol';
import type { ParsedArguments } from './arguments';
import type { CoreContext, Target } from './context';
import { resolveTarget } from './context';
import { invalidParams, requestFailed, toResponseError } from './errors';
import { readBackArchivedChangeRequest, readBackCreatedChangeRequest } from './readBackChangeRequests';
import { readBackDeletedToken, readBackGeneratedToken, tokenBeforeGenerate } from './readBackOrganizationToken';
import { readBackCreatedVariable, readBackDeletedVariable, readBackUpdatedVariable } from './readBackVariables';
import { doneDespite, mayHaveSucceeded, warnUser } from './uncertainOutcome';
import { parseHclExpression } from '../features/hclValues';

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

export async function createVariable(context: CoreContext, args: ParsedArguments<'createVariable'>): Promise<VariableSummary> {
  if (args.value === undefined) {
    throw invalidParams(`createVariable needs the value of "${args.key}": ask the user for it (and whether it is sensitive), then send it as value.`);
  }
  requireValidHcl(context, args.hcl, args.value);
  const target = resolveTarget(context, args);
  const input = {
    workspaceId: args.workspaceId,
    key: args.key,
    value: args.value,
    category: args.category,
    ...(args.hcl !== undefined ? { hcl: args.hcl } : {}),
    ...(args.sensitive !== undefined ? { sensitive: args.sensitive } : {}),
    ...(args.description !== undefined ? { description: args.description } : {}),
  };
  return afterVariableChange(context, target, {
    change: () => target.client.variables.create(input),
    readBack: (error) => readBackCreatedVariable(target, input, error),
    done: `the ${args.category} variable "${args.key}" is on the workspace`,
  });
}

export async function updateVariable(context: CoreContext, args: ParsedArguments<'updateVariable'>): Promise<VariableSummary> {
  const target = resolveTarget(context, args);
  if (args.value !== undefined) requireValidHcl(context, args.hcl, args.value);
  const { hostname: _hostname, workspaceId: _workspaceId, variableId, ...changes } = args;
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  return afterVariableChange(context, target, {
    change: () => target.client.variables.update(variableId, defined),
    readBack: (error) => readBackUpdatedVariable(target, args.workspaceId, variableId, defined, error),
    done: `variable ${variableId} shows the change`,
  });
}

export async function deleteVariable(context: CoreContext, args: ParsedArguments<'deleteVariable'>): Promise<{ deleted: true }> {
  const target = resolveTarget(context, args);
  await afterVariableChange(context, target, {
    change: () => target.client.variables.delete(args.variableId),
    readBack: (error) => readBackDeletedVariable(target, args.workspaceId, args.variableId, error),
    done: `variable ${args.variableId} is no longer on the workspace`,
  });
  return { deleted: true };
}

/** Whether a variable's value is one HCL expression, by the same parser the code is read with. */
export function checkHclValue(context: CoreContext, value: string): { valid: true } | { valid: false; message: string } {
  const parser = context.parser();
  if (!parser) throw invalidParams('The Terraform parser is still loading: try again in a moment.');
  if (value.trim() === '') return { valid: false, message: 'An HCL value cannot be empty: write "" for an empty string.' };
  return parseHclExpression(parser, value).ok
    ? { valid: true }
    : { valid: false, message: 'Not a valid HCL expression: strings need quotes ("eu-west-1"), lists brackets ([1, 2]), maps braces ({ a = 1 }).' };
}

/**
 * An HCL value is checked with the server's parser before it is sent (the service would store a broken one and
 * fail the next run). The message names the field and never repeats the value (it may be sensitive). When the
 * update does not say `hcl`, the client (which knows the variable) has checked it.
 */
function requireValidHcl(context: CoreContext, hcl: boolean | undefined, value: string | undefined): void {
  if (hcl !== true || value === undefined) return;
  const checked = checkHclValue(context, value);
  if (!checked.valid) throw invalidParams(`Validation error in value: ${checked.message}`);
}

interface VariableChange<T> {
  change: () => Promise<T>;
  /** After an answer was lost: the state read back, or a ResponseError saying what was found. */
  readBack: (error: unknown) => Promise<T>;
  /** What the read-back found when the change was done, for the warning. */
  done: string;
}

async function afterVariableChange<T extends Variable | void>(context: CoreContext, target: Target, { change, readBack, done }: VariableChange<T>): Promise<T extends Variable ? VariableSummary : void> {
  let result: T;
  try {
    result = await change();
  } catch (error) {
    if (mayHaveSucceeded(error)) {
      result = await readBack(error);
      warnUser(context, doneDespite(error, done));
      return finishVariableChange(context, target, result);
    }
    throw toResponseError(error, (e) =>
      e.status === 404 ? 'The workspace or variable was not found, or this token may not change its variables.' : e.status === 422 ? `Validation error${fieldOf(e.errors[0]?.pointer)}: ${e.detail ?? e.title}.` : undefined,
    );
  }
  return finishVariableChange(context, target, result);
}

async function finishVariableChange<T extends Variable | void>(context: CoreContext, target: Target, result: T): Promise<T extends Variable ? VariableSummary : void> {
  if (target.knowledge) await context.directory.reloadVariables(target.knowledge);
  return (result ? summarizeVariable(result as Variable) : undefined) as T extends Variable ? VariableSummary : void;
}

/** A variable for the client: a sensitive value is never included. */
export function summarizeVariable(variable: Variable): VariableSummary {
  const a = variable.attributes;
  const sensitive = a.sensitive === true;
  const summary: VariableSummary = { id: variable.id, key: a.key, category: a.category, hcl: a.hcl === true, sensitive };
  if (!sensitive && typeof a.value === 'string') summary.value = a.value;
  if (a.description) summary.description = a.description;
  return summary;
}

/** `/data/attributes/key` → " in key": the field a validation error is about, in the user's words. */
function fieldOf(pointer: string | undefined): string {
  const field = pointer?.split('/').filter(Boolean).pop();
  return field && field !== 'data' && field !== 'attributes' ? ` in ${field}` : '';
}
