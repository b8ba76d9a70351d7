// Turns the Runs view's nodes into VS Code tree items: icons and colours from the theme, the contextValue that
// decides each item's menu (see package.json's view/item/context), and a tooltip that escapes the service's text.
import * as vscode from 'vscode';
import type { LoadMoreNode, MessageNode, PhaseNode, ResourceChangeNode, ResourceChangesNode, RunNode, RunsTreeNode, WorkspaceNode } from '../model';
import { changeDescription, changeIcon, changeTooltipMarkdown } from './resourceChangePresentation';
import type { RunSummary } from '../../../../server/src/protocol';
import { runContextValue, runDescription, runLabel, runTooltipMarkdown, statePresentation } from './runPresentation';

/** What a workspace row tells of its runs: the current one, or that none could be read (not the same as none). */
export interface WorkspaceRunsState {
  current?: RunSummary;
  /** The service was not reached and no run was ever read: saying "no runs yet" would be a guess. */
  unread: boolean;
}

export function treeItemOf(node: RunsTreeNode, now: number, runsState: (node: WorkspaceNode) => WorkspaceRunsState): vscode.TreeItem {
  switch (node.kind) {
    case 'workspace':
      return workspaceItem(node, runsState(node));
    case 'run':
      return runItem(node, now);
    case 'phase':
      return phaseItem(node);
    case 'resourceChanges':
      return resourceChangesItem(node);
    case 'resourceChange':
      return resourceChangeItem(node);
    case 'loadMore':
      return loadMoreItem(node);
    case 'message':
      return messageItem(node);
  }
}

function themed(status: string): vscode.ThemeIcon {
  const look = statePresentation(status);
  return new vscode.ThemeIcon(look.icon, look.color ? new vscode.ThemeColor(look.color) : undefined);
}

function workspaceItem(node: WorkspaceNode, { current, unread }: WorkspaceRunsState): vscode.TreeItem {
  const { workspace } = node;
  const item = new vscode.TreeItem(workspace.name, vscode.TreeItemCollapsibleState.Expanded);
  item.id = `workspace/${workspace.hostname}/${workspace.id}/${node.pinned ? 'pinned' : (workspace.folderUri ?? '')}`;
  item.description = current ? current.statusLabel : unread ? 'runs could not be read' : 'no runs yet';
  item.iconPath = current ? themed(current.status) : new vscode.ThemeIcon(node.pinned ? 'pinned' : 'cloud');
  const where = workspace.folderUri ? `Linked to ${vscode.workspace.asRelativePath(vscode.Uri.parse(workspace.folderUri), true)}` : 'Pinned';
  const tooltip = new vscode.MarkdownString();
  tooltip.appendText(`${workspace.organization}/${workspace.name} on ${workspace.hostname}\n\n${where}`);
  if (current) tooltip.appendText(`\n\nCurrent run: ${current.statusLabel} — ${runLabel(current)}`);
  item.tooltip = tooltip;
  const may = workspace.permissions?.canQueueRun !== false;
  item.contextValue = ['hcpWorkspace', node.pinned ? 'pinned' : 'linked', may ? 'queue' : ''].filter(Boolean).join(' ');
  return item;
}

function runItem(node: RunNode, now: number): vscode.TreeItem {
  const { run } = node;
  const item = new vscode.TreeItem(runLabel(run), vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `run/${node.workspace.hostname}/${run.id}`;
  item.description = runDescription(run, now);
  item.iconPath = themed(run.status);
  const tooltip = new vscode.MarkdownString(runTooltipMarkdown(run, now));
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  item.tooltip = tooltip;
  item.contextValue = runContextValue(run, node.workspace.permissions, now);
  item.accessibilityInformation = { label: `${runLabel(run)}, ${run.statusLabel}` };
  return item;
}

const phaseTitles: Record<PhaseNode['phase'], string> = {
  plan: 'Plan',
  'cost-estimate': 'Cost estimate',
  'policy-check': 'Policy check',
  apply: 'Apply',
};

function phaseItem(node: PhaseNode): vscode.TreeItem {
  const item = new vscode.TreeItem(phaseTitles[node.phase], vscode.TreeItemCollapsibleState.None);
  item.id = `phase/${node.workspace.hostname}/${node.run.id}/${node.phase}`;
  const status = node.status.replace(/_/g, ' ');
  item.description = [status, node.summary].filter(Boolean).join(' · ');
  item.iconPath = themed(phaseStatusAsRunStatus(node.status));
  item.contextValue = `hcpPhase ${node.phase}${node.hasLog ? ' log' : ''}`;
  if (node.hasLog) {
    item.command = { command: 'hcpTerraform.showPhaseLog', title: 'Show Log', arguments: [node] };
    item.tooltip = `Open the ${phaseTitles[node.phase].toLowerCase()} log`;
  }
  return item;
}

/** Phase statuses (`finished`, `running`, `passed`, `soft_failed`...) mapped onto the run states' look. */
function phaseStatusAsRunStatus(status: string): string {
  const map: Record<string, string> = {
    finished: 'applied', passed: 'applied', running: 'planning', queued: 'plan_queued', pending: 'pending', errored: 'errored',
    hard_failed: 'errored', soft_failed: 'policy_soft_failed', canceled: 'canceled', unreachable: 'canceled', skipped: 'discarded',
    overridden: 'applied', managed_queued: 'plan_queued',
  };
  return map[status] ?? status;
}

function resourceChangesItem(node: ResourceChangesNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Resource changes', vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `changes/${node.workspace.hostname}/${node.run.id}`;
  if (node.summary) item.description = node.summary;
  item.iconPath = new vscode.ThemeIcon('diff');
  item.tooltip = 'What the plan changes, resource by resource; select one to open its block';
  // Its menu offers Show Plan on Code like the run's (see package.json's view/item/context).
  item.contextValue = 'hcpResourceChanges';
  return item;
}

function resourceChangeItem(node: ResourceChangeNode): vscode.TreeItem {
  const { change } = node;
  const item = new vscode.TreeItem(change.address, vscode.TreeItemCollapsibleState.None);
  item.id = `change/${node.workspace.hostname}/${node.run.id}/${change.address}`;
  item.description = changeDescription(change);
  const icon = changeIcon(change.action);
  item.iconPath = new vscode.ThemeIcon(icon.icon, new vscode.ThemeColor(icon.color));
  const tooltip = new vscode.MarkdownString(changeTooltipMarkdown(change));
  tooltip.isTrusted = false;
  tooltip.supportHtml = false;
  item.tooltip = tooltip;
  item.command = { command: 'hcpTerraform.openResourceChange', title: 'Open Resource Block', arguments: [node] };
  item.contextValue = `hcpResourceChange${change.uri ? ' block' : ''}`;
  item.accessibilityInformation = { label: `${change.address}, ${change.action}` };
  return item;
}

function loadMoreItem(node: LoadMoreNode): vscode.TreeItem {
  const item = new vscode.TreeItem('Load more…', vscode.TreeItemCollapsibleState.None);
  item.id = `more/${node.workspace.hostname}/${node.workspace.id}/${node.nextPage}`;
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command: 'hcpTerraform.loadMoreRuns', title: 'Load More Runs', arguments: [node] };
  item.contextValue = 'hcpLoadMore';
  return item;
}

function messageItem(node: MessageNode): vscode.TreeItem {
  const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon(node.icon ?? 'info');
  if (node.tooltip) item.tooltip = node.tooltip;
  if (node.command) item.command = node.command;
  item.contextValue = 'hcpMessage';
  return item;
}
