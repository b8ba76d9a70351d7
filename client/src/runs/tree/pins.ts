import * as vscode from 'vscode';
import type { WorkspaceRef } from '../model';

const pinsKey = 'hcpTerraform.pinnedWorkspaces';

/** Fires after any pin or unpin, so every view listing pinned workspaces (Runs, Change Requests, Variables) follows. */
const pinsChanged = new vscode.EventEmitter<void>();
export const onDidChangePins = pinsChanged.event;

/**
 * Workspaces the user pinned to the Runs view, remembered for this window's folders (workspaceState), in the order
 * they were pinned. Only names and ids are kept: nothing secret.
 */
export class PinnedWorkspaces {
  constructor(private readonly state: vscode.Memento) {}

  all(): WorkspaceRef[] {
    return this.state.get<WorkspaceRef[]>(pinsKey, []);
  }

  has(workspace: { id: string; hostname: string }): boolean {
    return this.all().some((pin) => pin.id === workspace.id && pin.hostname === workspace.hostname);
  }

  async pin(workspace: WorkspaceRef): Promise<void> {
    if (this.has(workspace)) return;
    const { id, name, organization, hostname } = workspace;
    await this.state.update(pinsKey, [...this.all(), { id, name, organization, hostname }]);
    pinsChanged.fire();
  }

  async unpin(workspace: { id: string; hostname: string }): Promise<void> {
    await this.state.update(pinsKey, this.all().filter((pin) => !(pin.id === workspace.id && pin.hostname === workspace.hostname)));
    pinsChanged.fire();
  }
}
