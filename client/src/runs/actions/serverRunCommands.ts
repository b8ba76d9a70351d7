// The run commands code lenses and code actions carry (hcpTerraform.server.applyRun…), as VS Code runs them through
// the command middleware: they take the Runs view's own path, so applying from a lens asks the same modal and comment.
import type { RunActionArguments, RunSummary } from '../../../../server/src/protocol';
import { runDetailsRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { log } from '../../log';
import { errorMessage } from '../../serverAccess';
import { prompts } from '../../userPrompts';
import type { RunNode } from '../model';
import { describeRunIn, type RunAction } from './runActionDefinitions';
import { runRunAction } from './runActions';
import { workspaceRefById } from './workspaceLookup';

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
