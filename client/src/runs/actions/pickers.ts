// The palette's pickers: a workspace (linked ones first, the active editor's own preselected, then pinned ones) and
// a run of it (active ones, newest first, only those the action can apply to).
import * as vscode from 'vscode';
import type { RunSummary } from '../../../../server/src/protocol';
import { linkedWorkspacesRequest, runsRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { prompts } from '../../userPrompts';
import { errorMessage } from '../../serverAccess';
import type { RunNode, WorkspaceRef } from '../model';
import type { RunsTreeProvider } from '../tree/runsTreeProvider';
import { relativeTime, runLabel } from '../tree/runPresentation';

const allOperations = ['plan_only', 'plan_and_apply', 'save_plan', 'refresh_only', 'destroy', 'empty_apply'];

/** Linked workspaces (the active editor's first) and pinned ones, without duplicates. */
export async function knownWorkspaces(deps: ClientDeps, runsView: RunsTreeProvider | undefined): Promise<WorkspaceRef[]> {
  return linkedThenPinned(deps, runsView?.workspaceNodes().map((node) => node.workspace) ?? []);
}

/**
 * The workspaces open folders are linked to (the active editor's own first, then the innermost folder), then
 * `pinned`, each once. A linked workspace carries its folderUri; a pinned one that is not also linked does not.
 */
export async function linkedThenPinned(deps: ClientDeps, pinned: readonly WorkspaceRef[]): Promise<WorkspaceRef[]> {
  const folders = await deps.server.request(linkedWorkspacesRequest);
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  const linked = folders
    .filter((folder) => folder.state.kind === 'linked')
    .sort((a, b) => Number(Boolean(active?.startsWith(`${b.folderUri}/`))) - Number(Boolean(active?.startsWith(`${a.folderUri}/`))) || b.folderUri.length - a.folderUri.length)
    .map((folder) => ({ ...(folder.state as { workspace: WorkspaceRef }).workspace, folderUri: folder.folderUri }));
  const seen = new Set<string>();
  return [...linked, ...pinned].filter((workspace) => {
    const key = `${workspace.hostname}/${workspace.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export async function pickWorkspace(deps: ClientDeps, runsView: RunsTreeProvider | undefined, title: string): Promise<WorkspaceRef | undefined> {
  const workspaces = await knownWorkspaces(deps, runsView);
  if (workspaces.length === 0) {
    void prompts.warning('HCP Terraform: no workspace is linked or pinned. Link a folder to a workspace, or pin one in the Runs view.', 'Link Folder…').then((choice) => {
      if (choice) void vscode.commands.executeCommand('hcpTerraform.linkFolder');
    });
    return undefined;
  }
  if (workspaces.length === 1) return workspaces[0];
  const picked = await prompts.quickPick(
    workspaces.map((workspace) => ({
      label: workspace.name,
      description: workspace.organization,
      detail: workspace.folderUri ? vscode.workspace.asRelativePath(vscode.Uri.parse(workspace.folderUri), true) : 'pinned',
      workspace,
    })),
    { title, placeHolder: 'Workspace' },
  );
  return picked?.workspace;
}

/** A run of the workspace that `applies` accepts: active runs (or, with `anyRun`, recent ones), newest first. */
export async function pickRun(
  deps: ClientDeps,
  workspace: WorkspaceRef,
  title: string,
  applies: (run: RunSummary) => boolean,
  options: { anyRun?: boolean } = {},
): Promise<RunNode | undefined> {
  let runs: RunSummary[];
  try {
    const result = await deps.server.request(runsRequest, {
      hostname: workspace.hostname,
      workspaceId: workspace.id,
      pageSize: 20,
      operations: allOperations,
      ...(options.anyRun ? {} : { statusGroup: 'non_final' }),
    });
    runs = result.runs.filter(applies);
  } catch (error) {
    void prompts.error(`HCP Terraform: could not list the runs of ${workspace.name}: ${errorMessage(error)}`);
    return undefined;
  }
  if (runs.length === 0) {
    void prompts.information(`HCP Terraform: ${workspace.name} has no run this applies to.`);
    return undefined;
  }
  const now = Date.now();
  const picked = await prompts.quickPick(
    runs.map((run) => ({ label: runLabel(run), description: [run.statusLabel, relativeTime(run.createdAt, now)].filter(Boolean).join(' · '), detail: run.id, run })),
    { title, placeHolder: 'Run (newest first)', matchOnDetail: true },
  );
  return picked ? { kind: 'run', run: picked.run, workspace } : undefined;
}
