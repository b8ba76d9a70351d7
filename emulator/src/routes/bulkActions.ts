// Creating change requests through the explorer's experimental bulk-actions operation (spec §4.3, notes §8).
// The inputs may sit directly under `data` (older docs) or under `data.attributes` (newer docs). Each created
// change request records a team notification for the teams with access to its workspace (spec §6).
import type { Router } from '../http/router';
import type { AuthedContext } from '../http/context';
import { created } from '../http/context';
import { invalidAttribute, notFound } from '../http/errors';
import { requireOrganization } from '../http/access';
import { isObject, readData, type JsonObject } from '../http/jsonapi';
import { newId } from '../store/ids';
import type { ChangeRequest, Workspace } from '../store/model';
import { serializeChangeRequest, hasAccess } from './changeRequests';

const actionTypes = new Set(['change_request', 'change_requests']);

interface BulkInput {
  pointer: string; // where the inputs were found, for error pointers
  fields: JsonObject;
}

function readBulkInput(body: unknown): BulkInput {
  const data = readData(body);
  if (isObject(data.attributes) && data.attributes.action_type !== undefined) return { pointer: '/data/attributes', fields: data.attributes };
  return { pointer: '/data', fields: data };
}

function requiredText(inputs: JsonObject, key: 'subject' | 'message', pointer: string): string {
  const value = inputs[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw invalidAttribute(`action_inputs.${key} is required and must be a non-empty string.`, `${pointer}/action_inputs/${key}`);
  }
  return value;
}

/** Explorer query: `{type: "workspaces", filter: [{workspace_name: {contains|is: [...]}}]}`. */
function workspacesMatchingQuery(ctx: AuthedContext, organization: string, query: JsonObject, pointer: string): Workspace[] {
  if (query.type !== undefined && query.type !== 'workspaces') throw invalidAttribute('query.type must be "workspaces".', `${pointer}/query/type`);
  // A misspelt key must not widen the query: ignoring `filters` (for `filter`) would select every workspace.
  rejectUnknownKeys(query, ['type', 'filter'], `${pointer}/query`);
  const filters = query.filter;
  if (!Array.isArray(filters) || filters.length === 0) throw invalidAttribute('query.filter must be a non-empty array of filters.', `${pointer}/query/filter`);
  return ctx.store.workspacesOf(organization).filter((workspace) =>
    filters.every((filter: unknown, index) => {
      const condition = isObject(filter) ? filter.workspace_name : undefined;
      if (!isObject(filter) || !isObject(condition)) {
        throw invalidAttribute('Only workspace_name filters ({"workspace_name": {"contains": [...]}}) are supported.', `${pointer}/query/filter/${index}`);
      }
      rejectUnknownKeys(filter, ['workspace_name'], `${pointer}/query/filter/${index}`);
      rejectUnknownKeys(condition, ['contains', 'is'], `${pointer}/query/filter/${index}/workspace_name`);
      const contains = Array.isArray(condition.contains) ? condition.contains : [];
      const exactly = Array.isArray(condition.is) ? condition.is : [];
      return contains.some((part) => typeof part === 'string' && workspace.name.includes(part)) || exactly.includes(workspace.name);
    }),
  );
}

function rejectUnknownKeys(object: JsonObject, known: readonly string[], pointer: string): void {
  const unknown = Object.keys(object).filter((key) => !known.includes(key));
  if (unknown.length > 0) throw invalidAttribute(`Unknown ${unknown.map((k) => `"${k}"`).join(', ')} (expected ${known.map((k) => `"${k}"`).join(' or ')}).`, `${pointer}/${unknown[0]}`);
}

function targets(ctx: AuthedContext, organization: string, input: BulkInput): Workspace[] {
  const { fields, pointer } = input;
  if (fields.target_ids !== undefined) {
    if (!Array.isArray(fields.target_ids) || fields.target_ids.length === 0 || !fields.target_ids.every((id) => typeof id === 'string')) {
      throw invalidAttribute('target_ids must be a non-empty array of workspace ids.', `${pointer}/target_ids`);
    }
    return (fields.target_ids as string[]).map((id) => {
      const workspace = ctx.store.workspace(id);
      if (!workspace || workspace.organization !== organization || !hasAccess(ctx.store, ctx.caller, workspace, 'admin')) throw notFound(`Workspace ${id} not found.`);
      return workspace;
    });
  }
  if (isObject(fields.query)) {
    const matched = workspacesMatchingQuery(ctx, organization, fields.query, pointer).filter((w) => hasAccess(ctx.store, ctx.caller, w, 'admin'));
    if (matched.length === 0) throw invalidAttribute('The query matched no workspaces you administer.', `${pointer}/query`);
    return matched;
  }
  throw invalidAttribute('Give target_ids (workspace ids) or a query selecting workspaces.', `${pointer}/target_ids`);
}

export function registerBulkActionRoute(router: Router): void {
  router.add('POST', '/api/v2/organizations/:organization_name/explorer/bulk-actions', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name);
    if (!ctx.store.hasFeature(organization.name, 'change-requests')) throw notFound();
    const input = readBulkInput(ctx.body);
    const { fields, pointer } = input;
    if (typeof fields.action_type !== 'string' || !actionTypes.has(fields.action_type)) {
      throw invalidAttribute('action_type must be "change_request".', `${pointer}/action_type`);
    }
    if (!isObject(fields.action_inputs)) throw invalidAttribute('action_inputs with subject and message is required.', `${pointer}/action_inputs`);
    const subject = requiredText(fields.action_inputs, 'subject', pointer);
    const message = requiredText(fields.action_inputs, 'message', pointer);
    const workspaces = targets(ctx, organization.name, input);

    const now = ctx.store.now();
    const requests: ChangeRequest[] = workspaces.map((workspace) => ({
      id: newId('wscr'),
      workspaceId: workspace.id,
      subject,
      message,
      createdAt: now,
      updatedAt: now,
      createdByUserId: ctx.caller.user.id,
      archivedAt: null,
      archivedByUserId: null,
    }));
    for (const [index, request] of requests.entries()) {
      ctx.store.changeRequests.set(request.id, request);
      const workspace = workspaces[index];
      ctx.store.recordNotification({
        time: now.toISOString(),
        kind: 'change-request-created',
        organization: organization.name,
        workspace: workspace.name,
        workspaceId: workspace.id,
        changeRequestId: request.id,
        subject,
        teams: ctx.store.teamsOf(organization.name).filter((t) => t.isOwners || t.workspaceAccess.has(workspace.id)).map((t) => t.name),
      });
    }
    // snake_case attributes, as the explorer's documented response has them (notes §8).
    return created({
      data: {
        id: newId('eba'),
        type: 'explorer_bulk_actions',
        attributes: {
          organization_id: organization.name,
          action_type: fields.action_type,
          action_inputs: { subject, message },
          target_ids: workspaces.map((w) => w.id),
          created_by: { id: ctx.caller.user.id, type: 'users' },
        },
        relationships: { 'change-requests': { data: requests.map((r) => ({ id: r.id, type: 'workspace-change-requests' })) } },
      },
      included: requests.map(serializeChangeRequest),
    });
  });
}
