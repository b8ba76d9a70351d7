// The workspaces the Change Requests and Variables views show: those open folders are linked to (one each), then
// the ones pinned in the Runs view, without duplicates.
import * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import { linkedThenPinned } from '../runs/actions/pickers';
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
    const workspaces = await linkedThenPinned(this.deps, this.pins.all().map(({ folderUri: _, ...pin }) => pin));
    return workspaces.map((workspace) => ({ ...workspace, pinned: workspace.folderUri === undefined }));
  }
}
