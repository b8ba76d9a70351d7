// What the user is told once a run is queued, wherever it was queued from (Queue Plan…, Plan Local Changes, a code
// lens or code action): the run becomes this window's, so its completion is notified too (hcpTerraform.notifications).
import * as vscode from 'vscode';
import type { RunSummary } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { prompts } from '../../userPrompts';
import type { WorkspaceRef } from '../model';

/** `plan`: a run of the workspace's configuration; `localFiles`: a speculative plan of the folder's files on disk. */
export type QueuedRunKind = 'plan' | 'localFiles';

export function announceQueuedRun(deps: ClientDeps, run: RunSummary, workspace: WorkspaceRef, kind: QueuedRunKind): void {
  deps.activity.queued(run);
  const node = { kind: 'run', run, workspace };
  if (kind === 'localFiles') {
    void prompts.information(`HCP Terraform: a plan of your local files is queued in ${workspace.name}.`, 'Show Log').then((choice) => {
      if (choice) void vscode.commands.executeCommand('hcpTerraform.showRunLog', node);
    });
    return;
  }
  const what = run.isDestroy ? 'destroy plan' : 'plan';
  void prompts.information(`HCP Terraform: ${what} queued in ${workspace.name} (${run.statusLabel.toLowerCase()}).`, 'Show Details').then((choice) => {
    if (choice) void vscode.commands.executeCommand('hcpTerraform.showRunDetails', node);
  });
}
