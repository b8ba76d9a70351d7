import * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import type { ViewWorkspaces } from '../views/viewWorkspaces';
import { registerVariableCommands } from './variableCommands';
import { VariablesTree } from './variablesTree';

/**
 * The Variables view and its commands. The spec marks the `/vars` interface deprecated in favour of the
 * workspace-variables interface (`/workspaces/:id/vars`); the view's description says so.
 */
export const variablesDeprecationNote = 'deprecated /vars interface · successor: workspace variables';

export function registerVariablesView(context: vscode.ExtensionContext, deps: ClientDeps, workspaces: ViewWorkspaces): VariablesTree {
  const tree = new VariablesTree(deps, workspaces);
  const view = vscode.window.createTreeView('hcpTerraform.variables', { treeDataProvider: tree, showCollapseAll: true });
  view.description = variablesDeprecationNote;
  view.message = 'The service\'s /vars interface is deprecated; its successor is the workspace-variables interface (/workspaces/:id/vars).';
  context.subscriptions.push(tree, view);
  registerVariableCommands(context, deps, tree, workspaces);
  return tree;
}
