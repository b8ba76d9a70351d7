// queuePlan and the five run actions. Each answers with the run as read after the change (or, when an answer was
// lost, as read back: readBackRuns.ts; when only the read-back failed, the accepted action), and makes the watcher
// follow it, so code lenses and views update without waiting for the next list.
import type { CreateRunInput, Run } from '../api';
import { relatedId, runStatusLabel, ServiceError } from '../api';
import type { RunSummary } from '../protocol';
import { summarizeRun } from '../workspaces/runSummary';
import type { ParsedArguments } from './arguments';
import type { CoreContext, Target } from './context';
import { afterRunChange, resolveTarget } from './context';
import { confirmDestroyPlan, confirmRunAction } from './confirmations';
import { invalidParams, toResponseError } from './errors';
import { readBackQueuedRun, readBackRunAction } from './readBackRuns';
import type { RunAction } from './readBackRuns';
import { validateRunVariables } from './runVariables';
import { doneDespite, mayHaveSucceeded, warnUser } from './uncertainOutcome';

export async function queuePlan(context: CoreContext, args: ParsedArguments<'queuePlan'>): Promise<RunSummary> {
  const variables = args.variables ? validateRunVariables(context.parser(), args.variables) : undefined;
  const target = resolveTarget(context, args);
  if (args.isDestroy === true) await confirmDestroyPlan(context, target, args.workspaceId);
  try {
    const configurationVersionId = await configurationFor(target, args);
    const input: CreateRunInput = { workspaceId: args.workspaceId };
    const copy = ['message', 'isDestroy', 'refresh', 'refreshOnly', 'replaceAddrs', 'targetAddrs', 'planOnly', 'savePlan', 'engineVersion', 'allowEmptyApply', 'allowConfigGeneration', 'autoApply', 'debuggingMode'] as const;
    for (const name of copy) if (args[name] !== undefined) (input as unknown as Record<string, unknown>)[name] = args[name];
    if (variables) input.variables = variables;
    if (configurationVersionId) input.configurationVersionId = configurationVersionId;
    let run: Run;
    try {
      run = await target.client.runs.create(input);
    } catch (error) {
      if (!mayHaveSucceeded(error)) throw error;
      // Never resend: ask the service whether the run is there (throws a ResponseError saying what it found if not).
      run = await readBackQueuedRun(target, args.workspaceId, input.message, error);
      warnUser(context, doneDespite(error, `run ${run.id} with your message is on the workspace`));
    }
    afterRunChange(context, target, run, args.workspaceId);
    return summarizeRun(run);
  } catch (error) {
    throw toResponseError(error, (e) =>
      e.status === 404 && args.isDestroy === true
        ? `Could not queue the destroy plan: workspace ${args.workspaceId} was not found, or destroy plans are not allowed there (the workspace's "Allow destroy plans" setting is off, or this token may not queue them: it needs apply access).`
        : e.status === 404
        ? `Could not queue the plan: workspace ${args.workspaceId} was not found, or this token may not queue runs there (organization tokens never can: sign in with a user or team token).`
        : e.status === 422
          ? `The service refused the plan's options: ${e.detail ?? e.title}. Check the arguments (for example engineVersion needs a plan-only run, and isDestroy excludes refreshOnly).`
          : undefined,
    );
  }
}

/** Promotion: the configuration version to plan, when the arguments name one directly or through a run/workspace. */
async function configurationFor(target: Target, args: ParsedArguments<'queuePlan'>): Promise<string | undefined> {
  if (args.configurationVersionId) return args.configurationVersionId;
  if (args.configurationFromRunId) {
    const { run } = await target.client.runs.get(args.configurationFromRunId);
    const id = relatedId(run, 'configuration-version');
    if (!id) throw invalidParams(`Run ${args.configurationFromRunId} has no configuration version to reuse.`);
    return id;
  }
  if (args.configurationFromWorkspaceId) {
    const { workspace } = await target.client.workspaces.getById(args.configurationFromWorkspaceId);
    const id = relatedId(workspace, 'current-configuration-version');
    if (!id) throw invalidParams(`Workspace ${args.configurationFromWorkspaceId} has no current configuration version to promote; upload or plan there first.`);
    return id;
  }
  return undefined;
}


const conflictMessages: Record<RunAction, (status: string) => string> = {
  applyRun: (status) => `The run is not waiting for confirmation (it is ${status}).`,
  discardRun: (status) => `The run cannot be discarded: it is not paused for confirmation or priority (it is ${status}).`,
  cancelRun: (status) => `The run cannot be canceled: it is not planning or applying (it is ${status}).`,
  forceCancelRun: (status) => `The run cannot be force-canceled now: cancel it normally first and wait for the cool-off period to pass (it is ${status}).`,
  forceExecuteRun: (status) => `The run cannot be force-executed: the run that locks its workspace is not in a discardable state (it is ${status}).`,
};

export async function runAction(context: CoreContext, verb: RunAction, args: { hostname?: string; runId: string; comment?: string }): Promise<RunSummary> {
  const target = resolveTarget(context, args);
  await confirmRunAction(context, target, verb, args.runId);
  const runs = target.client.runs;
  let confirmed: Run | undefined;
  try {
    if (verb === 'applyRun') await runs.apply(args.runId, { comment: args.comment });
    else if (verb === 'discardRun') await runs.discard(args.runId, { comment: args.comment });
    else if (verb === 'cancelRun') await runs.cancel(args.runId, { comment: args.comment });
    else if (verb === 'forceCancelRun') await runs.forceCancel(args.runId, { comment: args.comment });
    else await runs.forceExecute(args.runId);
  } catch (error) {
    if (mayHaveSucceeded(error)) {
      // Never resend: the run as it is now says whether the action happened (else a ResponseError says it did not).
      confirmed = await readBackRunAction(target, verb, args.runId, error);
      warnUser(context, doneDespite(error, `run ${args.runId} is now ${runStatusLabel(confirmed.attributes.status).toLowerCase()}`));
      afterRunChange(context, target, confirmed, relatedId(confirmed, 'workspace'));
      return summarizeRun(confirmed);
    }
    const status = error instanceof ServiceError && (error.status === 409 || error.status === 403) ? await statusOf(target, args.runId) : undefined;
    throw toResponseError(error, (e) => {
      if (e.status === 404) {
        return `Run ${args.runId} was not found, or this token may not do this (organization tokens never can; applying needs apply permission, force-cancel admin access).`;
      }
      if (verb === 'forceExecuteRun' && e.status === 403) {
        return `The run cannot be force-executed: it must be pending while another run locks its workspace (it is ${status ?? 'in another state'}).`;
      }
      if (e.status === 409) return conflictMessages[verb](status ?? 'in another state');
      return undefined;
    });
  }
  let run: Run;
  try {
    run = (await target.client.runs.get(args.runId)).run;
  } catch (error) {
    // The service accepted the action: that is the news, not the failed read that followed it (the watcher shows the
    // run's status once it can read it again).
    context.log(`Run ${args.runId}: the ${actionNames[verb]} was accepted, but the run could not be read back: ${error instanceof Error ? error.message : String(error)}`);
    return acceptedSummary(context, target, verb, args.runId);
  }
  afterRunChange(context, target, run, relatedId(run, 'workspace'));
  return summarizeRun(run);
}

const actionNames: Record<RunAction, string> = { applyRun: 'apply', discardRun: 'discard', cancelRun: 'cancel', forceCancelRun: 'force-cancel', forceExecuteRun: 'force-execute' };

/** The answer for an accepted action whose run could not be read: what was accepted, and no status it cannot know. */
function acceptedSummary(context: CoreContext, target: Target, verb: RunAction, runId: string): RunSummary {
  const workspaceId = context.directory.byRunId(runId)?.workspaceId;
  if (workspaceId) {
    context.watcher.followRun(target.hostname, workspaceId, runId);
    context.watcher.pokeWorkspace(target.hostname, workspaceId);
  }
  const name = actionNames[verb];
  return {
    id: runId,
    status: 'unknown',
    statusLabel: `${name[0]!.toUpperCase()}${name.slice(1)} accepted; status not read yet`,
    ...(workspaceId ? { workspaceId } : {}),
    actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false },
  };
}

async function statusOf(target: Target, runId: string): Promise<string | undefined> {
  try {
    const { run } = await target.client.runs.get(runId);
    return runStatusLabel(run.attributes.status).toLowerCase();
  } catch {
    return undefined;
  }
}

