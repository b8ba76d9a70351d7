import * as vscode from 'vscode';
import { linkedWorkspacesRequest, workspaceRequest, type LinkedFolder, type LinkedWorkspace, type RunSummary } from '../../server/src/protocol';
import type { ClientDeps } from './clientDeps';
import { log } from './log';
import type { RunNode, WorkspaceNode, WorkspaceRef } from './runs/model';
import { errorMessage } from './serverAccess';
import { currentRunAfterChange, folderForFile, statusBarView } from './statusBarState';

/** What the item shows right now (undefined while hidden), for the end-to-end tests: VS Code cannot read it back. */
export interface StatusBarReader {
  current(): { text: string; tooltip: string; command?: vscode.Command } | undefined;
  /** Fires after every render. */
  readonly onDidRender: vscode.Event<void>;
}

/**
 * The status bar item of the active editor's folder: its workspace and the current run's state, clicking opens the
 * run (or queues a plan when there is none). The current run is read once per workspace (hcpTerraform/workspace),
 * then kept current from runsChanged and this window's own actions, and read again when the server says the
 * workspace changed. The decisions live in statusBarState.ts.
 */
export function registerStatusBar(context: vscode.ExtensionContext, deps: ClientDeps): StatusBarReader {
  const item = vscode.window.createStatusBarItem('hcpTerraform.currentRun', vscode.StatusBarAlignment.Left, 50);
  item.name = 'HCP Terraform: current run';
  const rendered = new vscode.EventEmitter<void>();
  let folders: LinkedFolder[] = [];
  /** workspace id → its current run (undefined: it has none); absent until read. */
  const currentRuns = new Map<string, RunSummary | undefined>();
  const reading = new Map<string, Promise<void>>();
  let visible = false;

  const render = () => {
    const folder = folderForFile(activeFileUri(), folders);
    if (folder?.state.kind !== 'linked') {
      item.hide();
      visible = false;
      rendered.fire();
      return;
    }
    const workspace = folder.state.workspace;
    if (!currentRuns.has(workspace.id)) {
      void readCurrentRun(workspace).then(render);
      return; // keep what is shown until the run is known
    }
    const run = currentRuns.get(workspace.id);
    const view = statusBarView(workspace, run);
    item.text = view.text;
    item.tooltip = view.tooltip;
    item.command = clickCommand(workspace, folder.folderUri, view.run);
    item.show();
    visible = true;
    rendered.fire();
  };

  const readCurrentRun = (workspace: LinkedWorkspace): Promise<void> => {
    const pending = reading.get(workspace.id);
    if (pending) return pending;
    const read = deps.server
      .request(workspaceRequest, { workspaceId: workspace.id, hostname: workspace.hostname })
      .then(
        (summary) => void currentRuns.set(workspace.id, summary.currentRun),
        (error) => {
          // Shown without a run rather than not at all; the next workspace change reads it again.
          log.warn(`Status bar: could not read the current run of ${workspace.organization}/${workspace.name}: ${errorMessage(error)}`);
          currentRuns.set(workspace.id, undefined);
        },
      )
      .finally(() => reading.delete(workspace.id));
    reading.set(workspace.id, read);
    return read;
  };

  const reloadFolders = async () => {
    if (!deps.server.running) return;
    try {
      folders = await deps.server.request(linkedWorkspacesRequest);
    } catch (error) {
      log.warn(`Status bar: could not read the linked folders: ${errorMessage(error)}`);
    }
    render();
  };

  const runsChanged = (workspaceId: string | undefined, runs: RunSummary[]) => {
    if (!workspaceId || !currentRuns.has(workspaceId)) return; // not read yet: the first read gets the newest anyway
    currentRuns.set(workspaceId, currentRunAfterChange(currentRuns.get(workspaceId), runs));
    render();
  };

  context.subscriptions.push(
    item,
    rendered,
    deps.server.onDidStart(() => {
      currentRuns.clear();
      void reloadFolders();
    }),
    deps.events.onWorkspaceChanged((changed) => {
      folders = [...folders.filter((folder) => folder.folderUri !== changed.folderUri), changed];
      if (changed.state.kind === 'linked') currentRuns.delete(changed.state.workspace.id); // read again: the service knows best
      render();
    }),
    deps.events.onRunsChanged(({ workspaceId, runs }) => runsChanged(workspaceId, runs)),
    deps.activity.onDidAct((run) => runsChanged(run.workspaceId, [run])),
    vscode.window.onDidChangeActiveTextEditor(() => render()),
  );
  void reloadFolders();

  return {
    current: () => (visible ? { text: item.text, tooltip: typeof item.tooltip === 'string' ? item.tooltip : '', command: item.command as vscode.Command | undefined } : undefined),
    onDidRender: rendered.event,
  };
}

/** The file of the active editor; undefined for none or a virtual document (a run's details keep the folder's item). */
function activeFileUri(): string | undefined {
  const uri = vscode.window.activeTextEditor?.document.uri;
  return uri?.scheme === 'file' ? uri.toString() : undefined;
}

function clickCommand(linked: LinkedWorkspace, folderUri: string, run: RunSummary | undefined): vscode.Command {
  const workspace: WorkspaceRef = { ...linked, folderUri };
  if (run) {
    const node: RunNode = { kind: 'run', run, workspace };
    return { command: 'hcpTerraform.showRunDetails', title: 'Show Run Details', arguments: [node] };
  }
  const node: WorkspaceNode = { kind: 'workspace', workspace, pinned: false };
  return { command: 'hcpTerraform.queuePlan', title: 'Queue Plan', arguments: [node] };
}
