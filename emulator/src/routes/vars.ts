// The deprecated variables interface (spec §2.4, §4.5; notes §10) plus the workspace-scoped interface that
// replaced it (create, list, show, update, delete under /workspaces/:id/vars, as go-tfe calls them). Both accept
// `engine` (the spec's name) and `terraform` (the real service's) on input. They answer in their own words: the
// spec's interface says `engine`; the workspace-scoped one, which the spec does not cover, says `terraform` as the
// real service does, because go-tfe's callers match that name (Terraform CLI's local operations, such as `terraform
// import`, left an `engine` variable out and asked for its value). Sensitive values are write-only: every response
// carries `value: null` for them.
import type { Router } from '../http/router';
import type { AuthedContext } from '../http/context';
import { created, noContent, ok } from '../http/context';
import { invalidAttribute, invalidParameter, notFound } from '../http/errors';
import { requireWorkspace, requireWorkspaceByName } from '../http/access';
import { isObject, isoMillis, optionalBoolean, optionalString, readAttributes, readData, readRelationshipId, type JsonObject } from '../http/jsonapi';
import { newId, randomBase62 } from '../store/ids';
import type { Variable, VariableCategory, Workspace } from '../store/model';
import { workspacePermissions } from '../store/permissions';

/** Which interface answers: the spec's `/vars`, or the workspace-scoped one under `/workspaces/:id/vars`. */
export type VariableInterface = 'vars' | 'workspace';

export function serializeVariable(variable: Variable, workspace: Workspace, answering: VariableInterface = 'vars'): Record<string, unknown> {
  const workspaceLink = `/api/v2/organizations/${workspace.organization}/workspaces/${workspace.name}`;
  return {
    id: variable.id,
    type: 'vars',
    attributes: {
      key: variable.key,
      value: variable.sensitive ? null : variable.value,
      description: variable.description,
      sensitive: variable.sensitive,
      category: answering === 'workspace' && variable.category === 'engine' ? 'terraform' : variable.category,
      hcl: variable.hcl,
      'created-at': isoMillis(variable.createdAt),
      'version-id': variable.versionId,
    },
    relationships: {
      // The service names the link `configurable` (notes §10); `workspace` is the spec's request name.
      configurable: { data: { id: workspace.id, type: 'workspaces' }, links: { related: workspaceLink } },
      workspace: { data: { id: workspace.id, type: 'workspaces' }, links: { related: workspaceLink } },
    },
    links: { self: answering === 'workspace' ? `/api/v2/workspaces/${workspace.id}/vars/${variable.id}` : `/api/v2/vars/${variable.id}` },
  };
}

function readCategory(attributes: JsonObject, required: boolean): VariableCategory | undefined {
  const value = attributes.category;
  if (value === undefined) {
    if (required) throw invalidAttribute('category is required: "engine" or "env".', '/data/attributes/category');
    return undefined;
  }
  if (value === 'engine' || value === 'terraform') return 'engine';
  if (value === 'env') return 'env';
  throw invalidAttribute(`category must be "engine" or "env", not ${JSON.stringify(value)}.`, '/data/attributes/category');
}

function readKey(attributes: JsonObject, required: boolean): string | undefined {
  const key = optionalString(attributes, 'key');
  if (key === undefined && !required) return undefined;
  if (key === undefined || key.trim() === '') throw invalidAttribute('key is required and must not be empty.', '/data/attributes/key');
  if (!/^[A-Za-z0-9_.\-:/]+$/.test(key)) {
    throw invalidAttribute('key may contain only letters, digits, "_", "-", ".", ":" and "/".', '/data/attributes/key');
  }
  return key;
}

function requireVarsType(data: JsonObject): void {
  if (data.type !== undefined && data.type !== 'vars') throw invalidAttribute('data.type must be "vars".', '/data/type');
}

function assertUniqueKey(ctx: AuthedContext, workspace: Workspace, key: string, category: VariableCategory, except?: string): void {
  const clash = ctx.store.variablesOf(workspace.id).find((v) => v.key === key && v.category === category && v.id !== except);
  if (clash) throw invalidAttribute('Key has already been taken', '/data/attributes/key');
}

/** The workspace a create addresses: the relationship, or the deprecated top-level `filter` names. */
function targetWorkspace(ctx: AuthedContext, data: JsonObject): Workspace {
  const id = readRelationshipId(data, 'workspace');
  if (id !== undefined) return requireWorkspace(ctx.store, ctx.caller, id, 'canUpdateVariables');
  const filter = isObject(ctx.body) ? ctx.body.filter : undefined;
  const workspaceName = isObject(filter) && isObject(filter.workspace) ? filter.workspace.name : undefined;
  const organizationName = isObject(filter) && isObject(filter.organization) ? filter.organization.name : undefined;
  if (typeof workspaceName === 'string' && typeof organizationName === 'string') {
    return requireWorkspaceByName(ctx.store, ctx.caller, organizationName, workspaceName, 'canUpdateVariables');
  }
  throw invalidAttribute(
    'Name the workspace: data.relationships.workspace.data.id, or (deprecated) filter.workspace.name with filter.organization.name.',
    '/data/relationships/workspace',
  );
}

function requireVariable(ctx: AuthedContext, id: string, need: 'canReadVariables' | 'canUpdateVariables'): { variable: Variable; workspace: Workspace } {
  const variable = ctx.store.variables.get(id);
  if (!variable) throw notFound();
  return { variable, workspace: requireWorkspace(ctx.store, ctx.caller, variable.workspaceId, need) };
}

export function registerVariableRoutes(router: Router): void {
  router.add('POST', '/api/v2/vars', (ctx) => createVariable(ctx, (data) => targetWorkspace(ctx, data)));
  // The replacement interface (go-tfe's Variables service): the workspace is in the path.
  router.add('POST', '/api/v2/workspaces/:workspace_id/vars', (ctx) =>
    createVariable(ctx, () => requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id!, 'canUpdateVariables'), 'workspace'),
  );
  router.add('GET', '/api/v2/vars', (ctx) => {
    const workspaceName = ctx.query.get('filter[workspace][name]');
    const organizationName = ctx.query.get('filter[organization][name]');
    // Optional but linked: both or neither (spec §4.5).
    if ((workspaceName === null) !== (organizationName === null)) {
      const missing = workspaceName === null ? 'filter[workspace][name]' : 'filter[organization][name]';
      throw invalidParameter(`filter[workspace][name] and filter[organization][name] go together; ${missing} is missing.`, missing);
    }
    const workspaces =
      workspaceName !== null && organizationName !== null
        ? [requireWorkspaceByName(ctx.store, ctx.caller, organizationName, workspaceName, 'canReadVariables')]
        : [...ctx.store.workspaces.values()].filter((w) => workspacePermissions(ctx.store, ctx.caller, w).canReadVariables);
    const data = workspaces.flatMap((workspace) =>
      ctx.store
        .variablesOf(workspace.id)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
        .map((variable) => serializeVariable(variable, workspace)),
    );
    return ok({ data });
  });

  router.add('GET', '/api/v2/vars/:variable_id', (ctx) => {
    const { variable, workspace } = requireVariable(ctx, ctx.params.variable_id, 'canReadVariables');
    return ok({ data: serializeVariable(variable, workspace) });
  });

  router.add('PATCH', '/api/v2/vars/:variable_id', (ctx) => updateVariable(ctx, requireVariable(ctx, ctx.params.variable_id!, 'canUpdateVariables')));
  router.add('PATCH', '/api/v2/workspaces/:workspace_id/vars/:variable_id', (ctx) =>
    updateVariable(ctx, requireWorkspaceVariable(ctx, 'canUpdateVariables'), 'workspace'),
  );

  router.add('DELETE', '/api/v2/vars/:variable_id', (ctx) => deleteVariable(ctx, requireVariable(ctx, ctx.params.variable_id!, 'canUpdateVariables')));
  router.add('DELETE', '/api/v2/workspaces/:workspace_id/vars/:variable_id', (ctx) => deleteVariable(ctx, requireWorkspaceVariable(ctx, 'canUpdateVariables')));

  // The replacement interface's list, for clients that already moved (same records, same serializer).
  router.add('GET', '/api/v2/workspaces/:workspace_id/vars', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id, 'canReadVariables');
    return ok({ data: ctx.store.variablesOf(workspace.id).map((v) => serializeVariable(v, workspace, 'workspace')) });
  });
  router.add('GET', '/api/v2/workspaces/:workspace_id/vars/:variable_id', (ctx) => {
    const { variable, workspace } = requireWorkspaceVariable(ctx, 'canReadVariables');
    return ok({ data: serializeVariable(variable, workspace, 'workspace') });
  });
}

/** A variable addressed through its workspace: 404 unless it belongs to that workspace. */
function requireWorkspaceVariable(ctx: AuthedContext, need: 'canReadVariables' | 'canUpdateVariables'): { variable: Variable; workspace: Workspace } {
  const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id!, need);
  const variable = ctx.store.variables.get(ctx.params.variable_id!);
  if (!variable || variable.workspaceId !== workspace.id) throw notFound();
  return { variable, workspace };
}

function createVariable(ctx: AuthedContext, workspaceOf: (data: JsonObject) => Workspace, answering: VariableInterface = 'vars') {
  const data = readData(ctx.body);
  requireVarsType(data);
  const attributes = readAttributes(data);
  const key = readKey(attributes, true)!;
  const category = readCategory(attributes, true)!;
  const value = optionalString(attributes, 'value') ?? '';
  const description = optionalString(attributes, 'description') ?? null;
  const hcl = optionalBoolean(attributes, 'hcl') ?? false;
  const sensitive = optionalBoolean(attributes, 'sensitive') ?? false;
  const workspace = workspaceOf(data);
  assertUniqueKey(ctx, workspace, key, category);
  const variable: Variable = {
    id: newId('var'),
    workspaceId: workspace.id,
    key,
    value,
    description,
    category,
    hcl,
    sensitive,
    createdAt: ctx.store.now(),
    versionId: randomBase62(40).toLowerCase(),
  };
  ctx.store.variables.set(variable.id, variable);
  return created({ data: serializeVariable(variable, workspace, answering) });
}

function updateVariable(ctx: AuthedContext, { variable, workspace }: { variable: Variable; workspace: Workspace }, answering: VariableInterface = 'vars') {
  const data = readData(ctx.body);
  requireVarsType(data);
  if (data.id !== undefined && data.id !== variable.id) throw invalidAttribute(`data.id must be ${variable.id} (the variable in the path).`, '/data/id');
  const attributes = readAttributes(data);
  // Validate everything before changing anything: a rejected update leaves the variable as it was.
  const key = readKey(attributes, false);
  const category = readCategory(attributes, false);
  const value = optionalString(attributes, 'value');
  const description = attributes.description === null ? null : optionalString(attributes, 'description');
  const hcl = optionalBoolean(attributes, 'hcl');
  const sensitive = optionalBoolean(attributes, 'sensitive');
  // The old secret must never become readable: a sensitive variable turns non-sensitive only with a new value.
  if (variable.sensitive && sensitive === false && value === undefined) {
    throw invalidAttribute('A sensitive variable can be made non-sensitive only together with a new value.', '/data/attributes/sensitive');
  }
  assertUniqueKey(ctx, workspace, key ?? variable.key, category ?? variable.category, variable.id);
  if (key !== undefined) variable.key = key;
  if (category !== undefined) variable.category = category;
  if (value !== undefined) variable.value = value;
  if (description !== undefined) variable.description = description;
  if (hcl !== undefined) variable.hcl = hcl;
  if (sensitive !== undefined) variable.sensitive = sensitive;
  variable.versionId = randomBase62(40).toLowerCase();
  return ok({ data: serializeVariable(variable, workspace, answering) });
}

function deleteVariable(ctx: AuthedContext, { variable }: { variable: Variable }) {
  ctx.store.variables.delete(variable.id);
  return noContent();
}
