// What a destructive command asks before anything is sent, worded once for both places that ask: VS Code's modal
// (the client imports this file, which imports no `vscode`) and the server's window/showMessageRequest in the other
// editors (confirmations.ts). The same question wherever the command starts.
import type { RunSummary } from '../protocol';
import type { RunAction } from './readBackRuns';

export interface DestructiveQuestion {
  message: string;
  detail: string;
  /** The button that goes ahead; anything else (dismissing, Escape, "Do nothing") sends nothing. */
  button: string;
}

export type ConfirmedRunAction = 'applyRun' | 'discardRun' | 'forceCancelRun' | 'forceExecuteRun';

interface NamedWorkspace {
  organization: string;
  name: string;
}

/** The button and the action's name in the question ("Apply run …?"). Cancel asks nothing: the run stops at a safe point. */
export const runActionButtons: Record<ConfirmedRunAction, string> = {
  applyRun: 'Apply',
  discardRun: 'Discard',
  forceCancelRun: 'Force Cancel',
  forceExecuteRun: 'Force Execute',
};

/** What the action does to this run. */
export const runActionWarnings: Record<ConfirmedRunAction, (run: RunSummary) => string> = {
  applyRun: applyWarning,
  discardRun: () => 'The plan is thrown away; later runs can proceed.',
  forceCancelRun: () => 'The running process is killed at once and the workspace unlocked; the state may be left incomplete.',
  forceExecuteRun: () => 'Every earlier run not yet complete in this workspace is canceled.',
};

/** Whether the run, as last read, allows the action: its `actions` flags; force-execute, a run pending behind another. */
export const runActionAllowed: Record<RunAction, (run: RunSummary) => boolean> = {
  applyRun: (run) => run.actions.isConfirmable,
  discardRun: (run) => run.actions.isDiscardable,
  cancelRun: (run) => run.actions.isCancelable,
  forceCancelRun: (run) => run.actions.isForceCancelable,
  forceExecuteRun: (run) => run.isForceExecutable ?? run.status === 'pending',
};

export function isConfirmedRunAction(verb: string): verb is ConfirmedRunAction {
  return Object.hasOwn(runActionButtons, verb);
}

export function runActionQuestion(verb: ConfirmedRunAction, run: RunSummary, workspace: NamedWorkspace): DestructiveQuestion {
  const button = runActionButtons[verb];
  return {
    message: `${button} run ${describeRun(run, workspace)}?`,
    detail: `${runActionWarnings[verb](run)}\nIt is ${run.statusLabel.toLowerCase()} now.`,
    button,
  };
}

/** `"Scale up" (run-1) in acme/web`: how a run is named in questions and errors. */
export function describeRun(run: Pick<RunSummary, 'id' | 'message'>, workspace: NamedWorkspace): string {
  const firstLine = (run.message ?? '').split(/\r?\n/)[0]?.trim();
  return `"${firstLine || `Run ${run.id}`}" (${run.id}) in ${workspace.organization}/${workspace.name}`;
}

export function destroyPlanQuestion(workspace: NamedWorkspace): DestructiveQuestion {
  return {
    message: `Queue a destroy plan in ${workspace.organization}/${workspace.name}?`,
    detail: 'If applied, it destroys every resource of the workspace.',
    button: 'Queue Destroy Plan',
  };
}

export interface DeletedVariable {
  key: string;
  sensitive: boolean;
  /** Whether the code declares it, so its default (if any) applies once the workspace's value is gone. */
  declared?: boolean;
}

export function deleteVariableQuestion(variable: DeletedVariable, workspaceName: string): DestructiveQuestion {
  return {
    message: `Delete the variable "${variable.key}" of ${workspaceName}?`,
    detail: `The next run of ${workspaceName} no longer gets it${variable.declared ? `; the code's default (if any) applies instead` : ''}. This cannot be undone${variable.sensitive ? ', and its sensitive value cannot be read back' : ''}.`,
    button: 'Delete',
  };
}

/** A destroy run's apply removes what the workspace manages: "planned changes" would hide that. */
function applyWarning(run: RunSummary): string {
  if (!run.isDestroy) return 'Its planned changes will be made to real infrastructure.';
  const count = run.resourceDestructions;
  const what = count === undefined ? 'every resource the workspace manages' : `${count} resource${count === 1 ? '' : 's'} the workspace manages`;
  return `This is a destroy run: applying it destroys ${what} in real infrastructure.`;
}
