// All of the emulator's state except runs (the runs module keeps its own and registers a reset hook).
// One Store per emulator; reset() empties it in place so every module holding a reference stays valid.
import type { Caller } from './caller';
import type {
  ChangeRequest,
  ConfigurationVersion,
  FeatureSet,
  NotificationRecord,
  Organization,
  Subscription,
  Team,
  TimeSource,
  Token,
  User,
  Variable,
  Workspace,
} from './model';
import { StateVersions } from './stateVersions';
import type { TerraformParser } from '../../../server/src/model';

export type Edition = 'hosted' | 'enterprise';

export class Store {
  readonly organizations = new Map<string, Organization>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly featureSets = new Map<string, FeatureSet>();
  readonly users = new Map<string, User>();
  readonly teams = new Map<string, Team>();
  /** Keyed by secret: lookup is by what the caller presents. */
  readonly tokens = new Map<string, Token>();
  readonly workspaces = new Map<string, Workspace>();
  readonly configurationVersions = new Map<string, ConfigurationVersion>();
  readonly variables = new Map<string, Variable>();
  readonly changeRequests = new Map<string, ChangeRequest>();
  readonly stateVersions = new StateVersions();
  /** The HCL parser, loaded once at start: it reads uploaded configurations and checks run variables' values. */
  terraformParser: TerraformParser | undefined;
  /**
   * Plans are worked out from the uploaded configuration (true in the running emulator). Tests about run
   * phases turn it off so that a run plays its workspace's seeded plan outcome, which they shape directly.
   */
  followConfiguration = true;
  /** Projects other than each organization's default one (created with a workspace's project). */
  readonly extraProjects: Array<{ organization: string; name: string }> = [];
  readonly notifications: NotificationRecord[] = [];

  /** Called after reset() cleared the core collections, before the seed runs again (e.g. the runs module). */
  readonly resetHooks: Array<() => void | Promise<void>> = [];
  /**
   * Called when an upload finished and the configuration version is `uploaded`. The runs module registers
   * here to queue a run when `autoQueueRuns` is set (notes §6).
   */
  readonly uploadHooks: Array<(version: ConfigurationVersion) => void> = [];

  /** Called when a route changed a workspace's lock (e.g. unlock): the runs module starts the next queued run. */
  readonly workspaceChangeHooks: Array<(workspaceId: string) => void> = [];

  /**
   * Called by deleteWorkspace() before the workspace goes, while it can still be read: the runs module drops the
   * workspace's runs (and their plans, applies, logs) and cancels their clock tasks.
   */
  readonly workspaceDeleteHooks: Array<(workspaceId: string) => void> = [];

  /**
   * Serializes run `runId` plus its own includes (`plan`, `apply`, …) for a workspace's `include=current_run…`;
   * set by index.ts from the runs module. Returns [] for an unknown run.
   */
  runIncluder: ((caller: Caller, runId: string, nestedIncludes: string[], origin: string) => unknown[]) | undefined;

  constructor(
    readonly clock: TimeSource,
    readonly edition: Edition,
  ) {}

  now(): Date {
    return this.clock.now();
  }

  clear(): void {
    for (const map of [
      this.organizations,
      this.subscriptions,
      this.featureSets,
      this.users,
      this.teams,
      this.tokens,
      this.workspaces,
      this.configurationVersions,
      this.variables,
      this.changeRequests,
    ]) {
      map.clear();
    }
    this.notifications.length = 0;
    this.stateVersions.clear();
    this.extraProjects.length = 0;
  }

  /**
   * Deletes a workspace with everything that belongs to it, so no list returns a piece of it and no id or blob URL
   * finds one. Add any new collection keyed by workspace here as well as to clear(). The notifications stay: they
   * record what was sent, as the request log records what was asked.
   */
  deleteWorkspace(workspaceId: string): void {
    for (const hook of this.workspaceDeleteHooks) hook(workspaceId);
    for (const map of [this.configurationVersions, this.variables, this.changeRequests]) {
      for (const [id, record] of map) if (record.workspaceId === workspaceId) map.delete(id);
    }
    this.stateVersions.deleteWorkspace(workspaceId);
    for (const team of this.teams.values()) team.workspaceAccess.delete(workspaceId);
    this.workspaces.delete(workspaceId);
  }

  organization(name: string): Organization | undefined {
    return this.organizations.get(name);
  }

  featureSetOf(organization: string): FeatureSet | undefined {
    const org = this.organizations.get(organization);
    const subscription = org && this.subscriptions.get(org.subscriptionId);
    return subscription && this.featureSets.get(subscription.featureSetId);
  }

  /** Whether the organization's feature set switches on a feature, e.g. `cost-estimation`, `change-requests`. */
  hasFeature(organization: string, feature: string): boolean {
    return this.featureSetOf(organization)?.attributes[feature] === true;
  }

  workspace(id: string): Workspace | undefined {
    return this.workspaces.get(id);
  }

  workspaceByName(organization: string, name: string): Workspace | undefined {
    for (const workspace of this.workspaces.values()) {
      if (workspace.organization === organization && workspace.name === name) return workspace;
    }
    return undefined;
  }

  workspacesOf(organization: string): Workspace[] {
    return [...this.workspaces.values()].filter((w) => w.organization === organization);
  }

  teamsOf(organization: string): Team[] {
    return [...this.teams.values()].filter((t) => t.organization === organization);
  }

  ownersTeam(organization: string): Team | undefined {
    return this.teamsOf(organization).find((t) => t.isOwners);
  }

  organizationToken(organization: string): Token | undefined {
    for (const token of this.tokens.values()) {
      if (token.owner.kind === 'organization' && token.owner.organization === organization) return token;
    }
    return undefined;
  }

  variablesOf(workspaceId: string): Variable[] {
    return [...this.variables.values()].filter((v) => v.workspaceId === workspaceId);
  }

  configurationVersion(id: string): ConfigurationVersion | undefined {
    return this.configurationVersions.get(id);
  }

  configurationVersionByUploadSecret(secret: string): ConfigurationVersion | undefined {
    for (const version of this.configurationVersions.values()) {
      if (version.uploadSecret === secret) return version;
    }
    return undefined;
  }

  recordNotification(record: NotificationRecord): void {
    this.notifications.push(record);
  }
}
