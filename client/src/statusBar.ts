import * as vscode from 'vscode';
import type { RunSummary } from '../../server/src/protocol';
import { linkedWorkspacesRequest, workspaceRequest } from '../../server/src/protocol';
import type { ClientDeps } from './clientDeps';
import { log } from './log';
import { errorMessage } from './serverAccess';
import { folderForActiveFile, nextCurrentRun, statusBarState, type StatusBarState } from './status/statusBarState';

/**
 * The workspace of the active editor's folder and its current run, in the status bar; a click opens the run (or
 * queues a plan when there is none). Hidden for files outside linked folders.
 */
export class WorkspaceStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hcpTerraform.workspace', vscode.StatusBarAlignment.Left, 50);
  private readonly currentRuns = new Map<string, RunSummary | undefined>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly updated = new vscode.EventEmitter<StatusBarState | undefined>();
  /** Fires after each re-render (tests wait on it). */
  readonly onDidUpdate = this.updated.event;
  /** What the item shows now (VS Code has no API to read a status bar item). */
  state: StatusBarState | undefined;
  private generation = 0;

  constructor(private readonly deps: ClientDeps) {
    this.item.name = 'HCP Terraform workspace';
    this.subscriptions.push(
      vscode.window.onDidChangeActiveTextEditor(() => void this.update()),
      deps.events.onWorkspaceChanged(() => void this.update()),
      deps.server.onDidStart(() => void this.update()),
      deps.credentials.onDidChange(() => {
        this.currentRuns.clear();
        void this.update();
      }),
      deps.events.onRunsChanged(({ hostname, workspaceId, runs }) => {
        const key = `${hostname}/${workspaceId}`;
        if (!this.currentRuns.has(key)) return;
        this.currentRuns.set(key, nextCurrentRun(this.currentRuns.get(key), runs));
        void this.update();
      }),
    );
    void this.update();
  }

  async update(): Promise<void> {
    const generation = ++this.generation;
    try {
      if (!this.deps.server.running) return this.show(undefined, generation);
      const folders = await this.deps.server.request(linkedWorkspacesRequest);
      const folder = folderForActiveFile(folders, vscode.window.activeTextEditor?.document.uri.toString());
      if (!folder) return this.show(undefined, generation);
      const { workspace } = folder.state;
      const key = `${workspace.hostname}/${workspace.id}`;
      if (!this.currentRuns.has(key)) {
        const summary = await this.deps.server.request(workspaceRequest, { hostname: workspace.hostname, workspaceId: workspace.id });
        this.currentRuns.set(key, summary.currentRun);
      }
      this.show(statusBarState(folder, this.currentRuns.get(key)), generation);
    } catch (error) {
      log.warn(`Status bar: ${errorMessage(error)}`);
    }
  }

  private show(state: StatusBarState | undefined, generation: number): void {
    if (generation !== this.generation) return; // a newer update is under way
    this.state = state;
    if (!state) {
      this.item.hide();
    } else {
      this.item.text = state.text;
      this.item.tooltip = state.tooltip;
      this.item.command = state.run
        ? { command: 'hcpTerraform.showRunDetails', title: 'Show Run Details', arguments: [{ kind: 'run', run: state.run, workspace: state.workspace }] }
        : { command: 'hcpTerraform.queuePlan', title: 'Queue Plan', arguments: [{ kind: 'workspace', workspace: state.workspace, pinned: false }] };
      this.item.show();
    }
    this.updated.fire(state);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
    this.updated.dispose();
  }
}

export function registerStatusBar(context: vscode.ExtensionContext, deps: ClientDeps): WorkspaceStatusBar {
  const statusBar = new WorkspaceStatusBar(deps);
  context.subscriptions.push(statusBar);
  return statusBar;
}
