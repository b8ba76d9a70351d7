// The Runs view's tree in a real VS Code on the demo folder: linked workspace on top with its current run, runs with
// icons and menus per state, phases, pages, filters, a pinned workspace, and live updates without a refresh.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunNode, RunsTreeNode, WorkspaceNode } from '../../../client/src/runs/model';
import { extension, queueRunOnService, runReaches, waitFor, withPrompts } from './helpers';

const tree = () => extension().exports.runsView;

async function children(node?: RunsTreeNode): Promise<RunsTreeNode[]> {
  return (await tree().getChildren(node)) ?? [];
}

async function workspaceNode(name: string): Promise<WorkspaceNode> {
  return waitFor(`${name} at the top of the Runs view`, tree().onDidChangeTreeData, async () => {
    const found = (await children()).find((n): n is WorkspaceNode => n.kind === 'workspace' && n.workspace.name === name);
    return found;
  });
}

const runsOf = async (workspace: WorkspaceNode) => (await children(workspace)).filter((n): n is RunNode => n.kind === 'run');
const tokens = (node: RunsTreeNode) => String(tree().getTreeItem(node).contextValue).split(' ');

describe('the Runs view', function () {
  this.timeout(120_000);
  afterEach(() => {
    tree().pageSize = 20;
    tree().setFilters({});
  });

  it('shows the linked workspace with its current run, and its runs newest first with themed icons', async () => {
    const demoApp = await workspaceNode('demo-app');
    assert.equal(demoApp.pinned, false);
    const item = tree().getTreeItem(demoApp);
    assert.equal(item.label, 'demo-app');
    assert.ok(item.description, 'the workspace shows no current run state');
    const runs = await runsOf(demoApp);
    assert.ok(runs.length >= 3, `only ${runs.length} runs`);
    const created = runs.map((r) => r.run.createdAt ?? '');
    assert.deepEqual(created, [...created].sort().reverse(), 'runs are not newest first');
    assert.ok(runs.some((r) => r.run.planOnly), 'plan-only runs are missing (the list must name every operation)');
    const applied = runs.find((r) => r.run.status === 'applied');
    assert.ok(applied, 'the seeded applied run is missing');
    const appliedItem = tree().getTreeItem(applied);
    assert.equal((appliedItem.iconPath as vscode.ThemeIcon).id, 'pass');
    assert.ok(!tokens(applied).includes('apply') && !tokens(applied).includes('discard'), `an applied run offers ${appliedItem.contextValue}`);
    assert.match(String(appliedItem.description), /Applied · .* · plan and apply/);
  });

  it('offers Apply and Discard on a run that needs confirmation, and lists its phases', async () => {
    // Replacing the app's name: something to confirm even after earlier tests applied the configuration.
    const id = await queueRunOnService('demo-app', 'Tree run awaiting confirmation', { 'replace-addrs': ['random_pet.app_name'] });
    const queued = await runReaches(id, 'queued', () => true);
    if (queued.status === 'pending') {
      const workspace = (await workspaceNode('demo-app')).workspace;
      await withPrompts({ modal: ['Force Execute'] }, () => vscode.commands.executeCommand('hcpTerraform.forceExecuteRun', { kind: 'run', run: queued, workspace }));
    }
    await runReaches(id, 'awaiting confirmation', (run) => run.actions.isConfirmable);
    const demoApp = await workspaceNode('demo-app');
    const node = await waitFor('the run in the tree, confirmable', tree().onDidChangeTreeData, async () => {
      const found = (await runsOf(demoApp)).find((r) => r.run.id === id);
      return found?.run.actions.isConfirmable ? found : undefined;
    });
    assert.ok(tokens(node).includes('apply'), `no apply in ${tree().getTreeItem(node).contextValue}`);
    assert.ok(tokens(node).includes('discard'));
    assert.equal((tree().getTreeItem(node).iconPath as vscode.ThemeIcon).id, 'warning');
    const phases = await children(node);
    assert.ok(phases.some((p) => p.kind === 'phase' && p.phase === 'plan' && p.hasLog), 'no plan phase with a log');
    const plan = phases.find((p) => p.kind === 'phase' && p.phase === 'plan')!;
    assert.equal(tree().getTreeItem(plan).command?.command, 'hcpTerraform.showPhaseLog');
    await withPrompts({ modal: ['Discard'], inputBox: [''] }, () => vscode.commands.executeCommand('hcpTerraform.discardRun', node));
    // Live: the discard reaches the same item without a refresh.
    await waitFor('the item to show Discarded', tree().onDidChangeTreeData, () => (tree().runNode(id)?.run.status === 'discarded' ? true : undefined));
    assert.ok(!tokens(tree().runNode(id)!).includes('apply'));
  });

  it('pages with "Load more…" and filters by status group', async () => {
    const demoApp = await workspaceNode('demo-app');
    tree().pageSize = 2;
    tree().refresh();
    const first = await children(demoApp);
    assert.equal(first.filter((n) => n.kind === 'run').length, 2);
    const more = first.find((n) => n.kind === 'loadMore');
    assert.ok(more, 'no Load more item');
    await vscode.commands.executeCommand('hcpTerraform.loadMoreRuns', more);
    const second = await children(demoApp);
    assert.equal(second.filter((n) => n.kind === 'run').length, 4);
    tree().pageSize = 20;
    tree().setFilters({ statusGroup: 'final' });
    const finals = await runsOf(demoApp);
    assert.ok(finals.length > 0);
    const active = ['pending', 'planning', 'planned', 'policy_checked', 'applying', 'apply_queued', 'plan_queued', 'cost_estimated'];
    assert.ok(finals.every((r) => !active.includes(r.run.status)), finals.map((r) => r.run.status).join(', '));
  });

  it('pins a workspace picked from the organization; its runs are live too', async () => {
    await withPrompts({ quickPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'staging-api')] }, () => vscode.commands.executeCommand('hcpTerraform.pinWorkspace'));
    const staging = await workspaceNode('staging-api');
    assert.equal(staging.pinned, true);
    assert.ok(tokens(staging).includes('pinned'));
    await runsOf(staging); // the view lists it, as a user expanding it would
    const id = await queueRunOnService('staging-api', 'A push while pinned');
    // Nothing refreshes the view: the server's watcher sees the new run and the tree puts it on top by itself.
    const node = await waitFor('the new staging run in the tree', tree().onDidChangeTreeData, async () => (await runsOf(staging)).find((r) => r.run.id === id), 60_000);
    const created = (await runsOf(staging)).map((r) => r.run.createdAt ?? '');
    assert.deepEqual(created, [...created].sort().reverse(), 'the new run is not in its place, newest first');
    await vscode.commands.executeCommand('hcpTerraform.unpinWorkspace', staging);
    assert.ok(!(await children()).some((n) => n.kind === 'workspace' && n.workspace.name === 'staging-api'));
  });
});
