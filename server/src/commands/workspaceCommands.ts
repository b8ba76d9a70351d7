// Change requests, the organization token and workspace variables. Variable commands re-read the workspace's
// variables right away so diagnostics follow; the organization token's secret is returned once and never logged.
import type { ChangeRequest, Variable } from '../api';
import { isArchived, ServiceError } from '../api';
import type { ServiceClient } from '../api';
import type { ChangeRequestSummary, ServerCommandResults, VariableSummary } from '../protocol';
import type { ParsedArguments } from './arguments';
import type { CoreContext, Target } from './context';
import { resolveTarget } from './context';
import { invalidParams, requestFailed, toResponseError } from './errors';

export async function createChangeRequest(context: CoreContext, args: ParsedArguments<'createChangeRequest'>): Promise<ServerCommandResults['createChangeRequest']> {
  if (args.subject === undefined) throw invalidParams('createChangeRequest needs a subject: ask the user for one, then send it as subject.');
  const target = resolveTarget(context, args);
  try {
    const created = await target.client.changeRequests.create(args.organization, { subject: args.subject, message: args.message, targetIds: [args.workspaceId] });
    return { id: created.id, type: created.type };
  } catch (error) {
    throw toResponseError(error, (e) =>
      e.status === 404
        ? `Could not create the change request: organization ${args.organization} was not found, this token may not create change requests there, or its plan does not include change requests (they need the top paid edition).`
        : undefined,
    );
  }
}

export async function archiveChangeRequest(context: CoreContext, args: ParsedArguments<'archiveChangeRequest'>): Promise<ChangeRequestSummary> {
  const target = resolveTarget(context, args);
  try {
    return summarizeChangeRequest(await target.client.changeRequests.archive(args.changeRequestId));
  } catch (error) {
    throw toResponseError(error, (e) => (e.status === 400 || e.status === 409 ? `Change request ${args.changeRequestId} is already archived.` : undefined));
  }
}

export function summarizeChangeRequest(changeRequest: ChangeRequest): ChangeRequestSummary {
  const a = changeRequest.attributes;
  const summary: ChangeRequestSummary = { id: changeRequest.id, subject: a.subject ?? '', message: a.message ?? '', archived: isArchived(changeRequest) };
  if (a['created-at']) summary.createdAt = a['created-at'];
  return summary;
}

export async function generateOrganizationToken(context: CoreContext, args: ParsedArguments<'generateOrganizationToken'>): Promise<ServerCommandResults['generateOrganizationToken']> {
  const target = resolveTarget(context, args);
  try {
    const { record, secret } = await target.client.organization.generateToken(args.organization, { expiredAt: args.expiredAt ?? null });
    const result: ServerCommandResults['generateOrganizationToken'] = { id: record.id, token: secret };
    if (record.attributes['expired-at']) result.expiredAt = record.attributes['expired-at'];
    return result;
  } catch (error) {
    throw toResponseError(error);
  }
}

export async function deleteOrganizationToken(context: CoreContext, args: ParsedArguments<'deleteOrganizationToken'>): Promise<{ deleted: true }> {
  const target = resolveTarget(context, args);
  try {
    await target.client.organization.deleteToken(args.organization);
    return { deleted: true };
  } catch (error) {
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
  const target = resolveTarget(context, args);
  return afterVariableChange(context, target, () =>
    target.client.variables.create({
      workspaceId: args.workspaceId,
      key: args.key,
      value: args.value,
      category: args.category,
      ...(args.hcl !== undefined ? { hcl: args.hcl } : {}),
      ...(args.sensitive !== undefined ? { sensitive: args.sensitive } : {}),
      ...(args.description !== undefined ? { description: args.description } : {}),
    }),
  );
}

export async function updateVariable(context: CoreContext, args: ParsedArguments<'updateVariable'>): Promise<VariableSummary> {
  const target = resolveTarget(context, args);
  const { hostname: _hostname, workspaceId: _workspaceId, variableId, ...changes } = args;
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
  return afterVariableChange(context, target, () => target.client.variables.update(variableId, defined));
}

export async function deleteVariable(context: CoreContext, args: ParsedArguments<'deleteVariable'>): Promise<{ deleted: true }> {
  const target = resolveTarget(context, args);
  await afterVariableChange(context, target, () => target.client.variables.delete(args.variableId));
  return { deleted: true };
}

async function afterVariableChange<T extends Variable | void>(context: CoreContext, target: Target, change: () => Promise<T>): Promise<T extends Variable ? VariableSummary : void> {
  let result: T;
  try {
    result = await change();
  } catch (error) {
    throw toResponseError(error, (e) =>
      e.status === 404 ? 'The workspace or variable was not found, or this token may not change its variables.' : e.status === 422 ? `The service refused the variable: ${e.detail ?? e.title}.` : undefined,
    );
  }
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
