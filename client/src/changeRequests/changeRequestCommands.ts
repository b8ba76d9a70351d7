// Create, Archive and Show Change Request: from the tree's menus, the view's title and the palette (which asks for
// the workspace and the change request with quick picks).
import * as vscode from 'vscode';
import type { ChangeRequestSummary } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { registerCommands } from '../commands';
import type { WorkspaceRef } from '../runs/model';
import { workspaceRefOf } from '../runs/model';
import { relativeTime } from '../runs/tree/runPresentation';
import { back, prompts } from '../userPrompts';
import { failureMessage } from '../views/failure';
import type { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import type { ViewWorkspaces } from '../views/viewWorkspaces';
import { changeRequestMarkdown } from './changeRequestPresentation';
import type { ChangeRequestsTree } from './changeRequestsTree';

type ChangeRequestRef = { changeRequest: ChangeRequestSummary; workspace: WorkspaceRef };

export function registerChangeRequestCommands(context: vscode.ExtensionContext, deps: ClientDeps, tree: ChangeRequestsTree, workspaces: ViewWorkspaces, documents: ReadOnlyDocuments): void {
  // A change request archived elsewhere (the web, another window) shows so in its open document once the view reads
  // the list again; one never opened stays unopened.
  context.subscriptions.push(
    tree.onDidReadList(({ workspace, changeRequests }) => {
      for (const changeRequest of changeRequests) documents.update(documentPath(changeRequest), changeRequestMarkdown(changeRequest, workspace));
    }),
  );
  registerCommands(context, {
    'hcpTerraform.refreshChangeRequests': () => tree.refresh(),
    'hcpTerraform.createChangeRequest': (node?: unknown) => createChangeRequest(deps, tree, workspaces, workspaceRefOf(node)),
    'hcpTerraform.archiveChangeRequest': async (node?: unknown) => {
      const chosen = changeRequestOf(node) ?? (await pickChangeRequest(tree, workspaces, 'Archive Change Request', (cr) => !cr.archived));
      if (chosen) return archiveChangeRequest(deps, tree, documents, chosen);
      return undefined;
    },
    'hcpTerraform.showChangeRequest': async (node?: unknown) => {
      const chosen = changeRequestOf(node) ?? (await pickChangeRequest(tree, workspaces, 'Show Change Request', () => true));
      if (!chosen) return undefined;
      return documents.openMarkdown(documentPath(chosen.changeRequest), changeRequestMarkdown(chosen.changeRequest, chosen.workspace));
    },
  });
}

const documentPath = (changeRequest: ChangeRequestSummary) => `/change-requests/${changeRequest.id}.md`;

function changeRequestOf(value: unknown): ChangeRequestRef | undefined {
  const node = value as Partial<ChangeRequestRef> | undefined;
  return node?.changeRequest && typeof node.changeRequest.id === 'string' && node.workspace ? { changeRequest: node.changeRequest, workspace: node.workspace } : undefined;
}

/** Subject, markdown message, the workspaces (the given or current one preselected); one bulk action per organization. */
async function createChangeRequest(deps: ClientDeps, tree: ChangeRequestsTree, workspaces: ViewWorkspaces, given: WorkspaceRef | undefined): Promise<unknown> {
  const known = await workspaces.list();
  const title = 'Create Change Request (beta)';
  if (known.length === 0 && !given) {
    void prompts.warning('HCP Terraform: no workspace is linked or pinned. Link a folder to a workspace, or pin one in the Runs view.');
    return undefined;
  }
  const candidates = given && !known.some((w) => w.id === given.id && w.hostname === given.hostname) ? [given, ...known] : known;
  const preselected = given ?? candidates[0]!;
  let step = 1;
  let targets: WorkspaceRef[] = [preselected];
  let subject = '';
  let message = '';
  const steps = candidates.length > 1 ? 3 : 2;
  while (step <= steps) {
    if (steps === 3 && step === 1) {
      const picked = await prompts.stepPickMany(
        candidates.map((workspace) => ({ label: workspace.name, description: `${workspace.organization} · ${workspace.hostname}`, picked: targets.some((t) => t.id === workspace.id && t.hostname === workspace.hostname), workspace })),
        { title, step, totalSteps: steps, placeholder: 'The workspaces to attach it to (space toggles)' },
      );
      if (picked === undefined || picked === back) return undefined;
      if (picked.length === 0) continue;
      targets = picked.map((item) => item.workspace);
    } else if (step === steps - 1) {
      const answer = await prompts.stepInput({ title, step, totalSteps: steps, value: subject, placeholder: 'Subject', prompt: 'One line that says what should change', validate: (v) => (v.trim() ? undefined : 'Subject: enter a subject.') });
      if (answer === undefined) return undefined;
      if (answer === back) {
        step--;
        continue;
      }
      subject = answer.trim();
    } else {
      const answer = await prompts.stepInput({ title, step, totalSteps: steps, value: message, placeholder: 'Message (markdown)', prompt: 'Markdown; write \\n for a new line. Team members may be notified.', validate: (v) => (v.trim() ? undefined : 'Message: enter a message.') });
      if (answer === undefined) return undefined;
      if (answer === back) {
        step--;
        continue;
      }
      message = answer.replace(/\\n/g, '\n');
    }
    step++;
  }
  const groups = new Map<string, WorkspaceRef[]>();
  for (const workspace of targets) groups.set(`${workspace.hostname}\u0000${workspace.organization}`, [...(groups.get(`${workspace.hostname}\u0000${workspace.organization}`) ?? []), workspace]);
  const created: unknown[] = [];
  for (const group of groups.values()) {
    const [first, ...rest] = group;
    try {
      created.push(
        await deps.server.command('createChangeRequest', { hostname: first!.hostname, organization: first!.organization, workspaceId: first!.id, ...(rest.length ? { workspaceIds: rest.map((w) => w.id) } : {}), subject, message }),
      );
    } catch (error) {
      void prompts.error(failureMessage(`create the change request in ${first!.organization}`, error));
    }
  }
  tree.refresh();
  if (created.length > 0) void vscode.window.setStatusBarMessage(`HCP Terraform: change request "${subject}" created on ${targets.map((t) => t.name).join(', ')}`, 5_000);
  return created.length > 0 ? created : undefined;
}

async function archiveChangeRequest(deps: ClientDeps, tree: ChangeRequestsTree, documents: ReadOnlyDocuments, chosen: ChangeRequestRef): Promise<ChangeRequestSummary | undefined> {
  const confirmed = await prompts.modal(
    `Archive the change request "${chosen.changeRequest.subject}"?`,
    `It leaves the open backlog of ${chosen.workspace.name} and is kept, marked archived, with your name.`,
    'Archive',
  );
  if (confirmed !== 'Archive') return undefined;
  try {
    const archived = await deps.server.command('archiveChangeRequest', { hostname: chosen.workspace.hostname, changeRequestId: chosen.changeRequest.id });
    tree.refresh();
    // Its document, if open, still says "Open": re-rendered from the service's answer (over what was known, should
    // the answer lack a name it could not resolve).
    documents.update(documentPath(chosen.changeRequest), changeRequestMarkdown({ ...chosen.changeRequest, ...archived }, chosen.workspace));
    return archived;
  } catch (error) {
    void prompts.error(failureMessage('archive the change request', error));
    return undefined;
  }
}

/** A workspace (when several), then one of its change requests that `applies` accepts, open ones first. */
async function pickChangeRequest(tree: ChangeRequestsTree, workspaces: ViewWorkspaces, title: string, applies: (cr: ChangeRequestSummary) => boolean): Promise<ChangeRequestRef | undefined> {
  const known = await workspaces.list();
  if (known.length === 0) {
    void prompts.warning('HCP Terraform: no workspace is linked or pinned. Link a folder to a workspace, or pin one in the Runs view.');
    return undefined;
  }
  const workspace = known.length === 1 ? known[0]! : (await prompts.quickPick(known.map((w) => ({ label: w.name, description: w.organization, workspace: w })), { title: `${title}: which workspace?`, placeHolder: 'Workspace' }))?.workspace;
  if (!workspace) return undefined;
  let list: ChangeRequestSummary[];
  try {
    list = (await tree.read(workspace)).filter(applies);
  } catch (error) {
    void prompts.error(failureMessage(`list the change requests of ${workspace.name}`, error));
    return undefined;
  }
  if (list.length === 0) {
    void prompts.information(`HCP Terraform: ${workspace.name} has no change request this applies to.`);
    return undefined;
  }
  const now = Date.now();
  const picked = await prompts.quickPick(
    list.map((cr) => ({ label: cr.subject, description: [cr.archived ? 'archived' : 'open', relativeTime(cr.createdAt, now), cr.createdBy].filter(Boolean).join(' · '), detail: cr.id, changeRequest: cr })),
    { title: `${title}: which change request of ${workspace.name}?`, placeHolder: 'Change request', matchOnDetail: true },
  );
  return picked ? { changeRequest: picked.changeRequest, workspace } : undefined;
}
