import * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import type { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import type { ViewWorkspaces } from '../views/viewWorkspaces';
import { registerChangeRequestCommands } from './changeRequestCommands';
import { ChangeRequestsTree } from './changeRequestsTree';

/** The Change Requests view (a beta feature of the service, as its description says) and its commands. */
export function registerChangeRequestsView(context: vscode.ExtensionContext, deps: ClientDeps, workspaces: ViewWorkspaces, documents: ReadOnlyDocuments): ChangeRequestsTree {
  const tree = new ChangeRequestsTree(deps, workspaces);
  const view = vscode.window.createTreeView('hcpTerraform.changeRequests', { treeDataProvider: tree, showCollapseAll: true });
  // The spec marks change requests as public beta: their interface and workflow may change.
  view.description = 'Beta';
  context.subscriptions.push(tree, view);
  registerChangeRequestCommands(context, deps, tree, workspaces, documents);
  return tree;
}
