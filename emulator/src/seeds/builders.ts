// Small constructors the seeds use, so each seed reads as a list of facts rather than object literals.
import type {
  AccessLevel,
  ChangeRequest,
  ConfigurationVersion,
  FeatureSet,
  Team,
  TokenRole,
  User,
  Variable,
  VariableCategory,
  Workspace,
} from '../store/model';
import type { Store } from '../store/store';
import { isoSeconds } from '../http/jsonapi';
import { seedId } from './ids';
import { newWorkspace } from '../store/newWorkspace';

const day = 24 * 60 * 60 * 1000;

export function daysAgo(store: Store, days: number): Date {
  return new Date(store.now().getTime() - days * day);
}

export function addOrganization(store: Store, name: string, featureSet: FeatureSet, createdDaysAgo: number): void {
  const createdAt = daysAgo(store, createdDaysAgo);
  store.featureSets.set(featureSet.id, featureSet);
  const subscriptionId = seedId('sub', name);
  const free = featureSet.attributes['is-free-tier'] === true;
  store.subscriptions.set(subscriptionId, {
    id: subscriptionId,
    organization: name,
    featureSetId: featureSet.id,
    attributes: {
      'end-at': null,
      'is-active': true,
      'start-at': createdAt.toISOString(),
      'runs-ceiling': free ? 1 : 10,
      'agents-ceiling': free ? 0 : 10,
      'contract-start-at': free ? null : createdAt.toISOString(),
      'contract-user-limit': free ? null : 500,
      'contract-apply-limit': null,
      'run-task-limit': null,
      'run-task-workspace-limit': null,
      'run-task-mandatory-enforcement-limit': null,
      'policy-set-limit': null,
      'policy-limit': null,
      'policy-mandatory-enforcement-limit': null,
      'versioned-policy-set-limit': null,
      'is-public-free-tier': free,
      'is-self-serve-trial': false,
    },
  });
  const serviceUser = addUser(store, `api-org-${name}`, `api-org-${name}@service.invalid`, true);
  store.organizations.set(name, {
    name,
    email: `admin@${name}.example`,
    createdAt,
    subscriptionId,
    serviceUserId: serviceUser.id,
  });
}

export function addUser(store: Store, username: string, email: string, isServiceAccount = false): User {
  const user: User = { id: seedId('user', username), username, email, isServiceAccount };
  store.users.set(user.id, user);
  return user;
}

export function addTeam(store: Store, organization: string, name: string, members: User[], isOwners = false): Team {
  const serviceUser = addUser(store, `api-team_${organization}_${name}`, `api-team-${name}@service.invalid`, true);
  const team: Team = {
    id: seedId('team', `${organization}/${name}`),
    name,
    organization,
    isOwners,
    memberIds: members.map((m) => m.id),
    workspaceAccess: new Map(),
    serviceUserId: serviceUser.id,
  };
  store.teams.set(team.id, team);
  return team;
}

export function grant(team: Team, workspace: Workspace, level: AccessLevel): void {
  team.workspaceAccess.set(workspace.id, level);
}

export function addToken(
  store: Store,
  secret: string,
  owner: { kind: 'user'; userId: string } | { kind: 'team'; teamId: string } | { kind: 'organization'; organization: string },
  role: TokenRole,
  createdBy: { id: string; type: 'users' | 'teams' | 'organizations' } | null,
): void {
  store.tokens.set(secret, {
    id: seedId('at', `${role}`),
    secret,
    owner,
    createdAt: daysAgo(store, 30),
    expiredAt: null,
    lastUsedAt: null,
    createdBy,
    role,
  });
}

export type WorkspaceSeed = Partial<Omit<Workspace, 'id' | 'name' | 'organization'>> & { createdDaysAgo?: number };

export function addWorkspace(store: Store, organization: string, name: string, seed: WorkspaceSeed = {}): Workspace {
  const { createdDaysAgo = 60, ...fields } = seed;
  const createdAt = daysAgo(store, createdDaysAgo);
  const workspace = newWorkspace({
    id: seedId('ws', `${organization}/${name}`),
    name,
    organization,
    createdAt,
    terraformVersion: '1.9.5',
    planOutcome: { hasChanges: true, errors: false, resourceAdditions: 2, resourceChanges: 1, resourceDestructions: 0 },
    ...fields,
  });
  store.workspaces.set(workspace.id, workspace);
  return workspace;
}

/** An uploaded configuration version (two days old unless `createdAt` says), made the workspace's latest (what a run uses by default). */
export function addConfigurationVersion(
  store: Store,
  workspace: Workspace,
  label: string,
  fields: Partial<ConfigurationVersion> = {},
): ConfigurationVersion {
  const createdAt = fields.createdAt ?? daysAgo(store, 2);
  const version: ConfigurationVersion = {
    id: seedId('cv', `${workspace.id}/${label}`),
    workspaceId: workspace.id,
    status: 'uploaded',
    source: 'tfe-api',
    speculative: false,
    provisional: false,
    autoQueueRuns: false,
    errorMessage: null,
    statusTimestamps: { 'uploaded-at': isoSeconds(createdAt) },
    createdAt,
    uploadSecret: seedId('upload', `${workspace.id}/${label}`),
    files: new Map(),
    ingress: null,
    ...fields,
  };
  store.configurationVersions.set(version.id, version);
  workspace.latestConfigurationVersionId = version.id;
  return version;
}

/** A user's lock, as POST /workspaces/:id/actions/lock leaves it. Runs that need the workspace wait until it is unlocked. */
export function lockWorkspace(workspace: Workspace, user: User, reason: string): void {
  workspace.lockedBy = { type: 'users', id: user.id };
  workspace.lockedReason = reason;
}

export interface VariableSeed {
  key: string;
  value: string;
  category: VariableCategory;
  hcl?: boolean;
  sensitive?: boolean;
  description?: string;
}

export function addVariables(store: Store, workspace: Workspace, variables: VariableSeed[]): void {
  for (const seed of variables) {
    const variable: Variable = {
      id: seedId('var', `${workspace.id}/${seed.category}/${seed.key}`),
      workspaceId: workspace.id,
      key: seed.key,
      value: seed.value,
      description: seed.description ?? null,
      category: seed.category,
      hcl: seed.hcl ?? false,
      sensitive: seed.sensitive ?? false,
      createdAt: daysAgo(store, 20),
      versionId: seedId('v', `${workspace.id}/${seed.key}`).slice(2),
    };
    store.variables.set(variable.id, variable);
  }
}

export interface ChangeRequestSeed {
  subject: string;
  message: string;
  createdDaysAgo: number;
  archivedDaysAgo?: number;
  by: User;
}

export function addChangeRequests(store: Store, workspace: Workspace, seeds: ChangeRequestSeed[]): ChangeRequest[] {
  return seeds.map((seed) => {
    const createdAt = daysAgo(store, seed.createdDaysAgo);
    const archivedAt = seed.archivedDaysAgo === undefined ? null : daysAgo(store, seed.archivedDaysAgo);
    const request: ChangeRequest = {
      id: seedId('wscr', `${workspace.id}/${seed.subject}`),
      workspaceId: workspace.id,
      subject: seed.subject,
      message: seed.message,
      createdAt,
      updatedAt: archivedAt ?? createdAt,
      createdByUserId: seed.by.id,
      archivedAt,
      archivedByUserId: archivedAt ? seed.by.id : null,
    };
    store.changeRequests.set(request.id, request);
    return request;
  });
}
