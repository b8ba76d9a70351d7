// The run commands code lenses and code actions carry (hcpTerraform.server.applyRun, .queuePlan…), as VS Code runs
// them through the command middleware: they take the Runs view's own path, so applying from a lens asks the same
// modal and comment, and a run queued from a code action is announced and followed to its completion notification.
import type { Middleware } from 'vscode-languageclient/node';
import type { PlanLocalChangesArguments, QueuePlanArguments, RunActionArguments, RunSummary } from '../../../../server/src/protocol';
import { runDetailsRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { log } from '../../log';
import { errorMessage } from '../../serverAccess';
import { prompts } from '../../userPrompts';
import type { RunNode } from '../model';
import { describeRunIn, type RunAction } from './runActionDefinitions';
import { runRunAction } from './runActions';
import { announceQueuedRun, type QueuedRunKind } from './queuedRunNotice';
import { workspaceRefById } from './workspaceLookup';

type Next = Parameters<NonNullable<Middleware['executeCommand']>>[2];

/**
 * A lens's run may have moved on since the lens was drawn: the run is read again, so the modal says what it is now
 * and an action it no longer allows is explained instead of sent. Nothing is sent if the run cannot be read.
 */
export async function actOnRunOfServerCommand(deps: ClientDeps, action: RunAction, argument: RunActionArguments): Promise<RunSummary | undefined> {
  let node: RunNode;
  try {
    const { run } = await deps.server.request(runDetailsRequest, { runId: argument.runId, ...(argument.hostname ? { hostname: argument.hostname } : {}) });
    if (!run.workspaceId) throw new Error('the service did not say which workspace it belongs to');
    node = { kind: 'run', run, workspace: await workspaceRefById(deps, argument.hostname, run.workspaceId) };
  } catch (error) {
    log.error(`${action.verb} ${argument.runId}: could not read the run: ${errorMessage(error)}`);
    void prompts.error(`HCP Terraform: could not read run ${argument.runId}, so nothing was sent: ${errorMessage(error)}`);
    return undefined;
  }
  if (!action.applies(node.run)) {
    void prompts.information(`HCP Terraform: ${action.name} is no longer possible for run ${describeRunIn(node.run, node.workspace)}: it is ${node.run.statusLabel.toLowerCase()} now.`);
    return undefined;
  }
  return runRunAction(deps, undefined, action, node);
}

/** Queues through the server, after the modal the Runs view asks for a destroy plan, then announces the run. */
export async function queueRunOfServerCommand(deps: ClientDeps, command: string, argument: QueuePlanArguments | PlanLocalChangesArguments, next: Next): Promise<RunSummary | undefined> {
  const kind: QueuedRunKind = 'folderUri' in argument ? 'localFiles' : 'plan';
  const workspaceId = argument.workspaceId;
  if (kind === 'plan' && (argument as QueuePlanArguments).isDestroy === true) {
    const workspace = await workspaceRefById(deps, argument.hostname, workspaceId);
    const button = 'Queue Destroy Plan';
    const answer = await prompts.modal(`Queue a destroy plan in ${workspace.organization}/${workspace.name}?`, 'If applied, it destroys every resource of the workspace.', button);
    if (answer !== button) return undefined;
  }
  const run = (await next(command, [argument])) as RunSummary | undefined;
  if (!run?.id) return run;
  try {
    announceQueuedRun(deps, run, await workspaceRefById(deps, argument.hostname, run.workspaceId ?? workspaceId), kind);
  } catch (error) {
    // Queued all the same: it is this window's run, and the user hears of it without the workspace's name.
    log.warn(`Queued run ${run.id}, but could not read its workspace: ${errorMessage(error)}`);
    deps.activity.queued(run);
    void prompts.information(`HCP Terraform: ${run.isDestroy ? 'destroy plan' : 'plan'} queued, run ${run.id} (${run.statusLabel.toLowerCase()}).`);
  }
  return run;
}
