// Workspaces (notes §7): list/search per organization, show by name or id, lock and unlock. Everything the
// caller cannot read is invisible (404, or left out of lists).
import type { Router } from '../http/router';
import { defaultProjectId } from './projects';
import { ok, type AuthedContext } from '../http/context';
import { ApiError, badRequest } from '../http/errors';
import { requireOrganization, requireWorkspace, requireWorkspaceByName } from '../http/access';
import { isObject, isoMillis, relationship } from '../http/jsonapi';
import { paginate, readPage } from '../http/pagination';
import type { Caller } from '../store/caller';
import type { Workspace } from '../store/model';
import { canQueueDestroy, workspacePermissions } from '../store/permissions';
import type { Store } from '../store/store';
import { serializeConfigurationVersion, serializeIngressAttributes } from './configurationVersions';
import { serializeOrganization } from './organizations';
import { serializeUser } from './users';

/** Include names the service accepts on workspaces (notes §7); only some produce included resources here. */
const knownIncludes = new Set([
  'organization', 'current_configuration_version', 'current_configuration_version.ingress_attributes', 'current_run',
  'current_run.plan', 'current_run.apply', 'current_run.configuration_version', 'current_run.configuration_version.ingress_attributes',
  'current_state_version', 'latest_run', 'locked_by', 'outputs', 'project', 'readme', 'agent_pool', 'vars', 'effective_tag_bindings',
]);

export function serializeWorkspace(store: Store, caller: Caller, workspace: Workspace): Record<string, unknown> {
  const permissions = workspacePermissions(store, caller, workspace);
  const openChangeRequests = [...store.changeRequests.values()].filter((c) => c.workspaceId === workspace.id && !c.archivedAt).length;
  const base = `/api/v2/workspaces/${workspace.id}`;
  const attributes: Record<string, unknown> = {
    name: workspace.name,
    description: workspace.description,
    environment: 'default',
    'created-at': isoMillis(workspace.createdAt),
    'updated-at': isoMillis(workspace.updatedAt),
    locked: workspace.lockedBy !== null,
    'locked-reason': workspace.lockedReason,
    'auto-apply': workspace.autoApply,
    'allow-destroy-plan': workspace.allowDestroyPlan ?? true,
    'terraform-version': workspace.terraformVersion,
    'working-directory': workspace.workingDirectory,
    'execution-mode': workspace.executionMode,
    operations: workspace.executionMode !== 'local',
    'queue-all-runs': false,
    'speculative-enabled': true,
    'structured-run-output-enabled': workspace.structuredRunOutputEnabled ?? true,
    'tag-names': [...workspace.tagNames],
    source: 'tfe-api',
    'vcs-repo': null,
    'resource-count': 0,
    actions: { 'is-destroyable': permissions.canAdmin },
    permissions: {
      'can-update': permissions.canAdmin,
      'can-destroy': permissions.canAdmin,
      'can-queue-run': permissions.canQueueRun,
      'can-read-run': permissions.canRead,
      'can-read-variable': permissions.canReadVariables,
      'can-update-variable': permissions.canUpdateVariables,
      'can-read-state-versions': permissions.canRead,
      'can-queue-apply': permissions.canApply,
      'can-queue-destroy': canQueueDestroy(permissions, workspace),
      'can-lock': permissions.canLock,
      'can-unlock': permissions.canLock,
      'can-force-unlock': permissions.canAdmin,
      // Present, as on the service: Terraform then deletes through the safe-delete action (internal/cloud/state.go).
      'can-force-delete': permissions.canAdmin,
      'can-read-settings': permissions.canRead,
    },
  };
  if (store.hasFeature(workspace.organization, 'change-requests')) attributes['unarchived-workspace-change-requests-count'] = openChangeRequests;
  return {
    id: workspace.id,
    type: 'workspaces',
    attributes,
    relationships: {
      organization: relationship('organizations', workspace.organization),
      project: relationship('projects', workspace.projectId ?? defaultProjectId(workspace.organization)),
      'current-run': relationship('runs', workspace.currentRunId, workspace.currentRunId ? `/api/v2/runs/${workspace.currentRunId}` : undefined),
      'latest-run': relationship('runs', workspace.currentRunId, workspace.currentRunId ? `/api/v2/runs/${workspace.currentRunId}` : undefined),
      'current-configuration-version': relationship('configuration-versions', workspace.latestConfigurationVersionId, `${base}/current-configuration-version`),
      'locked-by': workspace.lockedBy ? { data: { ...workspace.lockedBy } } : { data: null },
      vars: { links: { related: `${base}/vars` } },
    },
    links: {
      self: `/api/v2/organizations/${workspace.organization}/workspaces/${workspace.name}`,
      'self-html': `/app/${workspace.organization}/workspaces/${workspace.name}`,
    },
  };
}

/** Resources for a workspace's `include` (notes §7): the current run (and its parts, via the runs module),
 * the current configuration version, the organization, whoever holds the lock. Each appears once. */
function includedFor(store: Store, caller: Caller, workspaces: Workspace[], includes: Set<string>, origin: string): unknown[] {
  const included = new Map<string, unknown>();
  const add = (resources: unknown[]) => {
    for (const resource of resources as Array<{ type: string; id: string }>) included.set(`${resource.type}/${resource.id}`, resource);
  };
  for (const workspace of workspaces) {
    for (const runInclude of ['current_run', 'latest_run']) {
      const nested = [...includes].filter((name) => name.startsWith(`${runInclude}.`)).map((name) => name.slice(runInclude.length + 1));
      if ((includes.has(runInclude) || nested.length > 0) && workspace.currentRunId && store.runIncluder) {
        add(store.runIncluder(caller, workspace.currentRunId, nested, origin));
      }
    }
    const version = workspace.latestConfigurationVersionId ? store.configurationVersion(workspace.latestConfigurationVersionId) : undefined;
    if (version && (includes.has('current_configuration_version') || includes.has('current_configuration_version.ingress_attributes'))) {
      add([serializeConfigurationVersion(version)]);
      if (includes.has('current_configuration_version.ingress_attributes') && version.ingress) add([serializeIngressAttributes(version.ingress)]);
    }
    const organization = store.organization(workspace.organization);
    if (includes.has('organization') && organization) add([serializeOrganization(store, caller, organization)]);
    if (includes.has('locked_by') && workspace.lockedBy) {
      const holder = workspace.lockedBy;
      const user = holder.type === 'users' ? store.users.get(holder.id) : undefined;
      if (user) add([serializeUser(user, { withEmail: user.id === caller.user.id })]);
      if (holder.type === 'runs' && store.runIncluder) add(store.runIncluder(caller, holder.id, [], origin));
    }
  }
  return [...included.values()];
}

function readIncludes(include: string | null): Set<string> {
  const names = (include ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of names) if (!knownIncludes.has(name)) throw badRequest(`"${name}" is not a valid include: Invalid include parameter`);
  return new Set(names);
}

function workspaceDocument(ctx: AuthedContext, workspace: Workspace): Record<string, unknown> {
  const includes = readIncludes(ctx.query.get('include'));
  const document = { data: serializeWorkspace(ctx.store, ctx.caller, workspace) };
  return withIncluded(document, includedFor(ctx.store, ctx.caller, [workspace], includes, ctx.url.origin));
}

function withIncluded(document: Record<string, unknown>, included: unknown[]): Record<string, unknown> {
  return included.length > 0 ? { ...document, included } : document;
}

/** `search[name]` (substring, case-insensitive), `search[wildcard-name]` (`*` at either end), `search[tags]`. */
function matchesSearch(workspace: Workspace, query: URLSearchParams): boolean {
  const name = query.get('search[name]');
  if (name && !workspace.name.toLowerCase().includes(name.toLowerCase())) return false;
  const wildcard = query.get('search[wildcard-name]');
  if (wildcard) {
    const pattern = new RegExp(`^${wildcard.split('*').map(escapeRegExp).join('.*')}$`, 'i');
    if (!pattern.test(workspace.name)) return false;
  }
  const tags = query.get('search[tags]');
  if (tags && !tags.split(',').map((t) => t.trim()).filter(Boolean).every((t) => workspace.tagNames.includes(t))) return false;
  const excluded = query.get('search[exclude-tags]');
  if (excluded && excluded.split(',').some((t) => workspace.tagNames.includes(t.trim()))) return false;
  return true;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function sortWorkspaces(workspaces: Workspace[], sort: string | null): Workspace[] {
  const key = sort ?? 'name';
  const descending = key.startsWith('-');
  const field = descending ? key.slice(1) : key;
  if (field !== 'name' && field !== 'latest-change-at' && field !== 'current-run.created-at') {
    throw new ApiError(422, 'invalid parameter', `sort must be name, latest-change-at or current-run.created-at (with - for descending), not "${key}".`, { parameter: 'sort' });
  }
  const sorted = [...workspaces].sort((a, b) => (field === 'name' ? a.name.localeCompare(b.name) : a.updatedAt.getTime() - b.updatedAt.getTime()));
  return descending ? sorted.reverse() : sorted;
}

export function registerWorkspaceRoutes(router: Router): void {
  router.add('GET', '/api/v2/organizations/:organization_name/workspaces', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name);
    const page = readPage(ctx.query);
    const visible = ctx.store
      .workspacesOf(organization.name)
      .filter((w) => workspacePermissions(ctx.store, ctx.caller, w).canRead && matchesSearch(w, ctx.query));
    const includes = readIncludes(ctx.query.get('include'));
    const list = paginate(sortWorkspaces(visible, ctx.query.get('sort')), page, { url: ctx.url });
    const document = { data: list.items.map((w) => serializeWorkspace(ctx.store, ctx.caller, w)), links: list.links, meta: list.meta };
    return ok(withIncluded(document, includedFor(ctx.store, ctx.caller, list.items, includes, ctx.url.origin)));
  });

  router.add('GET', '/api/v2/organizations/:organization_name/workspaces/:workspace_name', (ctx) => {
    const workspace = requireWorkspaceByName(ctx.store, ctx.caller, ctx.params.organization_name, ctx.params.workspace_name);
    return ok(workspaceDocument(ctx, workspace));
  });

  router.add('GET', '/api/v2/workspaces/:workspace_id', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id);
    return ok(workspaceDocument(ctx, workspace));
  });

  router.add('POST', '/api/v2/workspaces/:workspace_id/actions/lock', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id, 'canLock');
    if (workspace.lockedBy) throw new ApiError(409, 'conflict', 'Unable to lock workspace. The workspace is already locked.');
    const reason = isObject(ctx.body) && typeof ctx.body.reason === 'string' ? ctx.body.reason : '';
    workspace.lockedBy = { type: 'users', id: ctx.caller.user.id };
    workspace.lockedReason = reason;
    workspace.updatedAt = ctx.store.now();
    return ok({ data: serializeWorkspace(ctx.store, ctx.caller, workspace) });
  });

  router.add('POST', '/api/v2/workspaces/:workspace_id/actions/unlock', (ctx) => {
    const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id, 'canLock');
    if (!workspace.lockedBy) throw new ApiError(409, 'conflict', 'Unable to unlock workspace. The workspace is not locked.');
    if (workspace.lockedBy.type === 'runs') throw new ApiError(409, 'conflict', 'Unable to unlock workspace. The workspace is locked by a run; cancel or discard it first.');
    workspace.lockedBy = null;
    workspace.lockedReason = '';
    workspace.updatedAt = ctx.store.now();
    for (const hook of ctx.store.workspaceChangeHooks) hook(workspace.id);
    return ok({ data: serializeWorkspace(ctx.store, ctx.caller, workspace) });
  });
}
