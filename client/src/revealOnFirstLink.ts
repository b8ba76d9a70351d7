import * as vscode from 'vscode';
import type { ClientDeps } from './clientDeps';
import { log } from './log';

const shownKey = 'hcpTerraform.sidebarShownForLinkedFolder';

/**
 * The first time this installation opens a folder linked to a workspace, the HCP Terraform sidebar opens by itself,
 * so a new user sees the runs without looking for the activity-bar icon. Once per installation (globalState): after
 * that the sidebar stays where the user left it.
 */
export function revealSidebarOnFirstLink(context: vscode.ExtensionContext, deps: ClientDeps): void {
  if (context.globalState.get<boolean>(shownKey)) return;
  const subscription = deps.events.onWorkspaceChanged((folder) => {
    if (folder.state.kind !== 'linked' || context.globalState.get<boolean>(shownKey)) return;
    subscription.dispose();
    void context.globalState.update(shownKey, true);
    void vscode.commands.executeCommand('workbench.view.extension.hcpTerraform').then(undefined, (error: unknown) => {
      log.warn(`Could not open the HCP Terraform sidebar: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
  context.subscriptions.push(subscription);
}
