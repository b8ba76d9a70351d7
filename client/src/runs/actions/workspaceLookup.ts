// A workspace named only by its id (a code lens's or code action's command carries no more): the linked folder's
// when one is linked to it, so commands that open its run can find the folder too; otherwise read from the service.
import { linkedWorkspacesRequest, workspaceRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import type { WorkspaceRef } from '../model';

export async function workspaceRefById(deps: ClientDeps, hostname: string | undefined, workspaceId: string): Promise<WorkspaceRef> {
  const folders = await deps.server.request(linkedWorkspacesRequest);
  for (const folder of folders) {
    if (folder.state.kind !== 'linked') continue;
    const workspace = folder.state.workspace;
    if (workspace.id === workspaceId && (hostname === undefined || workspace.hostname === hostname)) return { ...workspace, folderUri: folder.folderUri };
  }
  const summary = await deps.server.request(workspaceRequest, { workspaceId, ...(hostname ? { hostname } : {}) });
  return { id: summary.id, name: summary.name, organization: summary.organization, hostname: summary.hostname, permissions: summary.permissions };
}
