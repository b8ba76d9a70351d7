// Read-backs after a change request create or archive lost its answer (uncertainOutcome.ts says why). A create is
// found on each target workspace's list (the spec's path names the workspace by name) as an open change request with
// the subject and message sent; an archive shows in the change request read by id.
import type { ChangeRequest } from '../api';
import { collectItems, isArchived } from '../api';
import type { Target } from './context';
import { describeReadError, lostAnswerCause, outcomeFailure } from './uncertainOutcome';

export interface FoundChangeRequests {
  /** The change request found on each target workspace, in the order of the targets. */
  found: ChangeRequest[];
  /** The targets' names, for the user. */
  workspaceNames: string[];
}

/**
 * After a create lost its answer: done when every target has an open change request with that subject and message.
 * An identical older one would read as this one, as a run with the same message does for queuePlan: the subject and
 * message are all the service echoes.
 */
export async function readBackCreatedChangeRequest(
  target: Target,
  input: { subject: string; message: string; workspaceIds: string[] },
  error: unknown,
): Promise<FoundChangeRequests> {
  const cause = lostAnswerCause(error);
  const onWorkspaces: Array<{ name: string; match: ChangeRequest | undefined }> = [];
  try {
    for (const workspaceId of input.workspaceIds) {
      const name = (await target.client.workspaces.getById(workspaceId)).workspace.attributes.name;
      // Every page: the spec does not say the list's order, so the newest may be on the last one.
      const items = await collectItems(target.client.changeRequests.pages(name, 100));
      onWorkspaces.push({ name, match: items.find((cr) => !isArchived(cr) && cr.attributes.subject === input.subject && cr.attributes.message === input.message) });
    }
  } catch (readError) {
    throw outcomeFailure(
      `${cause} The change request "${input.subject}" may have been created anyway, and the workspace's change requests could not be read to check (${describeReadError(readError)}). It was not sent again: look at the Change Requests view before creating it again.`,
    );
  }
  const missing = onWorkspaces.filter((w) => !w.match).map((w) => w.name);
  if (missing.length === onWorkspaces.length) {
    throw outcomeFailure(
      `${cause} No open change request "${input.subject}" is on ${names(missing)}, so it was not created; it was not sent again. Create it again if you still want it.`,
    );
  }
  if (missing.length > 0) {
    const present = onWorkspaces.filter((w) => w.match).map((w) => w.name);
    throw outcomeFailure(
      `${cause} The change request "${input.subject}" is on ${names(present)} but not on ${names(missing)}; it was not sent again. Create it on ${names(missing)} if you want it there.`,
    );
  }
  return { found: onWorkspaces.map((w) => w.match!), workspaceNames: onWorkspaces.map((w) => w.name) };
}

/** After an archive lost its answer: the change request, when it is archived; else a failure saying it is still open. */
export async function readBackArchivedChangeRequest(target: Target, changeRequestId: string, error: unknown): Promise<ChangeRequest> {
  const cause = lostAnswerCause(error);
  let changeRequest: ChangeRequest;
  try {
    changeRequest = await target.client.changeRequests.get(changeRequestId);
  } catch (readError) {
    throw outcomeFailure(
      `${cause} Change request ${changeRequestId} may have been archived anyway, and it could not be read to check (${describeReadError(readError)}). It was not sent again: look at the Change Requests view before trying again.`,
    );
  }
  if (isArchived(changeRequest)) return changeRequest;
  throw outcomeFailure(`${cause} Change request "${changeRequest.attributes.subject ?? changeRequestId}" is still open, so it was not archived; it was not sent again. Archive it again if you still want to.`);
}

function names(list: string[]): string {
  return list.length === 1 ? `workspace ${list[0]}` : `workspaces ${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}
