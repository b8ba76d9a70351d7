// A write that got no clear answer (mayHaveSucceeded: a reset or 5xx after the service acted, a timeout, a cut
// 201) is never sent again: the service is asked what is there now, and the user is told that, so nobody queues a
// second run or applies twice because an answer was lost. Used by runCommands.ts.
import { ResponseError, LSPErrorCodes } from 'vscode-languageserver';
import type { Run } from '../api';
import { allRunOperations, isApiError, runStatusLabel } from '../api';
import type { Target } from './context';

export type RunAction = 'applyRun' | 'discardRun' | 'cancelRun' | 'forceCancelRun' | 'forceExecuteRun';

/** Whether an error is a write the service may have done (the API client marks those). */
export function mayHaveSucceeded(error: unknown): boolean {
  return isApiError(error) && error.mayHaveSucceeded;
}

/** What the user reads first: the API client's message without its generic advice (replaced by what was found). */
function cause(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/ The service may have done it anyway .*$/s, '');
}

function failure(message: string): ResponseError<void> {
  return new ResponseError(LSPErrorCodes.RequestFailed, message);
}

/**
 * After createRun failed uncertainly: the newest run of the workspace with the message sent (runs are listed
 * newest first) is the one that was queued; none means it was not. Without a message, nothing can be matched.
 */
export async function readBackQueuedRun(target: Target, workspaceId: string, message: string | undefined, error: unknown): Promise<Run> {
  let runs: Run[];
  try {
    runs = (await target.client.runs.listForWorkspace(workspaceId, { pageSize: 20, operations: [...allRunOperations] })).items;
  } catch (readError) {
    throw failure(
      `${cause(error)} The plan may have been queued anyway, and the workspace's runs could not be read to check (${describe(readError)}). It was not sent again: look at the Runs view before queuing it again.`,
    );
  }
  const found = message === undefined ? undefined : runs.find((run) => run.attributes.message === message);
  if (found) return found;
  const newest = runs[0];
  const seen = newest ? ` The newest run is ${newest.id} (${runStatusLabel(newest.attributes.status).toLowerCase()}, "${newest.attributes.message ?? ''}").` : ' The workspace has no runs.';
  if (message === undefined) {
    throw failure(`${cause(error)} The plan may have been queued anyway; it was not sent again.${seen} If that is not yours, queue the plan again.`);
  }
  throw failure(`${cause(error)} No run with the message "${message}" is on the workspace, so the plan was not queued; it was not sent again.${seen} Queue it again if you still want it.`);
}

const effects: Record<RunAction, { done: string; happened: (run: Run) => boolean }> = {
  applyRun: { done: 'applied', happened: (run) => run.attributes.actions?.['is-confirmable'] !== true && !['planned', 'cost_estimated', 'policy_checked', 'policy_override'].includes(run.attributes.status) },
  discardRun: { done: 'discarded', happened: (run) => run.attributes.status === 'discarded' },
  cancelRun: { done: 'canceled', happened: (run) => run.attributes.status === 'canceled' || run.attributes.status === 'force_canceled' || Boolean(run.attributes['canceled-at']) },
  forceCancelRun: { done: 'force-canceled', happened: (run) => run.attributes.status === 'force_canceled' || run.attributes.status === 'canceled' },
  forceExecuteRun: { done: 'force-executed', happened: (run) => run.attributes.status !== 'pending' },
};

/** After a run action failed uncertainly: the run as it is now, if the action shows in it; else a failure that says so. */
export async function readBackRunAction(target: Target, verb: RunAction, runId: string, error: unknown): Promise<Run> {
  const effect = effects[verb];
  let run: Run;
  try {
    run = (await target.client.runs.get(runId)).run;
  } catch (readError) {
    throw failure(
      `${cause(error)} The run may have been ${effect.done} anyway, and it could not be read to check (${describe(readError)}). It was not sent again: look at the run before trying again.`,
    );
  }
  if (effect.happened(run)) return run;
  throw failure(`${cause(error)} The run is ${runStatusLabel(run.attributes.status).toLowerCase()}, so it was not ${effect.done}; it was not sent again. Try again if you still want it.`);
}

/** A warning for the user: the write was done although its answer was lost. */
export function doneDespite(error: unknown, what: string): string {
  return `${cause(error)} But ${what}: it was done, and not sent twice.`;
}

function describe(error: unknown): string {
  const message = isApiError(error) || error instanceof Error ? error.message : String(error);
  return message.replace(/\.$/, '');
}
