// The Change Requests view: each linked or pinned workspace, its open change requests (newest first), then an
// "Archived" group, collapsed, with the archived ones. An organization whose plan lacks the feature gets one line that
// says so (the service answers 404 there), never an error. A failed read keeps the list read before under one row
// saying so, as the Runs and Variables views do (README: values read before stay when the service fails).
import * as vscode from 'vscode';
import type { ChangeRequestSummary } from '../../../server/src/protocol';
import { changeRequestsRequest, subscriptionRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { log } from '../log';
import type { WorkspaceRef } from '../runs/model';
import { errorMessage } from '../serverAccess';
import { listViewRedraws } from '../views/listViewRedraws';
import { LastReads, readFailureText } from '../views/staleList';
import type { ViewWorkspaces } from '../views/viewWorkspaces';
import { changeRequestContextValue, changeRequestDescription, featureMissingMessage, splitChangeRequests } from './changeRequestPresentation';

export type ChangeRequestsNode =
  | { kind: 'workspace'; workspace: WorkspaceRef; pinned: boolean }
  | { kind: 'changeRequest'; changeRequest: ChangeRequestSummary; workspace: WorkspaceRef }
  | { kind: 'archived'; workspace: WorkspaceRef; changeRequests: ChangeRequestSummary[] }
  | { kind: 'message'; text: string; tooltip?: string; icon?: string; contextValue?: string };

export class ChangeRequestsTree implements vscode.TreeDataProvider<ChangeRequestsNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ChangeRequestsNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly read$ = new vscode.EventEmitter<{ workspace: WorkspaceRef; changeRequests: ChangeRequestSummary[] }>();
  /** Each list the service answered: what is shown elsewhere (an open change request's document) follows it. */
  readonly onDidReadList = this.read$.event;
  /** Each workspace's change requests as last read: shown still, under an error row, when a re-read fails. */
  private readonly lastReads = new LastReads<ChangeRequestSummary>();
  private readonly subscriptions: vscode.Disposable[];

  constructor(
    private readonly deps: ClientDeps,
    private readonly workspaces: ViewWorkspaces,
  ) {
    this.subscriptions = listViewRedraws(deps, this.lastReads, () => this.changed.fire(undefined));
  }

  /** Reads every list again; each stays on screen until its new read answers, and stays (marked) if that fails. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: ChangeRequestsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'workspace': {
        const item = new vscode.TreeItem(node.workspace.name, vscode.TreeItemCollapsibleState.Expanded);
        item.id = `ws/${node.workspace.hostname}/${node.workspace.id}`;
        item.description = `${node.workspace.organization}${node.pinned ? ' · pinned' : ''}`;
        item.iconPath = new vscode.ThemeIcon(node.pinned ? 'pinned' : 'folder-library');
        item.contextValue = 'hcpCrWorkspace create';
        return item;
      }
      case 'changeRequest': {
        const cr = node.changeRequest;
        const item = new vscode.TreeItem(cr.subject || '(no subject)', vscode.TreeItemCollapsibleState.None);
        item.id = `cr/${node.workspace.hostname}/${cr.id}`;
        item.description = changeRequestDescription(cr, Date.now());
        item.iconPath = new vscode.ThemeIcon(cr.archived ? 'archive' : 'git-pull-request-draft');
        item.tooltip = new vscode.MarkdownString(`**${cr.subject.replace(/[*_`]/g, '')}**\n\n${cr.archived ? 'Archived' : 'Open'} · ${item.description}`);
        item.contextValue = changeRequestContextValue(cr);
        item.command = { command: 'hcpTerraform.showChangeRequest', title: 'Show Change Request', arguments: [node] };
        return item;
      }
      case 'archived': {
        const item = new vscode.TreeItem(`Archived (${node.changeRequests.length})`, vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `archived/${node.workspace.hostname}/${node.workspace.id}`;
        item.iconPath = new vscode.ThemeIcon('archive');
        item.contextValue = 'hcpCrArchivedGroup';
        return item;
      }
      case 'message': {
        const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
        if (node.tooltip) item.tooltip = node.tooltip;
        if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
        item.contextValue = node.contextValue ?? 'hcpMessage';
        return item;
      }
    }
  }

  async getChildren(node?: ChangeRequestsNode): Promise<ChangeRequestsNode[]> {
    try {
      if (!node) return (await this.workspaces.list()).map((workspace) => ({ kind: 'workspace' as const, workspace, pinned: workspace.pinned }));
      if (node.kind === 'workspace') return await this.changeRequestsOf(node.workspace);
      if (node.kind === 'archived') return node.changeRequests.map((changeRequest) => ({ kind: 'changeRequest' as const, changeRequest, workspace: node.workspace }));
      return [];
    } catch (error) {
      log.warn(`Change Requests view: ${errorMessage(error)}`);
      return [{ kind: 'message', text: `Could not load: ${errorMessage(error)}`, icon: 'warning' }];
    }
  }

  /** The change requests last listed for a workspace (undefined until listed). */
  listed(workspace: { hostname: string; id: string }): ChangeRequestSummary[] | undefined {
    return this.lastReads.get(workspace)?.items;
  }

  /** Reads a workspace's change requests (every page up to 100 items: a backlog, not a history); throws on failure. */
  async read(workspace: WorkspaceRef): Promise<ChangeRequestSummary[]> {
    const result = await this.deps.server.request(changeRequestsRequest, { hostname: workspace.hostname, workspaceName: workspace.name, pageSize: 100 });
    return result.changeRequests;
  }

  private async changeRequestsOf(workspace: WorkspaceRef): Promise<ChangeRequestsNode[]> {
    const list = await this.lastReads.read(workspace, () => this.read(workspace));
    if (!list.error) this.read$.fire({ workspace, changeRequests: list.items });
    if (list.error) {
      const missing = await this.featureMissing(workspace);
      if (missing) return [{ kind: 'message', text: missing, icon: 'info', tooltip: 'Change requests are a beta feature of the top paid edition; the service hides them (404) on other plans.', contextValue: 'hcpCrFeatureMissing' }];
    }
    const { open, archived } = splitChangeRequests(list.items);
    const nodes: ChangeRequestsNode[] = open.map((changeRequest) => ({ kind: 'changeRequest', changeRequest, workspace }));
    if (list.error) nodes.unshift({ kind: 'message', text: readFailureText('change requests', list), tooltip: 'Refresh the view to try again.', icon: 'warning' });
    // "No open change requests." only when the service said so, not when it could not be asked.
    else if (open.length === 0) nodes.push({ kind: 'message', text: 'No open change requests.', icon: 'check' });
    if (archived.length > 0) nodes.push({ kind: 'archived', workspace, changeRequests: archived });
    return nodes;
  }

  /** The sentence for an organization whose feature set says change requests are off; undefined otherwise. */
  private async featureMissing(workspace: WorkspaceRef): Promise<string | undefined> {
    const result = await this.deps.server.request(subscriptionRequest, { hostname: workspace.hostname, organization: workspace.organization }).catch(() => undefined);
    if (!result?.available || result.featureSet?.flags['change-requests'] !== false) return undefined;
    return featureMissingMessage(workspace.organization, result.featureSet.name);
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
    this.read$.dispose();
  }
}
