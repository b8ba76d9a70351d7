// Apply, discard, cancel, force cancel and force execute: from a Runs view item or the palette (which picks the
// workspace and the run). Destructive ones confirm in a modal that names the workspace and the run; none is ever
// retried (the server never resends a write either), and a failure says what the service said.
import * as vscode from 'vscode';
import type { RunSummary } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { prompts } from '../../userPrompts';
import { errorMessage } from '../../serverAccess';
import type { RunNode } from '../model';
import type { RunsTreeProvider } from '../tree/runsTreeProvider';
import { countdown, forceCancelWaitMs, runLabel } from '../tree/runPresentation';
import { pickRun, pickWorkspace } from './pickers';

type ActionVerb = 'applyRun' | 'discardRun' | 'cancelRun' | 'forceCancelRun' | 'forceExecuteRun';

interface RunAction {
  verb: ActionVerb;
  /** "Apply", as in "Apply Run". */
  name: string;
  /** "Applying" for the progress notification. */
  doing: string;
  /** "applied" for the result message. */
  done: string;
  applies(run: RunSummary): boolean;
  /** The modal's button, for destructive actions. */
  confirm?: string;
  warning?: string;
  comment: boolean;
}

export const runActions: Record<ActionVerb, RunAction> = {
  applyRun: { verb: 'applyRun', name: 'Apply', doing: 'Applying', done: 'confirmed for apply', applies: (r) => r.actions.isConfirmable, confirm: 'Apply', warning: 'Its planned changes will be made to real infrastructure.', comment: true },
  discardRun: { verb: 'discardRun', name: 'Discard', doing: 'Discarding', done: 'discarded', applies: (r) => r.actions.isDiscardable, confirm: 'Discard', warning: 'The plan is thrown away; later runs can proceed.', comment: true },
  cancelRun: { verb: 'cancelRun', name: 'Cancel', doing: 'Canceling', done: 'asked to cancel', applies: (r) => r.actions.isCancelable, comment: true },
  forceCancelRun: { verb: 'forceCancelRun', name: 'Force Cancel', doing: 'Force canceling', done: 'force canceled', applies: (r) => r.actions.isForceCancelable, confirm: 'Force Cancel', warning: 'The running process is killed at once and the workspace unlocked; the state may be left incomplete.', comment: true },
  forceExecuteRun: { verb: 'forceExecuteRun', name: 'Force Execute', doing: 'Force executing', done: 'started', applies: (r) => r.isForceExecutable ?? r.status === 'pending', confirm: 'Force Execute', warning: 'Every earlier run not yet complete in this workspace is canceled.', comment: false },
};

export async function runRunAction(deps: ClientDeps, runsView: RunsTreeProvider | undefined, action: RunAction, given: RunNode | undefined): Promise<RunSummary | undefined> {
  let node = given;
  if (!node) {
    const workspace = await pickWorkspace(deps, runsView, `${action.name} Run: which workspace?`);
    if (!workspace) return undefined;
    node = await pickRun(deps, workspace, `${action.name} which run of ${workspace.name}?`, action.applies);
    if (!node) return undefined;
  }
  const { run, workspace } = node;
  const label = `"${runLabel(run)}" (${run.id}) in ${workspace.organization}/${workspace.name}`;
  if (action.confirm) {
    const answer = await prompts.modal(`${action.name} run ${label}?`, `${action.warning ?? ''}\nIt is ${run.statusLabel.toLowerCase()} now.`.trim(), action.confirm);
    if (answer !== action.confirm) return undefined;
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
    vscode.window.setStatusBarMessage(`HCP Terraform: run ${run.id} ${action.done}; now ${result.statusLabel.toLowerCase()}`, 6_000);
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
