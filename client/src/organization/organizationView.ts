import * as vscode from 'vscode';
import type { ClientDeps } from '../clientDeps';
import { organizationKey } from '../runs/runsView';
import type { ReadOnlyDocuments } from '../views/readOnlyDocuments';
import { registerOrganizationCommands } from './organizationCommands';
import { OrganizationTree, type OrganizationRef } from './organizationTree';

/** The Organization view (hosts, the selected organization's subscription, features and token) and its commands. */
export function registerOrganizationView(context: vscode.ExtensionContext, deps: ClientDeps, documents: ReadOnlyDocuments): OrganizationTree {
  const tree = new OrganizationTree(deps, () => context.workspaceState.get<OrganizationRef>(organizationKey));
  const view = vscode.window.createTreeView('hcpTerraform.organization', { treeDataProvider: tree, showCollapseAll: true });
  context.subscriptions.push(tree, view);
  registerOrganizationCommands(context, deps, tree, documents);
  return tree;
}
