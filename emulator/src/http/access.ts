// Lookups that enforce the 404-for-forbidden rule in one place (notes §1.4): a route asks for a workspace
// with the permission it needs and gets it, or the request ends with 404 — never 403.
import type { Caller } from '../store/caller';
import type { Organization, Workspace } from '../store/model';
import { belongsTo, workspacePermissions, type WorkspacePermissions } from '../store/permissions';
import type { Store } from '../store/store';
import { notFound } from './errors';

export type WorkspaceNeed = keyof WorkspacePermissions;

/** The workspace with id `id` if the caller has `need` on it (default: may read it); otherwise 404. */
export function requireWorkspace(store: Store, caller: Caller, id: string, need: WorkspaceNeed = 'canRead'): Workspace {
  const workspace = store.workspace(id);
  if (!workspace || !workspacePermissions(store, caller, workspace)[need]) throw notFound();
  return workspace;
}

/** Same, addressed by organization and workspace name. */
export function requireWorkspaceByName(
  store: Store,
  caller: Caller,
  organization: string,
  name: string,
  need: WorkspaceNeed = 'canRead',
): Workspace {
  const workspace = store.workspaceByName(organization, name);
  if (!workspace || !workspacePermissions(store, caller, workspace)[need]) throw notFound();
  return workspace;
}

/** The organization if the caller belongs to it; otherwise 404. */
export function requireOrganization(store: Store, caller: Caller, name: string): Organization {
  const organization = store.organization(name);
  if (!organization || !belongsTo(store, caller, name)) throw notFound();
  return organization;
}
