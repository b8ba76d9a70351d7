// Link Folder to Workspace: which folder, which organization and workspace; the server computes the cloud-block
// edit on the syntax tree, the client applies and saves it, and says what it wrote.
import * as vscode from 'vscode';
import { linkedWorkspacesRequest, linkFolderEditRequest, organizationsRequest, workspacesRequest } from '../../../../server/src/protocol';
import type { ClientDeps } from '../../clientDeps';
import { hostOf } from '../../credentials';
import { prompts } from '../../userPrompts';
import { errorMessage } from '../../serverAccess';

export async function linkFolder(deps: ClientDeps, given: { folderUri?: string } | undefined): Promise<boolean> {
  const folderUri = given?.folderUri ?? (await pickFolder(deps));
  if (!folderUri) return false;
  const folders = await deps.server.request(linkedWorkspacesRequest);
  const hostname = folders.find((f) => f.folderUri === folderUri)?.hostname ?? hostOf(deps.address());
  try {
    const { organizations } = await deps.server.request(organizationsRequest, { hostname });
    const organization = organizations.length === 1 ? organizations[0] : (await prompts.quickPick(organizations.map((label) => ({ label })), { title: `Link folder: organization on ${hostname}` }))?.label;
    if (!organization) return false;
    const { workspaces } = await deps.server.request(workspacesRequest, { hostname, organization, pageSize: 100 });
    const workspace = await prompts.quickPick(workspaces.map((w) => ({ label: w.name, description: w.currentRun?.statusLabel })), { title: `Link folder: workspace of ${organization}` });
    if (!workspace) return false;
    const { edit, file } = await deps.server.request(linkFolderEditRequest, { folderUri, organization, workspaceName: workspace.label, hostname });
    const applied = await vscode.workspace.applyEdit(await deps.server.protocolToEdit(edit));
    if (!applied) throw new Error('VS Code refused the edit (is the file read-only?)');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(file));
    await document.save();
    void prompts.information(`HCP Terraform: ${vscode.workspace.asRelativePath(document.uri, true)} now links this folder to ${organization}/${workspace.label}.`);
    return true;
  } catch (error) {
    void prompts.error(`HCP Terraform: could not link the folder: ${errorMessage(error)}`);
    return false;
  }
}

async function pickFolder(deps: ClientDeps): Promise<string | undefined> {
  const modules = (await deps.server.request(linkedWorkspacesRequest)).map((f) => f.folderUri);
  const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString());
  const candidates = [...new Set([...modules, ...roots])];
  const active = vscode.window.activeTextEditor?.document.uri.toString();
  const preferred = candidates.filter((c) => active?.startsWith(`${c}/`)).sort((a, b) => b.length - a.length)[0];
  if (candidates.length === 1) return candidates[0];
  const picked = await prompts.quickPick(
    candidates.map((uri) => ({ label: vscode.workspace.asRelativePath(vscode.Uri.parse(uri), true) || uri, uri, picked: uri === preferred })).sort((a, b) => Number(b.picked) - Number(a.picked)),
    { title: 'Link which folder to a workspace?' },
  );
  return picked?.uri;
}
