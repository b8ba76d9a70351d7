// Apply, discard, cancel, force cancel and force execute: from a Runs view item, the palette (which picks the
// workspace and the run), or a code lens or code action (the command middleware reads the run first). Destructive
// ones confirm in a modal that names the workspace and the run (runActionDefinitions.ts); none is ever retried (the
// server never resends a write either), and a failure says what the service said.
import * as vscode from 'vscode';
import type { RunSummary } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { prompts } from '../../userPrompts';
import { errorMessage } from '../../serverAccess';
import type { RunNode } from '../model';
import type { RunsTreeProvider } from '../tree/runsTreeProvider';
import { countdown, forceCancelWaitMs, runLabel } from '../tree/runPresentation';
import { pickRun, pickWorkspace } from './pickers';
import { confirmationOf, describeRunIn, type RunAction } from './runActionDefinitions';

export { runActions } from './runActionDefinitions';

export async function runRunAction(deps: ClientDeps, runsView: RunsTreeProvider | undefined, action: RunAction, given: RunNode | undefined): Promise<RunSummary | undefined> {
  let node = given;
  if (!node) {
    const workspace = await pickWorkspace(deps, runsView, `${action.name} Run: which workspace?`);
    if (!workspace) return undefined;
    node = await pickRun(deps, workspace, `${action.name} which run of ${workspace.name}?`, action.applies);
    if (!node) return undefined;
  }
  const { run, workspace } = node;
  const label = describeRunIn(run, workspace);
  const question = confirmationOf(action, run, workspace);
  if (question) {
    const answer = await prompts.modal(question.message, question.detail, question.button);
    if (answer !== question.button) return undefined;
  }
  let comment: string | undefined;
  if (action.comment) {
    comment = await prompts.inputBox({ title: `${action.name} ${runLabel(run)}`, prompt: 'A comment for the run’s history (optional; Enter to skip)', ignoreFocusOut: true });
    if (comment === undefined) return undefined; // Escape: the user changed their mind
  }
  try {
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `${action.doing} ${runLabel(run)}…` },
      () => deps.server.command(action.verb, { hostname: workspace.hostname, runId: run.id, ...(comment ? { comment } : {}) } as never),
    );
    deps.activity.changed(result);
    const told = action.afterwards?.(result, workspace, Date.now());
    if (told) void prompts.information(told);
    else vscode.window.setStatusBarMessage(`HCP Terraform: run ${run.id} ${action.done}; now ${result.statusLabel.toLowerCase()}`, 6_000);
    return result;
  } catch (error) {
    void prompts.error(`HCP Terraform: could not ${action.name.toLowerCase()} run ${label}: ${errorMessage(error)}`);
    return undefined;
  }
}

/** The disabled "Force Cancel (after the cool-off)" entry, if invoked anyway: says how long is left. */
export function explainForceCancelWait(node: RunNode | undefined): void {
  const wait = node ? forceCancelWaitMs(node.run, Date.now()) : undefined;
  void prompts.information(wait === undefined ? 'HCP Terraform: force cancel is possible now: use Force Cancel Run.' : `HCP Terraform: force cancel becomes possible in ${countdown(wait)}, once the cool-off after the cancel ends.`);
}
