// What each run action is called, when it applies and how it is confirmed: one table for every way a run action
// starts (the Runs view, the palette, a code lens or code action through the command middleware), so all ask the
// same question. No `vscode` import, so the wording is unit-tested with node:test.
import type { RunSummary } from '../../../../server/src/protocol';
import type { WorkspaceRef } from '../model';
import { countdown, forceCancelWaitMs, runLabel } from '../tree/runPresentation';

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
  /** The modal's button, for destructive actions. */
  confirm?: string;
  /** What the action does to this run, said in the modal. */
  warning?(run: RunSummary): string;
  comment: boolean;
  /**
   * What the user is told once the service accepted it, when the run is not yet where the action takes it (a cancel
   * stops the run at its next safe point): a notification, not a passing status bar message. Others say it there.
   */
  afterwards?(result: RunSummary, workspace: Pick<WorkspaceRef, 'organization' | 'name'>, now: number): string;
}

export const runActions: Record<RunActionVerb, RunAction> = {
  applyRun: { verb: 'applyRun', name: 'Apply', doing: 'Applying', done: 'confirmed for apply', applies: (r) => r.actions.isConfirmable, confirm: 'Apply', warning: applyWarning, comment: true },
  discardRun: { verb: 'discardRun', name: 'Discard', doing: 'Discarding', done: 'discarded', applies: (r) => r.actions.isDiscardable, confirm: 'Discard', warning: () => 'The plan is thrown away; later runs can proceed.', comment: true },
  cancelRun: { verb: 'cancelRun', name: 'Cancel', doing: 'Canceling', done: 'asked to cancel', applies: (r) => r.actions.isCancelable, comment: true, afterwards: afterCancel },
  forceCancelRun: { verb: 'forceCancelRun', name: 'Force Cancel', doing: 'Force canceling', done: 'force canceled', applies: (r) => r.actions.isForceCancelable, confirm: 'Force Cancel', warning: () => 'The running process is killed at once and the workspace unlocked; the state may be left incomplete.', comment: true },
  forceExecuteRun: { verb: 'forceExecuteRun', name: 'Force Execute', doing: 'Force executing', done: 'started', applies: (r) => r.isForceExecutable ?? r.status === 'pending', confirm: 'Force Execute', warning: () => 'Every earlier run not yet complete in this workspace is canceled.', comment: false },
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

/** A destroy run's apply removes what the workspace manages: "planned changes" would hide that. */
function applyWarning(run: RunSummary): string {
  if (!run.isDestroy) return 'Its planned changes will be made to real infrastructure.';
  const count = run.resourceDestructions;
  const what = count === undefined ? 'every resource the workspace manages' : `${count} resource${count === 1 ? '' : 's'} the workspace manages`;
  return `This is a destroy run: applying it destroys ${what} in real infrastructure.`;
}

export interface RunActionQuestion {
  message: string;
  detail: string;
  /** The button that goes ahead; anything else (Cancel, Escape) does nothing. */
  button: string;
}

/** The modal a destructive action asks before anything is sent; undefined for one that needs none (cancel). */
export function confirmationOf(action: RunAction, run: RunSummary, workspace: Pick<WorkspaceRef, 'organization' | 'name'>): RunActionQuestion | undefined {
  if (!action.confirm) return undefined;
  return {
    message: `${action.name} run ${describeRunIn(run, workspace)}?`,
    detail: `${action.warning?.(run) ?? ''}\nIt is ${run.statusLabel.toLowerCase()} now.`.trim(),
    button: action.confirm,
  };
}

/** `"Scale up" (run-1) in acme/web`: how a run is named in questions and errors. */
export function describeRunIn(run: RunSummary, workspace: Pick<WorkspaceRef, 'organization' | 'name'>): string {
  return `"${runLabel(run)}" (${run.id}) in ${workspace.organization}/${workspace.name}`;
}
