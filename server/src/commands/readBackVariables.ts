// Read-backs after a variable create, update or delete lost its answer (uncertainOutcome.ts says why): the
// workspace's variables are listed (the spec's GET /vars by organization and workspace name) and the variable is found
// by key and category (create) or by id (update, delete). Messages name keys and fields, never a value: it may be
// sensitive, and a value the user just typed needs no echo.
import type { Variable, VariableFields } from '../api';
import { relatedId } from '../api';
import type { Target } from './context';
import { describeReadError, lostAnswerCause, outcomeFailure } from './uncertainOutcome';

/** The variables of a workspace named by id: the /vars list needs its organization and name. */
export async function workspaceVariables(target: Target, workspaceId: string): Promise<Variable[]> {
  const { workspace } = await target.client.workspaces.getById(workspaceId, { include: ['organization'] });
  const organization = relatedId(workspace, 'organization');
  if (!organization) throw new Error(`The service did not say which organization workspace ${workspaceId} belongs to.`);
  return target.client.variables.list({ organization, workspace: workspace.attributes.name });
}

type Change = 'created' | 'updated' | 'deleted';

async function readBack(target: Target, workspaceId: string, change: Change, error: unknown): Promise<Variable[]> {
  try {
    return await workspaceVariables(target, workspaceId);
  } catch (readError) {
    throw outcomeFailure(
      `${lostAnswerCause(error)} The variable may have been ${change} anyway, and the workspace's variables could not be read to check (${describeReadError(readError)}). It was not sent again: look at the Variables view before trying again.`,
    );
  }
}

/** The spec's `engine` is the real service's `terraform` (the API client reads both as `engine`). */
const categoryOf = (category: string): string => (category === 'terraform' ? 'engine' : category);

/** The fields of `wanted` that `variable` does not show; a sensitive value is never compared (it cannot be read). */
function differingFields(variable: Variable, wanted: Partial<VariableFields>): string[] {
  const a = variable.attributes;
  const differs: string[] = [];
  if (wanted.key !== undefined && a.key !== wanted.key) differs.push('key');
  if (wanted.category !== undefined && a.category !== categoryOf(wanted.category)) differs.push('category');
  if (wanted.hcl !== undefined && (a.hcl === true) !== wanted.hcl) differs.push('hcl');
  if (wanted.sensitive !== undefined && (a.sensitive === true) !== wanted.sensitive) differs.push('sensitive');
  if (wanted.description !== undefined && (a.description ?? '') !== wanted.description) differs.push('description');
  if (wanted.value !== undefined && a.sensitive !== true && (a.value ?? '') !== wanted.value) differs.push('value');
  return differs;
}

const listed = (fields: string[]): string => (fields.length === 1 ? `its ${fields[0]} is` : `its ${fields.slice(0, -1).join(', ')} and ${fields.at(-1)} are`);

/**
 * After a create lost its answer: a key is unique per category in a workspace, so the variable with that key and
 * category is the one created, when it shows what was sent (one that differs was there before: the create failed).
 */
export async function readBackCreatedVariable(target: Target, input: VariableFields & { workspaceId: string }, error: unknown): Promise<Variable> {
  const variables = await readBack(target, input.workspaceId, 'created', error);
  const cause = lostAnswerCause(error);
  const category = categoryOf(input.category);
  const found = variables.find((variable) => variable.attributes.key === input.key && variable.attributes.category === category);
  if (!found) {
    throw outcomeFailure(`${cause} No ${category} variable "${input.key}" is on the workspace, so it was not created; it was not sent again. Create it again if you still want it.`);
  }
  const differs = differingFields(found, { ...input, hcl: input.hcl ?? false, sensitive: input.sensitive ?? false, description: input.description ?? '', value: input.value ?? '' });
  if (differs.length > 0) {
    throw outcomeFailure(
      `${cause} The workspace already has a ${category} variable "${input.key}" (${found.id}), but ${listed(differs)} not what was sent, so it is not the one sent and nothing was created; it was not sent again. Edit that variable instead.`,
    );
  }
  return found;
}

/**
 * After an update lost its answer: the variable, when every field sent shows in it (the state asked for, whether this
 * update or an earlier one made it); else a failure saying what is known.
 */
export async function readBackUpdatedVariable(target: Target, workspaceId: string, variableId: string, changes: Partial<VariableFields>, error: unknown): Promise<Variable> {
  const variables = await readBack(target, workspaceId, 'updated', error);
  const cause = lostAnswerCause(error);
  const found = variables.find((variable) => variable.id === variableId);
  if (!found) throw outcomeFailure(`${cause} Variable ${variableId} is no longer on the workspace, so it was not updated; it was not sent again.`);
  const name = `Variable "${found.attributes.key}"`;
  const differs = differingFields(found, changes);
  if (differs.length > 0) {
    throw outcomeFailure(`${cause} ${name} does not show the change (${listed(differs)} not what was sent), so it was not updated; it was not sent again. Try again if you still want it.`);
  }
  if (changes.value !== undefined && found.attributes.sensitive === true) {
    // Fields that match may have matched before the update: only the value would prove it, and it cannot be read.
    throw outcomeFailure(
      `${cause} ${name} is sensitive, so its value cannot be read back to check whether the new one was stored. It was not sent again: set the value again to be sure (setting the same value twice changes nothing).`,
    );
  }
  return found;
}

/** After a delete lost its answer: done when the variable is gone; else a failure saying it is still there. */
export async function readBackDeletedVariable(target: Target, workspaceId: string, variableId: string, error: unknown): Promise<void> {
  const variables = await readBack(target, workspaceId, 'deleted', error);
  const found = variables.find((variable) => variable.id === variableId);
  if (found) {
    throw outcomeFailure(`${lostAnswerCause(error)} Variable "${found.attributes.key}" is still on the workspace, so it was not deleted; it was not sent again. Delete it again if you still want to.`);
  }
}
