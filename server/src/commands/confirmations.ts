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
import { deleteVariableQuestion, destroyPlanQuestion, isConfirmedRunAction, runActionAllowed, runActionButtons, runActionQuestion } from './destructiveQuestions';
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

async function ask(confirm: Confirm, question: DestructiveQuestion): Promise<void> {
  if (!(await confirm(question))) throw new NotConfirmed();
}

/**
 * Before a run action: the run as it is now (a lens may be older than the run), so the question says what it is and
 * an action it no longer allows is left to the service's refusal, which says why, without asking first.
 */
export async function confirmRunAction(context: CoreContext, target: Target, verb: RunAction, runId: string): Promise<void> {
  const confirm = context.confirm;
  if (!confirm || !isConfirmedRunAction(verb)) return;
  let run: Run | undefined;
  try {
    run = (await target.client.runs.get(runId)).run;
  } catch (error) {
    context.log(`Run ${runId}: could not read it before asking to confirm: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!run) {
    const button = runActionButtons[verb];
    await ask(confirm, { message: `${button} run ${runId}?`, detail: 'The run could not be read, so its state is unknown.', button });
    return;
  }
  const summary = summarizeRun(run);
  if (!runActionAllowed[verb](summary)) return;
  await ask(confirm, runActionQuestion(verb, summary, await workspaceOf(context, target, relatedId(run, 'workspace'))));
}

export async function confirmDestroyPlan(context: CoreContext, target: Target, workspaceId: string): Promise<void> {
  const confirm = context.confirm;
  if (!confirm) return;
  await ask(confirm, destroyPlanQuestion(await workspaceOf(context, target, workspaceId)));
}

export async function confirmDeleteVariable(context: CoreContext, target: Target, workspaceId: string, variableId: string): Promise<void> {
  const confirm = context.confirm;
  if (!confirm) return;
  // The linked workspace's variables as last read (resolveTarget found its knowledge by the workspace's id).
  const known = target.knowledge?.variables?.find((variable) => variable.id === variableId);
  const workspace = await workspaceOf(context, target, workspaceId);
  await ask(confirm, deleteVariableQuestion({ key: known?.key ?? variableId, sensitive: known?.sensitive ?? false }, workspace.name));
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
