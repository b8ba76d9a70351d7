// Creating and changing workspaces, as `terraform init` (tags, TF_CLOUD_PROJECT) and `terraform workspace new` do:
// create in an organization (names unique, 422 otherwise), update by id or name, tag bindings, and force-unlock.
import { created, ok, type AuthedContext } from '../http/context';
import { ApiError, invalidAttribute, notFound } from '../http/errors';
import { requireOrganization, requireWorkspace, requireWorkspaceByName } from '../http/access';
import { isObject, readAttributes, readData, readRelationshipId, type JsonObject } from '../http/jsonapi';
import type { Router } from '../http/router';
import { newId } from '../store/ids';
import type { Workspace } from '../store/model';
import { newWorkspace } from '../store/newWorkspace';
import { isOrganizationAdmin } from '../store/permissions';
import { projectsOf } from './projects';
import { serializeWorkspace } from './workspaces';

export function registerWorkspaceWriteRoutes(router: Router): void {
  router.add('POST', '/api/v2/organizations/:organization_name/workspaces', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name);
    if (!isOrganizationAdmin(ctx.store, ctx.caller, organization.name)) throw notFound();
    const data = readData(ctx.body);
    const attributes = readAttributes(data);
    const name = attributes.name;
    if (typeof name !== 'string' || !/^[A-Za-z0-9_-]{1,90}$/.test(name)) throw invalidAttribute('Name is invalid: letters, digits, - and _ only, 90 at most', '/data/attributes/name');
    if (ctx.store.workspaceByName(organization.name, name)) throw invalidAttribute('Name has already been taken', '/data/attributes/name');
    const now = ctx.store.now();
    const workspace = newWorkspace({ id: newId('ws'), name, organization: organization.name, createdAt: now });
    applyAttributes(ctx, workspace, data, attributes);
    ctx.store.workspaces.set(workspace.id, workspace);
    return created({ data: serializeWorkspace(ctx.store, ctx.caller, workspace) });
  });

  const update = (ctx: AuthedContext, workspace: Workspace) => {
    requireWorkspace(ctx.store, ctx.caller, workspace.id, 'canAdmin');
    const data = readData(ctx.body);
    const attributes = readAttributes(data);
    if (typeof attributes.name === 'string' && attributes.name !== workspace.name) {
      if (ctx.store.workspaceByName(workspace.organization, attributes.name)) throw invalidAttribute('Name has already been taken', '/data/attributes/name');
      workspace.name = attributes.name;
    }
    applyAttributes(ctx, workspace, data, attributes);
    workspace.updatedAt = ctx.store.now();
    return ok({ data: serializeWorkspace(ctx.store, ctx.caller, workspace) });
  };
  router.add('PATCH', '/api/v2/workspaces/:workspace_id', (ctx) => update(ctx, requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id)));
  router.add('PATCH', '/api/v2/organizations/:organization_name/workspaces/:workspace_name', (ctx) =>
    update(ctx, requireWorkspaceByName(ctx.store, ctx.caller, ctx.params.organization_name, ctx.params.workspace_name)),
  );

  router.add('POST', '/api/v2/workspaces/:workspace_id/actions/force-unlock', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id, 'canAdmin');
    if (!workspace.lockedBy) throw new ApiError(409, 'conflict', 'Unable to unlock workspace. The workspace is not locked.');
    workspace.lockedBy = null;
    workspace.lockedReason = '';
    workspace.updatedAt = ctx.store.now();
    for (const hook of ctx.store.workspaceChangeHooks) hook(workspace.id);
    return ok({ data: serializeWorkspace(ctx.store, ctx.caller, workspace) });
  });

  const bindings = (workspace: Workspace) => ({
    data: (workspace.tagBindings ?? []).map((binding) => ({ type: 'tag-bindings', id: `tb-${workspace.id}-${binding.key}`, attributes: { key: binding.key, value: binding.value } })),
  });
  router.add('GET', '/api/v2/workspaces/:workspace_id/tag-bindings', (ctx) => ok(bindings(requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id))));
  router.add('GET', '/api/v2/workspaces/:workspace_id/effective-tag-bindings', (ctx) => ok(bindings(requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id))));
  router.add('PATCH', '/api/v2/workspaces/:workspace_id/tag-bindings', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id, 'canAdmin');
    setBindings(workspace, readBindings(ctx.body));
    return ok(bindings(workspace));
  });
}

/** Attributes and relationships a create or update may set. */
function applyAttributes(ctx: AuthedContext, workspace: Workspace, data: JsonObject, attributes: JsonObject): void {
  if (typeof attributes.description === 'string') workspace.description = attributes.description;
  if (typeof attributes['auto-apply'] === 'boolean') workspace.autoApply = attributes['auto-apply'];
  if (typeof attributes['allow-destroy-plan'] === 'boolean') workspace.allowDestroyPlan = attributes['allow-destroy-plan'];
  if (typeof attributes['terraform-version'] === 'string') workspace.terraformVersion = attributes['terraform-version'];
  if (typeof attributes['structured-run-output-enabled'] === 'boolean') workspace.structuredRunOutputEnabled = attributes['structured-run-output-enabled'];
  if (typeof attributes['working-directory'] === 'string') workspace.workingDirectory = attributes['working-directory'];
  const mode = attributes['execution-mode'];
  if (mode !== undefined) {
    if (mode !== 'remote' && mode !== 'local' && mode !== 'agent') throw invalidAttribute('execution-mode must be remote, local or agent', '/data/attributes/execution-mode');
    workspace.executionMode = mode;
  }
  const tags = attributes['tag-names'];
  if (Array.isArray(tags)) workspace.tagNames = [...new Set(tags.filter((t): t is string => typeof t === 'string'))];
  const projectId = readRelationshipId(data, 'project');
  if (projectId) {
    if (!projectsOf(ctx.store, workspace.organization).some((p) => p.id === projectId)) throw invalidAttribute('Project not found', '/data/relationships/project/data/id');
    workspace.projectId = projectId;
  }
  const relationships = data.relationships;
  if (isObject(relationships) && relationships['tag-bindings'] !== undefined) {
    setBindings(workspace, readBindings({ data: (relationships['tag-bindings'] as JsonObject).data }));
  }
}

function readBindings(body: unknown): Array<{ key: string; value: string }> {
  const list = isObject(body) ? body.data : undefined;
  if (!Array.isArray(list)) throw invalidAttribute('tag bindings must be a list of {"type": "tag-bindings", "attributes": {"key", "value"}}', '/data');
  return list.map((item, index) => {
    const attributes = isObject(item) && isObject(item.attributes) ? item.attributes : {};
    if (typeof attributes.key !== 'string' || !attributes.key) throw invalidAttribute('key is required', `/data/${index}/attributes/key`);
    return { key: attributes.key, value: typeof attributes.value === 'string' ? attributes.value : '' };
  });
}

/**
 * Merges tag bindings; one with an empty value is a plain tag (how Terraform 1.10+ writes `workspaces { tags = [...] }`),
 * so it is also one of the workspace's tag names, which `search[tags]` matches.
 */
function setBindings(workspace: Workspace, next: Array<{ key: string; value: string }>): void {
  workspace.tagBindings = mergeBindings(workspace.tagBindings ?? [], next);
  workspace.tagNames = [...new Set([...workspace.tagNames, ...workspace.tagBindings.filter((b) => b.value === '').map((b) => b.key)])];
}

function mergeBindings(current: Array<{ key: string; value: string }>, next: Array<{ key: string; value: string }>): Array<{ key: string; value: string }> {
  const merged = new Map(current.map((b) => [b.key, b.value]));
  for (const binding of next) merged.set(binding.key, binding.value);
  return [...merged].map(([key, value]) => ({ key, value }));
}
