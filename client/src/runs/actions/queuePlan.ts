// Queue Plan: numbered steps with Back over every create-run option (spec §4.2), a summary before anything is
// sent, nothing queued if the user leaves at any step, and a refused plan's choices kept for the user to change.
import * as vscode from 'vscode';
import type { RunSummary } from '../../../../server/src/protocol';
import { resourceAddressesRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { prompts } from '../../userPrompts';
import { errorMessage } from '../../serverAccess';
import type { WorkspaceRef } from '../model';
import type { RunsTreeProvider } from '../tree/runsTreeProvider';
import { pickWorkspace } from './pickers';
import { announceQueuedRun } from './queuedRunNotice';
import { queuePlanArguments, summarize, type QueuePlanChoices } from './queuePlanOptions';
import { askChoices, type ResourceItem } from './queuePlanSteps';

/** The button of a refused plan's error that opens the steps again with what was chosen. */
export const changeAndRetry = 'Change and Retry';

export async function queuePlan(deps: ClientDeps, runsView: RunsTreeProvider | undefined, given: WorkspaceRef | undefined): Promise<RunSummary | undefined> {
  const workspace = given ?? (await pickWorkspace(deps, runsView, 'Queue Plan: which workspace?'));
  if (!workspace) return undefined;
  const addresses = workspace.folderUri ? await deps.server.request(resourceAddressesRequest, { folderUri: workspace.folderUri }).catch(() => []) : [];
  const resources: ResourceItem[] = addresses.map((a) => ({ label: a.address, description: a.kind === 'module' ? 'module' : undefined, detail: `${vscode.workspace.asRelativePath(vscode.Uri.parse(a.uri), true)}:${a.line + 1}` }));
  let choices: QueuePlanChoices | undefined;
  for (;;) {
    choices = await askChoices(deps, workspace, resources, choices);
    if (!choices || !(await confirmed(workspace, choices))) return undefined;
    try {
      const args = queuePlanArguments(choices);
      const run = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Queuing a plan in ${workspace.name}…` }, () => deps.server.command('queuePlan', args));
      announceQueuedRun(deps, run, workspace, 'plan');
      return run;
    } catch (error) {
      // The server queues nothing it is not sure of (a lost answer is read back, never resent), so going through the
      // steps again with the same choices is the user's own new request, not a blind retry.
      const choice = await prompts.error(`HCP Terraform: the plan was not queued in ${workspace.name}: ${errorMessage(error)}`, changeAndRetry);
      if (choice !== changeAndRetry) return undefined;
    }
  }
}

async function confirmed(workspace: WorkspaceRef, choices: QueuePlanChoices): Promise<boolean> {
  const lines = summarize(choices, `${workspace.organization}/${workspace.name}`);
  if (choices.kind === 'destroy') {
    const answer = await prompts.modal(`Queue a destroy plan in ${workspace.organization}/${workspace.name}?`, `${lines.join('\n')}\n\nIf applied, it destroys every resource of the workspace.`, 'Queue Destroy Plan');
    return answer === 'Queue Destroy Plan';
  }
  const go = await prompts.quickPick([{ label: '$(play) Queue plan', go: true, detail: lines.join(' · ') }, { label: 'Cancel', go: false }], { title: 'Queue Plan: summary' });
  return go?.go === true;
}
