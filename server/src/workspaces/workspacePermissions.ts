// What the caller's token may do in a workspace, from the workspace document's `permissions` (only the members the
// service sent as booleans): the workspace views show it, and code actions offer only the plans it allows.
import type { Workspace } from '../api';
import type { WorkspacePermissionsSummary } from '../protocol';

const permissionNames = [
  ['can-queue-run', 'canQueueRun'],
  ['can-queue-apply', 'canQueueApply'],
  ['can-queue-destroy', 'canQueueDestroy'],
  ['can-read-variable', 'canReadVariable'],
  ['can-update-variable', 'canUpdateVariable'],
  ['can-lock', 'canLock'],
  ['can-unlock', 'canUnlock'],
  ['can-force-unlock', 'canForceUnlock'],
  ['can-update', 'canUpdate'],
] as const;

export function workspacePermissions(workspace: Workspace): WorkspacePermissionsSummary {
  const sent = workspace.attributes.permissions;
  const permissions: WorkspacePermissionsSummary = {};
  for (const [wire, name] of permissionNames) if (typeof sent?.[wire] === 'boolean') permissions[name] = sent[wire] as boolean;
  return permissions;
}
