import * as vscode from 'vscode';
import { linkedWorkspacesRequest, workspaceRequest, type LinkedFolder, type RunsChangedParams } from '../../server/src/protocol';
import type { ClientDeps } from './clientDeps';
import { log } from './log';
import { buttonCommands, decideRunNotification, parseNotificationSetting } from './runNotificationDecision';
import type { RunNode, WorkspaceRef } from './runs/model';
import { errorMessage } from './serverAccess';
import { prompts } from './userPrompts';

/**
 * How a notification's button reaches its command. A seam for the end-to-end tests, which check the button runs
 * the right command with the right run without letting it act on the service; production never replaces it.
 */
export const notificationCommands = {
  execute: (command: string, node: RunNode): Thenable<unknown> => vscode.commands.executeCommand(command, node),
};

/**
 * Notifications for runs (setting `hcpTerraform.notifications`): those queued from this window, and with `all` every
 * run of a linked workspace, when they need confirmation (Apply / Discard / Show), errored (Show Log) or applied.
 * What to say is decided in runNotificationDecision.ts; this file listens and shows.
 */
export function registerRunNotifications(context: vscode.ExtensionContext, deps: ClientDeps): void {
  const notified = new Set<string>();
  const since = Date.now();
  /** Linked workspaces by id, with their folder (from the server's folder list and its changes). */
  const linked = new Map<string, WorkspaceRef>();
  const others = new Map<string, Promise<WorkspaceRef | undefined>>();

  const learnFolder = (folder: LinkedFolder) => {
    if (folder.state.kind === 'linked') linked.set(folder.state.workspace.id, { ...folder.state.workspace, folderUri: folder.folderUri });
  };
  const workspaceOf = (hostname: string, workspaceId: string): Promise<WorkspaceRef | undefined> => {
    const known = linked.get(workspaceId);
    if (known) return Promise.resolve(known);
    let pending = others.get(workspaceId);
    if (!pending) {
      pending = deps.server.request(workspaceRequest, { workspaceId, hostname }).then(
        (summary) => ({ id: summary.id, name: summary.name, organization: summary.organization, hostname: summary.hostname, permissions: summary.permissions }),
        (error) => {
          others.delete(workspaceId); // try again on the next change
          log.warn(`Run notifications: could not read workspace ${workspaceId}: ${errorMessage(error)}`);
          return undefined;
        },
      );
      others.set(workspaceId, pending);
    }
    return pending;
  };

  const runsChanged = async ({ hostname, workspaceId, runs }: RunsChangedParams) => {
    const setting = parseNotificationSetting(vscode.workspace.getConfiguration('hcpTerraform').get('notifications'));
    if (setting === 'off') return;
    for (const run of runs) {
      const mine = deps.activity.isMine(run.id);
      if (!mine && setting !== 'all') continue;
      const workspace = await workspaceOf(hostname, workspaceId);
      if (!workspace) continue;
      const decision = decideRunNotification(run, { setting, mine, linked: linked.has(workspaceId), workspaceName: workspace.name, alreadyNotified: notified, since });
      if (!decision) continue;
      notified.add(decision.key);
      const show = decision.severity === 'error' ? prompts.error : prompts.information;
      void Promise.resolve(show(decision.message, ...decision.buttons)).then(async (choice) => {
        const button = decision.buttons.find((candidate) => candidate === choice);
        if (!button) return;
        try {
          await notificationCommands.execute(buttonCommands[button], { kind: 'run', run, workspace });
        } catch (error) {
          void prompts.error(`HCP Terraform: ${button} failed: ${errorMessage(error)}`);
        }
      });
    }
  };

  const reloadFolders = async () => {
    try {
      for (const folder of await deps.server.request(linkedWorkspacesRequest)) learnFolder(folder);
    } catch (error) {
      log.warn(`Run notifications: could not read the linked folders: ${errorMessage(error)}`);
    }
  };

  context.subscriptions.push(
    deps.server.onDidStart(() => void reloadFolders()),
    deps.events.onWorkspaceChanged(learnFolder),
    deps.events.onRunsChanged((params) => void runsChanged(params)),
  );
  if (deps.server.running) void reloadFolders();
}
