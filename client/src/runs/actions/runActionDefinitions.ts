// What each run action is called, when it applies and how it is confirmed: one table for every way a run action
// starts (the Runs view, the palette, a code lens or code action through the command middleware), so all ask the
// same question. No `vscode` import, so the wording is unit-tested with node:test.
import type { RunSummary } from '../../../../server/src/protocol';
import { describeRun, isConfirmedRunAction, runActionAllowed, runActionQuestion } from '../../../../server/src/commands/destructiveQuestions';
import type { DestructiveQuestion } from '../../../../server/src/commands/destructiveQuestions';
import type { WorkspaceRef } from '../model';
import { countdown, forceCancelWaitMs } from '../tree/runPresentation';

export type RunActionVerb = 'applyRun' | 'discardRun' | 'cancelRun' | 'forceCancelRun' | 'forceExecuteRun';

export interface RunAction {
  verb: RunActionVerb;
  /** "Apply", as in "Apply Run". */
  name: string;
  /** "Applying" for the progress notification. */
  doing: string;
  /** "applied" for the result message. */
  done: string;
  applies(run: RunSummary): boolean;
  comment: boolean;
  /**
   * What the user is told once the service accepted it, when the run is not yet where the action takes it (a cancel
   * stops the run at its next safe point): a notification, not a passing status bar message. Others say it there.
   */
  afterwards?(result: RunSummary, workspace: Pick<WorkspaceRef, 'organization' | 'name'>, now: number): string;
}

export const runActions: Record<RunActionVerb, RunAction> = {
  applyRun: { verb: 'applyRun', name: 'Apply', doing: 'Applying', done: 'confirmed for apply', applies: runActionAllowed.applyRun, comment: true },
  discardRun: { verb: 'discardRun', name: 'Discard', doing: 'Discarding', done: 'discarded', applies: runActionAllowed.discardRun, comment: true },
  cancelRun: { verb: 'cancelRun', name: 'Cancel', doing: 'Canceling', done: 'asked to cancel', applies: runActionAllowed.cancelRun, comment: true, afterwards: afterCancel },
  forceCancelRun: { verb: 'forceCancelRun', name: 'Force Cancel', doing: 'Force canceling', done: 'force canceled', applies: runActionAllowed.forceCancelRun, comment: true },
  forceExecuteRun: { verb: 'forceExecuteRun', name: 'Force Execute', doing: 'Force executing', done: 'started', applies: runActionAllowed.forceExecuteRun, comment: false },
};

/** The run action a server command (`hcpTerraform.server.applyRun`, from a code lens or code action) performs, if any. */
export function runActionOfServerCommand(command: string): RunAction | undefined {
  const verb = command.startsWith('hcpTerraform.server.') ? command.slice('hcpTerraform.server.'.length) : undefined;
  return verb && Object.hasOwn(runActions, verb) ? runActions[verb as RunActionVerb] : undefined;
}

/** A cancel is a request: the run stops at its next safe point, and Force Cancel is the way out if it does not. */
function afterCancel(result: RunSummary, workspace: Pick<WorkspaceRef, 'organization' | 'name'>, now: number): string {
  const named = describeRunIn(result, workspace);
  if (result.status === 'canceled' || result.status === 'force_canceled') return `HCP Terraform: run ${named} is canceled.`;
  const wait = forceCancelWaitMs(result, now);
  const fallback = wait !== undefined ? `Force Cancel becomes possible in ${countdown(wait)}` : result.actions.isForceCancelable ? 'Force Cancel is possible now' : 'Force Cancel becomes possible after a cool-off';
  return `HCP Terraform: asked run ${named} to cancel; it stops at its next safe point (now ${result.statusLabel.toLowerCase()}). If it does not stop, ${fallback}.`;
}

export type RunActionQuestion = DestructiveQuestion;

/** The modal a destructive action asks before anything is sent; undefined for one that needs none (cancel). */
export function confirmationOf(action: RunAction, run: RunSummary, workspace: Pick<WorkspaceRef, 'organization' | 'name'>): RunActionQuestion | undefined {
  return isConfirmedRunAction(action.verb) ? runActionQuestion(action.verb, run, workspace) : undefined;
}

/** `"Scale up" (run-1) in acme/web`: how a run is named in questions and errors. */
export function describeRunIn(run: RunSummary, workspace: Pick<WorkspaceRef, 'organization' | 'name'>): string {
  return describeRun(run, workspace);
}
