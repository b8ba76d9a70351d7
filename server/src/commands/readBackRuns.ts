// Read-backs after queuePlan or a run action lost its answer (uncertainOutcome.ts says why): the run is looked up and
// the user is told whether it is there or the action shows in it. Used by runCommands.ts.
import type { Run } from '../api';
import { allRunOperations, runStatusLabel } from '../api';
import type { Target } from './context';
import { describeReadError, lostAnswerCause, outcomeFailure } from './uncertainOutcome';

export type RunAction = 'applyRun' | 'discardRun' | 'cancelRun' | 'forceCancelRun' | 'forceExecuteRun';

/**
 * After createRun failed uncertainly: the newest run of the workspace with the message sent (runs are listed
 * newest first) is the one that was queued; none means it was not. Without a message, nothing can be matched.
 */
export async function readBackQueuedRun(target: Target, workspaceId: string, message: string | undefined, error: unknown): Promise<Run> {
  const cause = lostAnswerCause(error);
  let runs: Run[];
  try {
    runs = (await target.client.runs.listForWorkspace(workspaceId, { pageSize: 20, operations: [...allRunOperations] })).items;
  } catch (readError) {
    throw outcomeFailure(
      `${cause} The plan may have been queued anyway, and the workspace's runs could not be read to check (${describeReadError(readError)}). It was not sent again: look at the Runs view before queuing it again.`,
    );
  }
  const found = message === undefined ? undefined : runs.find((run) => run.attributes.message === message);
  if (found) return found;
  const newest = runs[0];
  const seen = newest ? ` The newest run is ${newest.id} (${runStatusLabel(newest.attributes.status).toLowerCase()}, "${newest.attributes.message ?? ''}").` : ' The workspace has no runs.';
  if (message === undefined) {
    throw outcomeFailure(`${cause} The plan may have been queued anyway; it was not sent again.${seen} If that is not yours, queue the plan again.`);
  }
  throw outcomeFailure(`${cause} No run with the message "${message}" is on the workspace, so the plan was not queued; it was not sent again.${seen} Queue it again if you still want it.`);
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
  const cause = lostAnswerCause(error);
  let run: Run;
  try {
    run = (await target.client.runs.get(runId)).run;
  } catch (readError) {
    throw outcomeFailure(
      `${cause} The run may have been ${effect.done} anyway, and it could not be read to check (${describeReadError(readError)}). It was not sent again: look at the run before trying again.`,
    );
  }
  if (effect.happened(run)) return run;
  throw outcomeFailure(`${cause} The run is ${runStatusLabel(run.attributes.status).toLowerCase()}, so it was not ${effect.done}; it was not sent again. Try again if you still want it.`);
}
