import * as vscode from 'vscode';
import type { RunSummary } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { registerCommands } from '../commands';
import { hostOf } from '../credentials';
import { prompts } from '../userPrompts';
import { errorMessage } from '../serverAccess';
import { linkedWorkspacesRequest } from '../../../server/src/protocol';
import { linkFolder } from './actions/linkFolder';
import { pickRun, pickWorkspace } from './actions/pickers';
import { queuePlan } from './actions/queuePlan';
import { announceQueuedRun } from './actions/queuedRunNotice';
import { explainForceCancelWait, runActions, runRunAction } from './actions/runActions';
import type { PhaseNode, RunNode } from './model';
import { runNodeOf, workspaceRefOf } from './model';
import type { RunDocuments } from './runDocuments';
import type { RunsTreeProvider } from './tree/runsTreeProvider';

/** Every run command of the palette, the Runs view's menus and the notifications' buttons. */
export function registerRunCommands(context: vscode.ExtensionContext, deps: ClientDeps, runsView: RunsTreeProvider, documents: RunDocuments): void {
  const given = (value: unknown): RunNode | undefined => runNodeOf(value);
  /** A run from the argument, or picked in the palette among what `applies` accepts. */
  const chosenRun = async (value: unknown, title: string, applies: (run: RunSummary) => boolean = () => true): Promise<RunNode | undefined> => {
    const node = given(value);
    if (node) return node;
    const workspace = workspaceRefOf(value) ?? (await pickWorkspace(deps, runsView, `${title}: which workspace?`));
    return workspace ? pickRun(deps, workspace, `${title}: which run of ${workspace.name}?`, applies, { anyRun: true }) : undefined;
  };
  const openLog = async (node: RunNode, phase: 'plan' | 'apply') => {
    try {
      await documents.open({ hostname: node.workspace.hostname, runId: node.run.id, kind: 'log', phase });
    } catch (error) {
      void prompts.error(`HCP Terraform: could not open the ${phase} log: ${errorMessage(error)}`);
    }
  };

  registerCommands(context, {
    'hcpTerraform.applyRun': (node: unknown) => runRunAction(deps, runsView, runActions.applyRun, given(node)),
    'hcpTerraform.discardRun': (node: unknown) => runRunAction(deps, runsView, runActions.discardRun, given(node)),
    'hcpTerraform.cancelRun': (node: unknown) => runRunAction(deps, runsView, runActions.cancelRun, given(node)),
    'hcpTerraform.forceCancelRun': (node: unknown) => runRunAction(deps, runsView, runActions.forceCancelRun, given(node)),
    'hcpTerraform.forceCancelRunWaiting': (node: unknown) => explainForceCancelWait(given(node)),
    'hcpTerraform.forceExecuteRun': (node: unknown) => runRunAction(deps, runsView, runActions.forceExecuteRun, given(node)),
    'hcpTerraform.queuePlan': (node: unknown) => queuePlan(deps, runsView, workspaceRefOf(node)),
    'hcpTerraform.planLocalChanges': (node: unknown) => planLocalChanges(deps, node),
    'hcpTerraform.linkFolder': (node: unknown) => linkFolder(deps, typeof node === 'object' && node !== null ? (node as { folderUri?: string }) : undefined),
    'hcpTerraform.showRunDetails': async (node: unknown) => {
      const run = await chosenRun(node, 'Show Run Details');
      if (run) await documents.open({ hostname: run.workspace.hostname, runId: run.run.id, kind: 'details' }, run.workspace);
    },
    'hcpTerraform.showRunLog': async (node: unknown) => {
      const run = await chosenRun(node, 'Show Run Log', (r) => Boolean(r.planId || r.applyId));
      if (run) await openLog(run, logPhaseOf(run.run));
    },
    'hcpTerraform.showPhaseLog': async (node: unknown) => {
      const phase = node as Partial<PhaseNode> | undefined;
      const run = given(node);
      if (run && (phase?.phase === 'plan' || phase?.phase === 'apply')) await openLog(run, phase.phase);
    },
    'hcpTerraform.openRunInBrowser': async (node: unknown) => {
      const run = await chosenRun(node, 'Open Run in Browser');
      if (!run) return;
      const { hostname, organization, name } = run.workspace;
      const base = hostname === hostOf(deps.address()) ? deps.address().replace(/\/+$/, '') : `https://${hostname}`;
      await vscode.env.openExternal(vscode.Uri.parse(`${base}/app/${encodeURIComponent(organization)}/workspaces/${encodeURIComponent(name)}/runs/${encodeURIComponent(run.run.id)}`));
    },
    'hcpTerraform.copyRunId': async (node: unknown) => {
      const run = await chosenRun(node, 'Copy Run ID');
      if (!run) return;
      await vscode.env.clipboard.writeText(run.run.id);
      vscode.window.setStatusBarMessage(`HCP Terraform: copied ${run.run.id}`, 4_000);
    },
  });
}

/** The log worth reading: the apply's once the apply has started, else the plan's. */
function logPhaseOf(run: RunSummary): 'plan' | 'apply' {
  const applying = ['apply_queued', 'queuing_apply', 'applying', 'applied', 'pre_apply_running', 'pre_apply_completed', 'post_apply_running', 'post_apply_completed'];
  if (run.applyId && applying.includes(run.status)) return 'apply';
  if (run.applyId && run.status === 'errored' && run.statusTimestamps?.['applying-at']) return 'apply';
  return 'plan';
}

/** Uploads the folder's files as they are on disk and queues a speculative plan (the server shows the progress). */
async function planLocalChanges(deps: ClientDeps, node: unknown): Promise<RunSummary | undefined> {
  const folders = (await deps.server.request(linkedWorkspacesRequest)).filter((f) => f.state.kind === 'linked');
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  const named = workspaceRefOf(node)?.folderUri ?? (node as { folderUri?: string } | undefined)?.folderUri;
  const candidates = named ? folders.filter((f) => f.folderUri === named) : folders.sort((a, b) => Number(Boolean(active?.startsWith(`${b.folderUri}/`))) - Number(Boolean(active?.startsWith(`${a.folderUri}/`))));
  if (candidates.length === 0) {
    void prompts.warning('HCP Terraform: no folder here is linked to a workspace. Link one first.', 'Link Folder…').then((c) => c && vscode.commands.executeCommand('hcpTerraform.linkFolder'));
    return undefined;
  }
  const folder =
    candidates.length === 1 || (active && active.startsWith(`${candidates[0]!.folderUri}/`))
      ? candidates[0]!
      : (await prompts.quickPick(candidates.map((f) => ({ label: vscode.workspace.asRelativePath(vscode.Uri.parse(f.folderUri), true), description: f.workspaceName, folder: f })), { title: 'Plan the local changes of which folder?' }))?.folder;
  if (!folder || folder.state.kind !== 'linked') return undefined;
  const workspace = folder.state.workspace;
  const message = await prompts.inputBox({ title: `Plan local changes in ${workspace.name}`, value: 'Local changes from VS Code', ignoreFocusOut: true });
  if (message === undefined) return undefined;
  try {
    const run = await deps.server.command('planLocalChanges', { hostname: workspace.hostname, workspaceId: workspace.id, folderUri: folder.folderUri, message });
    announceQueuedRun(deps, run, { ...workspace, folderUri: folder.folderUri }, 'localFiles');
    return run;
  } catch (error) {
    void prompts.error(`HCP Terraform: could not plan the local changes: ${errorMessage(error)}`);
    return undefined;
  }
}
