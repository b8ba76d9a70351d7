import * as vscode from 'vscode';
import type { RunSummary } from '../../server/src/protocol';
import { linkedWorkspacesRequest } from '../../server/src/protocol';
import type { ClientDeps } from './clientDeps';
import { prompts } from './prompts';
import type { WorkspaceRef } from './runs/model';
import { runNotification, type NotificationSetting } from './status/notificationDecision';

/**
 * Notifications for runs queued from this window (and, with `hcpTerraform.notifications: all`, every run of a linked
 * workspace): needs confirmation, errored, applied. Never twice for the same run and state.
 */
export function registerRunNotifications(context: vscode.ExtensionContext, deps: ClientDeps): void {
  const shown = new Set<string>();
  const setting = (): NotificationSetting => {
    const value = vscode.workspace.getConfiguration('hcpTerraform').get<string>('notifications', 'mine');
    return value === 'off' || value === 'all' ? value : 'mine';
  };
  const consider = async (hostname: string, workspaceId: string, run: RunSummary) => {
    const mine = deps.activity.isMine(run.id);
    const current = setting();
    if (current === 'off' || (current === 'mine' && !mine)) return;
    const workspace = await workspaceOf(deps, hostname, workspaceId);
    if (!workspace) return; // not a linked workspace (a pinned one only notifies for runs of this window)
    const notification = runNotification(run, workspace.name, current, mine);
    if (!notification || shown.has(notification.key)) return;
    shown.add(notification.key);
    const show = notification.severity === 'error' ? prompts.error : prompts.info;
    const choice = await show(notification.message, ...notification.buttons.map((b) => b.title));
    const button = notification.buttons.find((b) => b.title === choice);
    if (button) await vscode.commands.executeCommand(button.command, { kind: 'run', run, workspace });
  };
  context.subscriptions.push(
    deps.events.onRunsChanged(({ hostname, workspaceId, runs }) => {
      for (const run of runs) void consider(hostname, workspaceId, run);
    }),
  );
}

/** The linked workspace (or, for a run of this window, any workspace the run names). */
async function workspaceOf(deps: ClientDeps, hostname: string, workspaceId: string): Promise<WorkspaceRef | undefined> {
  const folders = await deps.server.request(linkedWorkspacesRequest).catch(() => []);
  const folder = folders.find((f) => f.state.kind === 'linked' && f.state.workspace.id === workspaceId && f.state.workspace.hostname === hostname);
  return folder && folder.state.kind === 'linked' ? { ...folder.state.workspace, folderUri: folder.folderUri } : undefined;
}
