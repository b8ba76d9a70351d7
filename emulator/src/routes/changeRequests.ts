// Change requests (spec §2.5, §4.3; notes §8): a per-workspace backlog, only on the top paid edition (the
// feature set's `change-requests` switch; 404 otherwise). Reading needs read access; archiving needs write
// access; creating (explorer bulk action) needs admin on every target workspace. Organization tokens count as
// admin for this organization-level feature.
import type { Router } from '../http/router';
import type { AuthedContext } from '../http/context';
import { ok } from '../http/context';
import { ApiError, notFound } from '../http/errors';
import { isoMillis, relationship } from '../http/jsonapi';
import { paginate, readPage } from '../http/pagination';
import type { ChangeRequest, Workspace } from '../store/model';
import { accessLevels } from '../store/model';
import type { AccessLevel } from '../store/model';
import { accessLevel } from '../store/permissions';
import type { Caller } from '../store/caller';
import type { Store } from '../store/store';

export const changeRequestType = 'workspace-change-requests';

export function serializeChangeRequest(request: ChangeRequest): Record<string, unknown> {
  return {
    id: request.id,
    type: changeRequestType,
    attributes: {
      subject: request.subject,
      message: request.message,
      // Archived ones are marked (spec §2.5); `archived-at`/`archived-by` are the service's own fields.
      archived: request.archivedAt !== null,
      'archived-at': request.archivedAt ? isoMillis(request.archivedAt) : null,
      'archived-by': request.archivedByUserId,
      'created-at': isoMillis(request.createdAt),
      'updated-at': isoMillis(request.updatedAt),
    },
    relationships: {
      workspace: relationship('workspaces', request.workspaceId),
      'created-by': relationship('users', request.createdByUserId),
      'archived-by-user': relationship('users', request.archivedByUserId),
    },
    links: { self: `/api/v2/workspaces/change-requests/${request.id}` },
  };
}

/** Open ones first (newest first), then the archived ones (most recently archived first): sorted separately. */
export function orderChangeRequests(requests: ChangeRequest[]): ChangeRequest[] {
  const open = requests.filter((r) => !r.archivedAt).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const archived = requests.filter((r) => r.archivedAt).sort((a, b) => b.archivedAt!.getTime() - a.archivedAt!.getTime());
  return [...open, ...archived];
}

export function hasAccess(store: Store, caller: Caller, workspace: Workspace, wanted: AccessLevel): boolean {
  const level = accessLevel(store, caller, workspace);
  return level !== null && accessLevels.indexOf(level) >= accessLevels.indexOf(wanted);
}

/** The workspace if change requests are available there and the caller has `wanted` access; otherwise 404. */
function requireChangeRequestWorkspace(store: Store, caller: Caller, workspace: Workspace | undefined, wanted: AccessLevel): Workspace {
  if (!workspace || !store.hasFeature(workspace.organization, 'change-requests') || !hasAccess(store, caller, workspace, wanted)) throw notFound();
  return workspace;
}

/**
 * The list path names the workspace by NAME (spec §4.3; the newer schema uses the id, which is accepted too).
 * A name is unique only within an organization: the caller's organizations are searched in order.
 */
function workspaceFromPathSegment(ctx: AuthedContext, segment: string): Workspace {
  const byId = ctx.store.workspace(segment);
  if (byId) return requireChangeRequestWorkspace(ctx.store, ctx.caller, byId, 'read');
  const candidates = [...ctx.store.workspaces.values()].filter(
    (w) => w.name === segment && ctx.store.hasFeature(w.organization, 'change-requests') && hasAccess(ctx.store, ctx.caller, w, 'read'),
  );
  if (candidates.length === 0) throw notFound();
  return candidates[0];
}

function requireChangeRequest(ctx: AuthedContext, id: string, wanted: AccessLevel): ChangeRequest {
  const request = ctx.store.changeRequests.get(id);
  if (!request) throw notFound();
  requireChangeRequestWorkspace(ctx.store, ctx.caller, ctx.store.workspace(request.workspaceId), wanted);
  return request;
}

function archive(ctx: AuthedContext): ReturnType<typeof ok> {
  const request = requireChangeRequest(ctx, ctx.params.change_request_id, 'write');
  if (request.archivedAt) throw new ApiError(400, 'bad request', 'This change request is already archived.');
  const now = ctx.store.now();
  request.archivedAt = now;
  request.archivedByUserId = ctx.caller.user.id;
  request.updatedAt = now;
  return ok({ data: serializeChangeRequest(request) });
}

export function registerChangeRequestRoutes(router: Router): void {
  router.add('GET', '/api/v2/workspaces/:workspace_name/change-requests', (ctx) => {
    const workspace = workspaceFromPathSegment(ctx, ctx.params.workspace_name);
    const page = readPage(ctx.query);
    const archiveFilter = ctx.query.get('archive');
    let requests = [...ctx.store.changeRequests.values()].filter((r) => r.workspaceId === workspace.id);
    if (archiveFilter === 'true') requests = requests.filter((r) => r.archivedAt);
    else if (archiveFilter === 'false') requests = requests.filter((r) => !r.archivedAt);
    else if (archiveFilter !== null) throw new ApiError(422, 'invalid parameter', 'archive must be true or false.', { parameter: 'archive' });
    const list = paginate(orderChangeRequests(requests), page, { url: ctx.url });
    return ok({ data: list.items.map(serializeChangeRequest), links: list.links, meta: list.meta });
  });

  for (const path of ['/api/v2/workspaces/change-requests/:change_request_id', '/api/v2/change-requests/:change_request_id']) {
    router.add('GET', path, (ctx) => ok({ data: serializeChangeRequest(requireChangeRequest(ctx, ctx.params.change_request_id, 'read')) }));
  }
  // Archive: the spec's POST on the resource path, and the variants the other sources show (notes §8, §13.9).
  router.add('POST', '/api/v2/workspaces/change-requests/:change_request_id', archive);
  router.add('PATCH', '/api/v2/workspaces/change-requests/:change_request_id', archive);
  router.add('POST', '/api/v2/change-requests/:change_request_id/actions/archive', archive);
}

