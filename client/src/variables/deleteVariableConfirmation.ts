// The Delete a quick fix carries (hcpTerraform.server.deleteVariable: "Delete workspace variable …"), asked as the
// Variables view asks it. Its arguments are ids only, so the variable and its workspace are read first: the modal
// names them, and nothing is sent if they cannot be read or the variable is gone already.
import type { DeleteVariableArguments } from '../../../server/src/protocol';
import { variablesRequest } from '../../../server/src/protocol';
import { deleteVariableQuestion } from '../../../server/src/commands/destructiveQuestions';
import type { ClientDeps } from '../clientDeps';
import { log } from '../log';
import { errorMessage } from '../serverAccess';
import { prompts } from '../userPrompts';
import { workspaceRefById } from '../runs/actions/workspaceLookup';

/** Whether the user said Delete. */
export async function confirmDeleteOfServerCommand(deps: ClientDeps, argument: DeleteVariableArguments): Promise<boolean> {
  const host = argument.hostname ? { hostname: argument.hostname } : {};
  let key: string;
  let sensitive: boolean;
  let workspaceName: string;
  try {
    const [variables, workspace] = await Promise.all([
      deps.server.request(variablesRequest, { workspaceId: argument.workspaceId, ...host }),
      workspaceRefById(deps, argument.hostname, argument.workspaceId),
    ]);
    const variable = variables.find((candidate) => candidate.id === argument.variableId);
    workspaceName = workspace.name;
    if (!variable) {
      void prompts.information(`HCP Terraform: the variable is no longer on ${workspace.name}: nothing to delete.`);
      return false;
    }
    key = variable.key;
    sensitive = variable.sensitive;
  } catch (error) {
    log.error(`deleteVariable ${argument.variableId}: could not read the variable: ${errorMessage(error)}`);
    void prompts.error(`HCP Terraform: could not read the variable to delete, so nothing was sent: ${errorMessage(error)}`);
    return false;
  }
  const question = deleteVariableQuestion({ key, sensitive }, workspaceName);
  return (await prompts.modal(question.message, question.detail, question.button)) === question.button;
}
