// Destructive commands ask first, in editors that run a code action or lens the moment it is picked: Neovim lists
// code actions by number, and Apply and Discard of the same run sat on adjacent keys with nothing between the key
// and the service. The question goes out as window/showMessageRequest (every LSP editor shows it) and nothing is sent
// without its button. VS Code asks its own modal, with a comment, and says so (initializationOptions.prompts
// .confirmations): the server then asks nothing. Cancel asks nothing anywhere: the run stops at a safe point.
import { ErrorCodes, LSPErrorCodes, ResponseError } from 'vscode-languageserver';
import type { Connection } from 'vscode-languageserver';
import { relatedId } from '../api';
import type { Run } from '../api';
import { summarizeRun } from '../workspaces/runSummary';
import type { CoreContext, Target } from './context';
import { deleteVariableQuestion, destroyPlanQuestion, isConfirmedRunAction, runActionButtons, runActionQuestion } from './destructiveQuestions';
import type { DestructiveQuestion } from './destructiveQuestions';
import type { RunAction } from './readBackRuns';

/** The decline button: "Cancel" would read as "cancel the run". */
export const declineTitle = 'Do nothing';

/** The user did not say yes: nothing was sent, and the command answers null (nothing to report, nothing failed). */
export class NotConfirmed extends Error {
  constructor() {
    super('not confirmed');
    this.name = 'NotConfirmed';
  }
}

/** Asks `question`; resolves whether to go ahead. A client that cannot show the request at all is taken at its pick. */
export type Confirm = (question: DestructiveQuestion) => Promise<boolean>;

export function confirmWithMessageRequest(connection: Pick<Connection, 'window'>, log: (message: string) => void): Confirm {
  return async (question) => {
    try {
      const choice = await connection.window.showWarningMessage(`HCP Terraform: ${question.message} ${question.detail.replace(/\n/g, ' ')}`, { title: question.button }, { title: declineTitle });
      return choice?.title === question.button;
    } catch (error) {
      // An editor without window/showMessageRequest: the code action it ran was the user's own pick, as before
      // confirmations existed; any other failure to answer sends nothing.
      if (error instanceof ResponseError && error.code === ErrorCodes.MethodNotFound) {
        log(`The editor cannot ask "${question.message}" (no window/showMessageRequest): going ahead as picked.`);
        return true;
      }
      throw new ResponseError(LSPErrorCodes.RequestFailed, `The editor did not answer "${question.message}", so nothing was sent: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}

async function ask(context: CoreContext, question: DestructiveQuestion): Promise<void> {
  if (!context.confirm) return;
  if (!(await context.confirm(question))) throw new NotConfirmed();
}

/**
 * Before a run action: the run as it is now (a lens may be older than the run), so the question says what it is and
 * an action it no longer allows is left to the service's refusal, which says why, without asking first.
 */
export async function confirmRunAction(context: CoreContext, target: Target, verb: RunAction, runId: string): Promise<void> {
  if (!context.confirm || !isConfirmedRunAction(verb)) return;
  let run: Run | undefined;
  try {
    run = (await target.client.runs.get(runId)).run;
  } catch (error) {
    context.log(`Run ${runId}: could not read it before asking to confirm: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!run) {
    const button = runActionButtons[verb];
    await ask(context, { message: `${button} run ${runId}?`, detail: 'The run could not be read, so its state is unknown.', button });
    return;
  }
  const summary = summarizeRun(run);
  if (!stillAllowed(verb, summary)) return;
  await ask(context, runActionQuestion(verb, summary, await workspaceOf(context, target, relatedId(run, 'workspace'))));
}

export async function confirmDestroyPlan(context: CoreContext, target: Target, workspaceId: string): Promise<void> {
  if (!context.confirm) return;
  await ask(context, destroyPlanQuestion(await workspaceOf(context, target, workspaceId)));
}

export async function confirmDeleteVariable(context: CoreContext, target: Target, workspaceId: string, variableId: string): Promise<void> {
  if (!context.confirm) return;
  const known = (target.knowledge ?? context.directory.byWorkspaceId(workspaceId))?.variables?.find((variable) => variable.id === variableId);
  const workspace = await workspaceOf(context, target, workspaceId);
  await ask(context, deleteVariableQuestion({ key: known?.key ?? variableId, sensitive: known?.sensitive ?? false }, workspace.name));
}

function stillAllowed(verb: RunAction, run: ReturnType<typeof summarizeRun>): boolean {
  switch (verb) {
    case 'applyRun':
      return run.actions.isConfirmable;
    case 'discardRun':
      return run.actions.isDiscardable;
    case 'forceCancelRun':
      return run.actions.isForceCancelable;
    case 'forceExecuteRun':
      return run.isForceExecutable ?? run.status === 'pending';
    default:
      return true;
  }
}

/** The workspace's organization and name for the question: known when linked, else read (ids say nothing to people). */
async function workspaceOf(context: CoreContext, target: Target, workspaceId: string | undefined): Promise<{ organization: string; name: string }> {
  if (!workspaceId) return { organization: '?', name: 'its workspace' };
  const known = context.directory.byWorkspaceId(workspaceId)?.target;
  if (known) return { organization: known.organization, name: known.name };
  try {
    const { workspace } = await target.client.workspaces.getById(workspaceId);
    return { organization: relatedId(workspace, 'organization') ?? '?', name: workspace.attributes.name };
  } catch {
    return { organization: '?', name: workspaceId };
  }
}
