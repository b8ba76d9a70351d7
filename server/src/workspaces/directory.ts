// Every linked workspace the server knows, shared by all folders linked to it: loads it from the service when a
// folder links to it, keeps its variables fresh (one read per minute), takes runs from the run watcher, and tells
// listeners when something changed. Never called on a keystroke: only link changes, timers and commands refresh.
import { mergeVariables } from './variableRefresh';
import type { Run, ServiceClient } from '../api';
import { includedCurrentRun, isApiError, currentRunId, RateLimitedError, ServiceError } from '../api';
import { runSchema } from '../api/schemas/runs';
import type { FeatureSetSummary } from '../features/host';
import type { ServiceHosts } from './hosts';
import { knowledgeKey, snapshotVariable, summarizeFeatureSet, WorkspaceKnowledge } from './knowledge';
import type { KnowledgeTarget } from './knowledge';
import type { LinkProblem } from './linkProblemNotices';
import { isServiceDown } from './serviceDown';
import { workspacePermissions } from './workspacePermissions';
import type { RunWatcher } from './runWatcher';
import type { TimerHandle, Timers } from './timers';

export interface WorkspaceDirectoryOptions {
  hosts: ServiceHosts;
  watcher: RunWatcher;
  timers: Timers;
  onChanged(knowledge: WorkspaceKnowledge): void;
  onSignInNeeded(hostname: string, reason: string): void;
  /** Each read of a workspace: the problem it met (told to the user once), or undefined when it succeeded. */
  onLinkProblem?(knowledge: WorkspaceKnowledge, problem: LinkProblem | undefined): void;
  log(message: string): void;
  variablesRefreshMs?: number;
}

interface Entry {
  knowledge: WorkspaceKnowledge;
  users: number;
  loading?: Promise<void>;
  reloadRequested?: boolean;
  timer?: TimerHandle;
}

export class WorkspaceDirectory {
  private readonly entries = new Map<string, Entry>();
  private readonly featureSets = new Map<string, Promise<FeatureSetSummary | null>>();
  private disposed = false;

  constructor(private readonly options: WorkspaceDirectoryOptions) {}

  /** The shared knowledge of a workspace; loads it the first time. Pair with release(). */
  acquire(target: KnowledgeTarget): WorkspaceKnowledge {
    const key = knowledgeKey(target);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { knowledge: new WorkspaceKnowledge(target), users: 0 };
      this.entries.set(key, entry);
      void this.reload(entry.knowledge);
    }
    entry.users++;
    return entry.knowledge;
  }

  release(knowledge: WorkspaceKnowledge): void {
    const entry = this.entries.get(knowledge.key);
    if (!entry || --entry.users > 0) return;
    entry.timer?.cancel();
    this.entries.delete(knowledge.key);
    if (knowledge.workspaceId) this.options.watcher.unwatchWorkspace(knowledge.target.hostname, knowledge.workspaceId);
  }

  all(): WorkspaceKnowledge[] {
    return [...this.entries.values()].map((entry) => entry.knowledge);
  }

  byWorkspaceId(workspaceId: string): WorkspaceKnowledge | undefined {
    return this.all().find((knowledge) => knowledge.workspaceId === workspaceId);
  }

  byRunId(runId: string): WorkspaceKnowledge | undefined {
    return this.all().find((knowledge) => knowledge.hasRun(runId));
  }

  /** Re-reads everything of a workspace (after sign-in, a setting change, or a command that changed it). */
  reload(knowledge: WorkspaceKnowledge): Promise<void> {
    const entry = this.entries.get(knowledge.key);
    if (!entry) return Promise.resolve();
    if (entry.loading) {
      entry.reloadRequested = true;
      return entry.loading;
    }
    // load() turns service errors into states; this catch is for the unexpected (a listener that throws), so that
    // the many `void this.reload(...)` callers can never leave an unhandled rejection behind.
    entry.loading = this.load(entry)
      .catch((error: unknown) => this.options.log(`Reading workspace ${knowledge.target.name} failed: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        entry.loading = undefined;
        if (entry.reloadRequested && !this.disposed) {
          entry.reloadRequested = false;
          void this.reload(knowledge);
        }
      });
    return entry.loading;
  }

  reloadHost(hostname: string): void {
    for (const knowledge of this.all()) if (knowledge.target.hostname === hostname) void this.reload(knowledge);
  }

  /** Re-reads only the variables (after a variable command). */
  async reloadVariables(knowledge: WorkspaceKnowledge): Promise<void> {
    const client = this.options.hosts.clientFor(knowledge.target.hostname);
    if (client) await this.loadVariables(client, knowledge);
  }

  /** Runs the watcher (or a command) read. */
  recordRuns(hostname: string, workspaceId: string, runs: Run[], complete: boolean): void {
    for (const knowledge of this.all()) {
      if (knowledge.target.hostname !== hostname || knowledge.workspaceId !== workspaceId) continue;
      if (knowledge.recordRuns(runs, complete)) this.options.onChanged(knowledge);
    }
  }

  /** A run's status changed: the workspace's current run may have moved too (cheap: one general-budget read). */
  async refreshCurrentRun(knowledge: WorkspaceKnowledge): Promise<void> {
    const client = this.options.hosts.clientFor(knowledge.target.hostname);
    if (!client || !knowledge.workspaceId) return;
    try {
      const document = await client.workspaces.getById(knowledge.workspaceId, { include: ['current_run'] });
      if (this.applyWorkspaceDocument(knowledge, document)) this.options.onChanged(knowledge);
    } catch (error) {
      this.options.log(describe(error));
    }
  }

  dispose(): void {
    this.disposed = true;
    for (const entry of this.entries.values()) entry.timer?.cancel();
    this.entries.clear();
  }

  // ---- loading ----

  private async load(entry: Entry): Promise<void> {
    const knowledge = entry.knowledge;
    const { hostname, organization, name } = knowledge.target;
    const client = this.options.hosts.clientFor(hostname);
    if (!client) {
      const blocked = this.options.hosts.blocked(hostname);
      if (blocked) {
        this.options.log(blocked);
        this.setState(knowledge, { kind: 'error', message: blocked });
        // A trust question has its own prompt; the rest only the user can fix, so they hear of it.
        const problem = this.options.hosts.tokenProblem(hostname);
        if (problem) this.options.onLinkProblem?.(knowledge, { kind: 'token', message: `HCP Terraform: ${problem}` });
        return;
      }
      this.setState(knowledge, { kind: 'signed-out', hostname });
      this.options.onSignInNeeded(hostname, `No API token for ${hostname}: sign in, set TF_TOKEN_… or run \`terraform login ${hostname}\`.`);
      return;
    }
    try {
      const document = await client.workspaces.getByName(organization, name, { include: ['current_run'] });
      if (this.disposed || !this.entries.has(knowledge.key)) return;
      const previousId = knowledge.workspaceId;
      this.applyWorkspaceDocument(knowledge, document);
      const permissions = workspacePermissions(document.workspace);
      knowledge.state = {
        kind: 'linked',
        workspace: { id: document.workspace.id, name: document.workspace.attributes.name, organization, hostname, ...(Object.keys(permissions).length > 0 ? { permissions } : {}) },
      };
      knowledge.changed();
      if (previousId && previousId !== document.workspace.id) this.options.watcher.unwatchWorkspace(hostname, previousId);
      this.options.watcher.watchWorkspace(hostname, document.workspace.id);
      this.options.onChanged(knowledge);
      this.options.onLinkProblem?.(knowledge, undefined);
    } catch (error) {
      // A name the service does not have is an error on the name itself (the workspace-link diagnostic), not a
      // notice: relinking follows the typing, and every pause in typing a name would have raised one.
      if (error instanceof ServiceError && error.status === 404) {
        this.setState(knowledge, { kind: 'not-found', hostname, organization, name });
        this.options.onLinkProblem?.(knowledge, undefined);
      } else if (error instanceof ServiceError && error.status === 401) {
        this.signedOut(knowledge);
      } else {
        this.setState(knowledge, { kind: 'error', message: describe(error) });
        // Rate-limited even after the request layer's own waits: again when the service said, else in a minute.
        if (error instanceof RateLimitedError) {
          this.scheduleRefresh(entry, Math.min(60_000, Math.max(1_000, error.retryAfterMs ?? 60_000)));
          return;
        }
        this.options.onLinkProblem?.(knowledge, isServiceDown(error)
          ? { kind: 'service-down', workspace: name, cause: describe(error) }
          : { kind: 'unreadable', message: `HCP Terraform: could not read workspace "${name}" on ${hostname}: ${describe(error)} Trying again every minute.` });
      }
      this.scheduleRefresh(entry, 60_000);
      return;
    }
    await Promise.all([this.loadVariables(client, knowledge), this.loadFeatureSet(client, knowledge)]);
    this.scheduleRefresh(entry, this.options.variablesRefreshMs ?? 60_000);
  }

  private applyWorkspaceDocument(knowledge: WorkspaceKnowledge, document: Awaited<ReturnType<ServiceClient['workspaces']['getById']>>): boolean {
    const runId = currentRunId(document.workspace);
    let changed = knowledge.workspaceId !== document.workspace.id || knowledge.currentRunId !== runId;
    knowledge.workspaceId = document.workspace.id;
    knowledge.currentRunId = runId;
    const included = includedCurrentRun(document);
    const parsed = included ? runSchema.safeParse(included) : undefined;
    if (parsed?.success && knowledge.recordRuns([parsed.data], false)) changed = true;
    if (changed) knowledge.changed();
    return changed;
  }

  private async loadVariables(client: ServiceClient, knowledge: WorkspaceKnowledge): Promise<void> {
    try {
      const variables = await client.variables.list({ organization: knowledge.target.organization, workspace: knowledge.target.name });
      this.options.onLinkProblem?.(knowledge, undefined);
      const merged = mergeVariables(knowledge.variables, variables.map(snapshotVariable));
      if (merged === knowledge.variables) return; // nothing changed since the last read
      knowledge.variables = merged;
      knowledge.changed();
      this.options.onChanged(knowledge);
    } catch (error) {
      this.options.log(describe(error));
      // A token refused since the workspace was read: its variables may no longer be the service's, and every
      // action on it would fail the same way.
      if (error instanceof ServiceError && error.status === 401) this.signedOut(knowledge);
      // Otherwise the values last read stay (a dropped connection loses nothing), and the user hears why once.
      else if (!(error instanceof RateLimitedError)) {
        const { name, hostname } = knowledge.target;
        const retry = knowledge.variables ? 'Showing those read before; trying again every minute.' : 'Trying again every minute.';
        this.options.onLinkProblem?.(knowledge, isServiceDown(error)
          ? { kind: 'service-down', workspace: name, cause: describe(error) }
          : { kind: 'unreadable', message: `HCP Terraform: could not read the variables of workspace "${name}" on ${hostname}: ${describe(error)} ${retry}` });
      }
    }
  }

  private signedOut(knowledge: WorkspaceKnowledge): void {
    const { hostname } = knowledge.target;
    this.setState(knowledge, { kind: 'signed-out', hostname });
    this.options.onSignInNeeded(hostname, `The service at ${hostname} refused the API token (401): sign in again.`);
  }

  private async loadFeatureSet(client: ServiceClient, knowledge: WorkspaceKnowledge): Promise<void> {
    const key = `${knowledge.target.hostname}\u0000${knowledge.target.organization}`;
    let pending = this.featureSets.get(key);
    if (!pending) {
      pending = client.organization
        .getSubscription(knowledge.target.organization)
        .then(({ featureSet }) => summarizeFeatureSet(featureSet))
        .catch((error: unknown) => {
          // Terraform Enterprise has no subscription interface: a 404 is normal there, not an error.
          if (error instanceof ServiceError && error.status === 404) return null;
          this.featureSets.delete(key);
          throw error;
        });
      this.featureSets.set(key, pending);
    }
    try {
      knowledge.featureSet = await pending;
      knowledge.changed();
      this.options.onChanged(knowledge);
    } catch (error) {
      this.options.log(describe(error));
    }
  }

  private scheduleRefresh(entry: Entry, ms: number): void {
    entry.timer?.cancel();
    if (this.disposed) return;
    entry.timer = this.options.timers.setTimer(ms, () => {
      entry.timer = undefined;
      if (!this.entries.has(entry.knowledge.key)) return;
      const client = this.options.hosts.clientFor(entry.knowledge.target.hostname);
      if (entry.knowledge.state.kind === 'linked' && client) {
        void this.loadVariables(client, entry.knowledge).finally(() => this.scheduleRefresh(entry, ms));
      } else void this.reload(entry.knowledge);
    });
  }

  private setState(knowledge: WorkspaceKnowledge, state: WorkspaceKnowledge['state']): void {
    knowledge.state = state;
    knowledge.variables = undefined;
    knowledge.changed();
    this.options.onChanged(knowledge);
  }
}

function describe(error: unknown): string {
  if (isApiError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

