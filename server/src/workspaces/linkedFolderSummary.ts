// What the client is told of a folder's link (hcpTerraform/workspaceChanged, hcpTerraform/linkedWorkspaces): how it
// is linked, the link's problems, whether its host is signed in, and the workspace's state as features see it.
import { pathToFileURL } from 'node:url';
import type { LinkedFolder } from '../protocol';
import type { FolderLinks } from './folderLinks';
import type { ServiceHosts } from './hosts';

/** Undefined for a folder with no link (nothing in it names a workspace). */
export function linkedFolderSummary(links: FolderLinks, hosts: Pick<ServiceHosts, 'isSignedIn'>, folder: string): LinkedFolder | undefined {
  const entry = links.linkOf(folder);
  const snapshot = links.snapshotFor(folder);
  if (!entry || !snapshot) return undefined;
  const link = entry.link;
  const hostname = link.hostname?.value;
  const described: LinkedFolder = {
    folderUri: pathToFileURL(folder).href,
    mechanism: link.mechanism,
    problems: link.problems.map((problem) => problem.message),
    signedIn: hostname ? hosts.isSignedIn(hostname) : false,
    state: snapshot.workspace,
  };
  if (hostname) described.hostname = hostname;
  if (link.organization) described.organization = link.organization.value;
  if (entry.target) described.workspaceName = entry.target.name;
  return described;
}
