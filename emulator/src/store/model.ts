// The emulator's records. Plain data, so a test can read them directly and the seed can build them literally.
// Wire names (kebab-case attributes) live only in the serializers under routes/.

/** Anything that can tell the time: the emulator's one clock (clock.ts) satisfies it. */
export interface TimeSource {
  now(): Date;
}

export type TokenRole = 'owner' | 'member' | 'reader' | 'team' | 'organization';

/** Workspace access levels, ordered (each includes the ones before it). */
export type AccessLevel = 'read' | 'plan' | 'write' | 'admin';
export const accessLevels: readonly AccessLevel[] = ['read', 'plan', 'write', 'admin'];

export interface FeatureSet {
  id: string; // fs-…
  name: string;
  identifier: string;
  /** The tier's attributes in wire form (kebab-case), served as they are. */
  attributes: Record<string, unknown>;
}

export interface Subscription {
  id: string; // sub-…
  organization: string;
  featureSetId: string;
  attributes: Record<string, unknown>;
}

export interface Organization {
  name: string; // the organization's id is its name
  email: string;
  createdAt: Date;
  subscriptionId: string;
  /** Service user the organization token authenticates as (notes §2). */
  serviceUserId: string;
}

export interface User {
  id: string; // user-…
  username: string;
  email: string;
  /** Team and organization tokens authenticate as a synthetic service user (notes §2). */
  isServiceAccount: boolean;
}

export interface Team {
  id: string; // team-…
  name: string;
  organization: string;
  /** The owners team has admin on every workspace and manages the organization token. */
  isOwners: boolean;
  memberIds: string[];
  /** Workspace id → access level; the owners team ignores this (admin everywhere). */
  workspaceAccess: Map<string, AccessLevel>;
  /** Service user the team token authenticates as. */
  serviceUserId: string;
}

export type TokenOwner =
  | { kind: 'user'; userId: string }
  | { kind: 'team'; teamId: string }
  | { kind: 'organization'; organization: string };

export interface Token {
  id: string; // at-… (the organization token's id)
  secret: string;
  owner: TokenOwner;
  createdAt: Date;
  expiredAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: { id: string; type: 'users' | 'teams' | 'organizations' } | null;
  /** Which seeded role this is, for the request log; never the secret. */
  role?: TokenRole;
}

/** What the runs module needs to know to simulate policy checks (notes §4.7). */
export interface PolicySetSetting {
  name: string;
  enforcement: 'advisory' | 'soft-mandatory' | 'hard-mandatory';
  /** Whether its policies pass on this workspace's runs. */
  passes: boolean;
}

/** What the runs module needs to know to simulate run tasks (notes §4.7). */
export interface RunTaskSetting {
  name: string;
  stage: 'pre_plan' | 'post_plan' | 'pre_apply' | 'post_apply';
  enforcement: 'advisory' | 'mandatory';
  passes: boolean;
}

export interface Workspace {
  id: string; // ws-…
  name: string;
  organization: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  autoApply: boolean;
  /** `allow-destroy-plan`; undefined = true, the service's default. Off, destroy plans cannot be queued. */
  allowDestroyPlan?: boolean;
  terraformVersion: string;
  workingDirectory: string;
  executionMode: 'remote' | 'local' | 'agent';
  tagNames: string[];
  /** The project it belongs to (every organization has a "Default Project"); undefined = the default one. */
  projectId?: string;
  /** Key/value tag bindings (`PATCH /workspaces/:id/tag-bindings`). */
  tagBindings?: Array<{ key: string; value: string }>;
  /** Lock held by a run (runs module) or a user; null when unlocked. */
  lockedBy: { type: 'runs' | 'users'; id: string } | null;
  lockedReason: string;
  /** Set by the runs module when a run becomes the workspace's current run. */
  currentRunId: string | null;
  /** Most recently created or used configuration version: a run's default (spec §4.2). */
  latestConfigurationVersionId: string | null;
  policySets: PolicySetSetting[];
  runTasks: RunTaskSetting[];
  /** Whether plan and apply logs are Terraform's JSON lines (the CLI renders them); undefined = on, the service's default. */
  structuredRunOutputEnabled?: boolean;
  /** How the simulated plan turns out, for the runs module: whether it has changes and whether it errors. */
  planOutcome: { hasChanges: boolean; errors: boolean; resourceAdditions: number; resourceChanges: number; resourceDestructions: number };
}

export type ConfigurationVersionStatus = 'pending' | 'fetching' | 'uploaded' | 'errored' | 'archived' | string;

export interface ConfigurationVersion {
  id: string; // cv-…
  workspaceId: string;
  status: ConfigurationVersionStatus;
  source: string;
  speculative: boolean;
  provisional: boolean;
  autoQueueRuns: boolean;
  errorMessage: string | null;
  statusTimestamps: Record<string, string>;
  createdAt: Date;
  /** Secret part of the unauthenticated upload URL (only revealed in the create response). */
  uploadSecret: string;
  /** Uploaded files: archive path → content. */
  files: Map<string, Buffer>;
  /** Commit info for VCS-sourced versions (ingress attributes); null for API uploads. */
  ingress: IngressAttributes | null;
}

export interface IngressAttributes {
  id: string; // ia-…
  branch: string;
  commitSha: string;
  commitMessage: string;
  senderUsername: string;
  identifier: string;
}

export type VariableCategory = 'engine' | 'env';

export interface Variable {
  id: string; // var-…
  workspaceId: string;
  key: string;
  value: string;
  description: string | null;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
  createdAt: Date;
  versionId: string;
}

export interface ChangeRequest {
  id: string; // wscr-…
  workspaceId: string;
  subject: string;
  message: string;
  createdAt: Date;
  updatedAt: Date;
  createdByUserId: string | null;
  archivedAt: Date | null;
  archivedByUserId: string | null;
}

export interface NotificationRecord {
  time: string;
  kind: 'change-request-created';
  organization: string;
  workspace: string; // workspace name
  workspaceId: string;
  changeRequestId: string;
  subject: string;
  /** Names of the teams notified (those with access to the workspace). */
  teams: string[];
}
