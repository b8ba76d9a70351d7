// What command handlers and view requests need from the core: the client of the right host, the knowledge to
// refresh after a change, the run watcher to follow queued runs, and the parser to validate HCL literals.
import type { Confirm } from './confirmations';
import type { Connection } from 'vscode-languageserver';
import type { Run, ServiceClient } from '../api';
import type { TerraformParser } from '../model';
import type { ModuleFolders } from '../documents/moduleFolders';
import type { PlanOverlays } from '../plans/planOverlays';
import type { WorkspaceDirectory } from '../workspaces/directory';
import type { ServiceHosts } from '../workspaces/hosts';
import type { WorkspaceKnowledge } from '../workspaces/knowledge';
import type { RunWatcher } from '../workspaces/runWatcher';
import { invalidParams } from './errors';

export interface CoreContext {
  connection: Connection;
  hosts: ServiceHosts;
  directory: WorkspaceDirectory;
  watcher: RunWatcher;
  folders: ModuleFolders;
  /** The plans shown on the code (showPlanOnCode, the plan requests). */
  plans: PlanOverlays;
  parser(): TerraformParser | undefined;
  /** Whether the client accepts window/workDoneProgress/create. */
  supportsWorkDoneProgress(): boolean;
  /**
   * Asks the user before a destructive command (confirmations.ts); absent when the client asks its own question
   * (initializationOptions.prompts.confirmations: VS Code's modal).
   */
  confirm?: Confirm;
  log(message: string): void;
}

export interface Target {
  hostname: string;
  client: ServiceClient;
  /** The linked workspace's knowledge, when the workspace is one an open folder is linked to. */
  knowledge?: WorkspaceKnowledge;
}

/** Which host a request is about: the explicit hostname, else the host of the known workspace or run, else the configured one. */
export function resolveTarget(context: CoreContext, hint: { hostname?: string; workspaceId?: string; runId?: string }): Target {
  const knowledge =
    (hint.workspaceId ? context.directory.byWorkspaceId(hint.workspaceId) : undefined) ?? (hint.runId ? context.directory.byRunId(hint.runId) : undefined);
  const hostname = hint.hostname?.toLowerCase() ?? knowledge?.target.hostname ?? context.hosts.configuredHost;
  const client = context.hosts.clientFor(hostname);
  if (!client) {
    const blocked = context.hosts.blocked(hostname);
    if (blocked) throw invalidParams(blocked);
    throw invalidParams(`Not signed in to ${hostname}: sign in (or set TF_TOKEN_… / run \`terraform login ${hostname}\`), then try again.`);
  }
  const sameHost = knowledge && knowledge.target.hostname === hostname ? knowledge : undefined;
  return { hostname, client, ...(sameHost ? { knowledge: sameHost } : {}) };
}

/** After a command changed runs: record the run, follow it until final, and re-list its workspace soon. */
export function afterRunChange(context: CoreContext, target: Target, run: Run, workspaceId: string | undefined): void {
  if (!workspaceId) return;
  context.directory.recordRuns(target.hostname, workspaceId, [run], false);
  context.watcher.followRun(target.hostname, workspaceId, run.id, run);
  context.watcher.pokeWorkspace(target.hostname, workspaceId);
  if (target.knowledge) void context.directory.refreshCurrentRun(target.knowledge);
}
