// The workspaces the Change Requests and Variables views show: those open folders are linked to (one each), then
// the ones pinned in the Runs view, without duplicates.
import * as vscode from 'vscode';
import { linkedWorkspacesRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import type { WorkspaceRef } from '../runs/model';
import { PinnedWorkspaces } from '../runs/tree/pins';

export class ViewWorkspaces {
  private readonly pins: PinnedWorkspaces;

  constructor(
    private readonly deps: ClientDeps,
    state: vscode.Memento,
  ) {
    this.pins = new PinnedWorkspaces(state);
  }

  /** Linked workspaces first (the active editor's own first), then pinned ones. Empty while the server is down. */
  async list(): Promise<Array<WorkspaceRef & { pinned: boolean }>> {
    if (!this.deps.server.running) return [];
    const folders = await this.deps.server.request(linkedWorkspacesRequest);
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const linked = folders
      .filter((folder) => folder.state.kind === 'linked')
      .sort((a, b) => Number(Boolean(active?.startsWith(`${b.folderUri}/`))) - Number(Boolean(active?.startsWith(`${a.folderUri}/`))))
      .map((folder) => ({ ...(folder.state as { workspace: WorkspaceRef }).workspace, folderUri: folder.folderUri, pinned: false }));
    const all = [...linked, ...this.pins.all().map((pin) => ({ ...pin, pinned: true }))];
    const seen = new Set<string>();
    return all.filter((workspace) => {
      const key = `${workspace.hostname}/${workspace.id}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}
