// What a caller may do, computed from teams and workspace access levels. Routes turn "may not" into 404
// (notes §1.4); this module only answers yes/no.
import type { Caller } from './caller';
import type { AccessLevel, Workspace } from './model';
import { accessLevels } from './model';
import type { Store } from './store';

export interface WorkspacePermissions {
  canRead: boolean;
  canReadVariables: boolean;
  /** Create runs (plans). Never for organization tokens (spec §5). */
  canQueueRun: boolean;
  /** Apply, discard, cancel, force-execute. Never for organization tokens. */
  canApply: boolean;
  /** Force-cancel and settings. Never for organization tokens as far as runs go. */
  canAdmin: boolean;
  canUpdateVariables: boolean;
  canLock: boolean;
}

const none: WorkspacePermissions = {
  canRead: false,
  canReadVariables: false,
  canQueueRun: false,
  canApply: false,
  canAdmin: false,
  canUpdateVariables: false,
  canLock: false,
};

/** The organizations a caller belongs to. */
export function organizationsOf(store: Store, caller: Caller): string[] {
  switch (caller.kind) {
    case 'organization':
      return [caller.organization];
    case 'team':
      return [caller.team.organization];
    case 'user':
      return [
        ...new Set(
          [...store.teams.values()].filter((t) => t.memberIds.includes(caller.user.id)).map((t) => t.organization),
        ),
      ];
  }
}

export function belongsTo(store: Store, caller: Caller, organization: string): boolean {
  return organizationsOf(store, caller).includes(organization);
}

/** Highest team access a user or team token has on the workspace; null = cannot see it. */
export function accessLevel(store: Store, caller: Caller, workspace: Workspace): AccessLevel | null {
  if (caller.kind === 'organization') return caller.organization === workspace.organization ? 'admin' : null;
  const teams =
    caller.kind === 'team'
      ? [caller.team]
      : store.teamsOf(workspace.organization).filter((t) => t.memberIds.includes(caller.user.id));
  let best = -1;
  for (const team of teams) {
    if (team.organization !== workspace.organization) continue;
    const level = team.isOwners ? 'admin' : team.workspaceAccess.get(workspace.id);
    if (level) best = Math.max(best, accessLevels.indexOf(level));
  }
  return best < 0 ? null : accessLevels[best];
}

export function workspacePermissions(store: Store, caller: Caller, workspace: Workspace): WorkspacePermissions {
  const level = accessLevel(store, caller, workspace);
  if (level === null) return none;
  const rank = accessLevels.indexOf(level);
  const atLeast = (wanted: AccessLevel) => rank >= accessLevels.indexOf(wanted);
  // Organization tokens manage the organization's settings but may not drive runs (spec §5, notes §2).
  const runsAllowed = caller.kind !== 'organization';
  return {
    canRead: true,
    canReadVariables: true,
    canQueueRun: runsAllowed && atLeast('plan'),
    canApply: runsAllowed && atLeast('write'),
    canAdmin: runsAllowed && atLeast('admin'),
    canUpdateVariables: atLeast('write'),
    canLock: atLeast('write'),
  };
}

/** Owners-team members, the owners team token and the organization token (spec §5: organization token management). */
/** `can-queue-destroy`: who may apply may queue a destroy plan, where the workspace allows them (allow-destroy-plan). */
export function canQueueDestroy(permissions: WorkspacePermissions, workspace: Workspace): boolean {
  return permissions.canApply && workspace.allowDestroyPlan !== false;
}

export function canManageOrganizationToken(store: Store, caller: Caller, organization: string): boolean {
  switch (caller.kind) {
    case 'organization':
      return caller.organization === organization;
    case 'team':
      return caller.team.organization === organization && caller.team.isOwners;
    case 'user':
      return store.ownersTeam(organization)?.memberIds.includes(caller.user.id) === true;
  }
}

/** Owners (team members or owners token) and the organization token: may read billing and manage change requests. */
export const isOrganizationAdmin = canManageOrganizationToken;
