// Runs of the demo workspace that the run-command suites act on: demo-app as the client knows it, and a run of our
// own brought to "needs confirmation".
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunSummary } from '../../../server/src/protocol';
import { linkedWorkspacesRequest } from '../../../server/src/protocol';
import type { WorkspaceRef } from '../../../client/src/runs/model';
import { emulatorGet, languageClient, queueRunOnService, runReaches, withPrompts } from './helpers';

export async function demoApp(): Promise<WorkspaceRef> {
  const folders = await languageClient().sendRequest(linkedWorkspacesRequest);
  const folder = folders.find((f) => f.state.kind === 'linked' && f.state.workspace.name === 'demo-app');
  assert.ok(folder && folder.state.kind === 'linked', 'demo-app is not linked');
  return { ...folder.state.workspace, folderUri: folder.folderUri };
}

export const node = (run: RunSummary, workspace: WorkspaceRef) => ({ kind: 'run', run, workspace });
const confirmable = (run: RunSummary) => run.actions.isConfirmable;
const settled = new Set(['applied', 'discarded', 'errored', 'canceled', 'force_canceled', 'planned_and_finished', 'planned_and_saved', 'policy_soft_failed']);

/**
 * A run of demo-app of our own, moved to "needs confirmation" (force-executed past whatever holds the workspace).
 * Plans follow the configuration, so once a run applied the next would have nothing to change: ours replaces the
 * app's name, which always needs confirmation.
 */
export async function runAwaitingConfirmation(workspace: WorkspaceRef, message: string): Promise<RunSummary> {
  const id = await queueRunOnService('demo-app', message, { 'replace-addrs': ['random_pet.app_name'] });
  for (let attempt = 0; attempt < 3; attempt++) {
    const queued = await runReaches(id, 'queued or further', () => true);
    if (queued.status !== 'pending') break;
    // Force-execute discards the run holding the workspace, which the service allows only once that run can be
    // discarded (not while it plans): wait for that, then force-execute unless ours started by itself meanwhile.
    const holder = (await emulatorGet(`/workspaces/${workspace.id}`)).data.relationships['current-run']?.data?.id as string | undefined;
    if (holder && holder !== id) await runReaches(holder, 'discardable or done', (run) => run.actions.isDiscardable || settled.has(run.status));
    const now = await runReaches(id, 'queued or further', () => true);
    if (now.status !== 'pending') break;
    await withPrompts({ modal: ['Force Execute'] }, () => vscode.commands.executeCommand('hcpTerraform.forceExecuteRun', node(now, workspace)));
  }
  return runReaches(id, 'awaiting confirmation', confirmable);
}
