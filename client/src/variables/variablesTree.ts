// The Variables view: each linked or pinned workspace and its variables (Terraform ones first, then environment
// ones), each linked to its `variable` block when the linked folder's code declares it, and marked when no code does.
// Values come from the server without the sensitive ones, so nothing secret can reach a label or a tooltip.
import * as vscode from 'vscode';
import type { VariableDeclarationSummary, VariableSummary } from '../../../server/src/protocol';
import { variableDeclarationsRequest, variablesRequest } from '../../../server/src/protocol';
import type { ClientDeps } from '../clientDeps';
import { log } from '../log';
import type { WorkspaceRef } from '../runs/model';
import { errorMessage } from '../serverAccess';
import { listViewRedraws } from '../views/listViewRedraws';
import { LastReads, readFailureText } from '../views/staleList';
import type { ViewWorkspaces } from '../views/viewWorkspaces';
import { declarationOf, isUndeclared, sortVariables, variableContextValue, variableDescription, variableTooltipMarkdown } from './variablePresentation';

export type VariablesNode =
  | { kind: 'workspace'; workspace: WorkspaceRef; pinned: boolean }
  | { kind: 'variable'; variable: VariableSummary; workspace: WorkspaceRef; declaration?: VariableDeclarationSummary; declarations?: VariableDeclarationSummary[] }
  | { kind: 'message'; text: string; icon?: string };

type VariableNode = Extract<VariablesNode, { kind: 'variable' }>;

export class VariablesTree implements vscode.TreeDataProvider<VariablesNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<VariablesNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];
  /** Each workspace's variables as last read, so a failed re-read shows them still (README: values read before stay). */
  private readonly lastReads = new LastReads<VariableNode>();

  constructor(
    private readonly deps: ClientDeps,
    private readonly workspaces: ViewWorkspaces,
  ) {
    this.subscriptions = listViewRedraws(deps, this.lastReads, () => this.changed.fire(undefined));
  }

  refresh(): void {
    this.changed.fire(undefined);
  }

  getTreeItem(node: VariablesNode): vscode.TreeItem {
    if (node.kind === 'workspace') {
      const item = new vscode.TreeItem(node.workspace.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `ws/${node.workspace.hostname}/${node.workspace.id}`;
      item.description = `${node.workspace.organization}${node.pinned ? ' · pinned' : ''}`;
      item.iconPath = new vscode.ThemeIcon(node.pinned ? 'pinned' : 'folder-library');
      item.contextValue = 'hcpVarWorkspace create';
      return item;
    }
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      if (node.icon) item.iconPath = new vscode.ThemeIcon(node.icon);
      item.contextValue = 'hcpMessage';
      return item;
    }
    const { variable, declarations } = node;
    const item = new vscode.TreeItem(variable.key, vscode.TreeItemCollapsibleState.None);
    item.id = `var/${node.workspace.hostname}/${variable.id}`;
    item.description = variableDescription(variable, declarations);
    item.tooltip = new vscode.MarkdownString(variableTooltipMarkdown(variable, declarations), true);
    item.contextValue = variableContextValue(variable, declarations);
    item.iconPath = isUndeclared(variable, declarations)
      ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'))
      : new vscode.ThemeIcon(variable.sensitive ? 'lock' : variable.category === 'env' ? 'terminal' : 'symbol-variable');
    if (node.declaration) item.command = { command: 'hcpTerraform.goToVariableDeclaration', title: 'Go to Declaration', arguments: [node] };
    return item;
  }

  async getChildren(node?: VariablesNode): Promise<VariablesNode[]> {
    try {
      if (!node) return (await this.workspaces.list()).map((workspace) => ({ kind: 'workspace' as const, workspace, pinned: workspace.pinned }));
      if (node.kind === 'workspace') return await this.variablesOf(node.workspace);
      return [];
    } catch (error) {
      log.warn(`Variables view: ${errorMessage(error)}`);
      return [{ kind: 'message', text: `Could not load: ${errorMessage(error)}`, icon: 'warning' }];
    }
  }

  /** A workspace's variables as the view shows them (the palette's pickers use the same list). */
  async variableNodes(workspace: WorkspaceRef): Promise<VariableNode[]> {
    const [variables, declarations] = await Promise.all([
      this.deps.server.request(variablesRequest, { hostname: workspace.hostname, workspaceId: workspace.id }),
      // Only a linked folder's code can declare the workspace's variables; a pinned workspace has none here.
      workspace.folderUri ? this.deps.server.request(variableDeclarationsRequest, { folderUri: workspace.folderUri }).catch(() => undefined) : Promise.resolve(undefined),
    ]);
    return sortVariables(variables).map((variable) => {
      const declaration = declarationOf(variable, declarations);
      return { kind: 'variable' as const, variable, workspace, ...(declaration ? { declaration } : {}), ...(declarations ? { declarations } : {}) };
    });
  }

  /** The variables; when the read fails, the ones read before stay under one row saying so and when they were read. */
  private async variablesOf(workspace: WorkspaceRef): Promise<VariablesNode[]> {
    const list = await this.lastReads.read(workspace, () => this.variableNodes(workspace));
    if (list.error) return [{ kind: 'message', text: readFailureText('variables', list), icon: 'warning' }, ...list.items];
    return list.items.length > 0 ? list.items : [{ kind: 'message', text: 'No variables yet.', icon: 'info' }];
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
  }
}
