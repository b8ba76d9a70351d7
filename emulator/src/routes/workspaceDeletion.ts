// Deleting workspaces (notes §7), as `terraform workspace delete` does. Terraform 1.11 (internal/cloud/state.go
// Delete) calls the safe-delete action when the workspace's permissions carry `can-force-delete`, and the plain
// DELETE with -force. The DELETE takes the workspace whatever it holds; safe-delete refuses with 409 while the
// workspace is locked or its state still tracks resources. Both need admin access (`can-destroy`): 404 otherwise.
import { noContent, type AuthedContext } from '../http/context';
import { ApiError } from '../http/errors';
import { requireWorkspace, requireWorkspaceByName } from '../http/access';
import type { Router } from '../http/router';
import type { Workspace } from '../store/model';

export function registerWorkspaceDeletionRoutes(router: Router): void {
  const byId = (ctx: AuthedContext) => requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id!, 'canAdmin');
  const byName = (ctx: AuthedContext) => requireWorkspaceByName(ctx.store, ctx.caller, ctx.params.organization_name!, ctx.params.workspace_name!, 'canAdmin');

  router.add('DELETE', '/api/v2/workspaces/:workspace_id', (ctx) => forceDelete(ctx, byId(ctx)));
  router.add('DELETE', '/api/v2/organizations/:organization_name/workspaces/:workspace_name', (ctx) => forceDelete(ctx, byName(ctx)));
  router.add('POST', '/api/v2/workspaces/:workspace_id/actions/safe-delete', (ctx) => safeDelete(ctx, byId(ctx)));
  router.add('POST', '/api/v2/organizations/:organization_name/workspaces/:workspace_name/actions/safe-delete', (ctx) => safeDelete(ctx, byName(ctx)));
}

function forceDelete(ctx: AuthedContext, workspace: Workspace) {
  ctx.store.deleteWorkspace(workspace.id);
  return noContent();
}

// go-tfe tells the two refusals apart by the detail: "locked" makes ErrWorkspaceLockedCannotDelete, anything else
// ErrWorkspaceNotSafeToDelete. The texts are the service's, as go-tfe quotes them (errors.go).
function safeDelete(ctx: AuthedContext, workspace: Workspace) {
  if (workspace.lockedBy) throw new ApiError(409, 'conflict', 'Workspace is currently locked. Workspace must be unlocked before it can be safely deleted');
  if (ctx.store.stateVersions.managesResources(workspace.id)) throw new ApiError(409, 'conflict', 'workspace cannot be safely deleted because it is still managing resources');
  return forceDelete(ctx, workspace);
}
