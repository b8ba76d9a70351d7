// The Runs view's provider against a fake server: what stays on screen when the service fails (README: "values read
// before stay"), how it recovers, and that another account's token re-reads what it may do.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { LinkedFolder, RunSummary, WorkspaceSummary } from '../../server/src/protocol';
import { linkedWorkspacesRequest, runDetailsRequest, runsRequest, workspaceRequest } from '../../server/src/protocol';
import type { RunsTreeNode, WorkspaceNode } from '../../client/src/runs/model';
import { PinnedWorkspaces } from '../../client/src/runs/tree/pins';
import { RunsTreeProvider } from '../../client/src/runs/tree/runsTreeProvider';
import { fakeDeps, nextEvent } from './fakes/fakeDeps';

const workspace = { id: 'ws-1', name: 'demo-app', organization: 'acme', hostname: 'app.terraform.io' };
const folder: LinkedFolder = { folderUri: 'file:///repo/demo-app', mechanism: 'cloud', problems: [], signedIn: true, state: { kind: 'linked', workspace } };
const run = (id: string, over: Partial<RunSummary> = {}): RunSummary => ({
  id,
  status: 'planned',
  statusLabel: 'Needs confirmation',
  message: `Run ${id}`,
  createdAt: `2026-11-27T10:0${id.slice(-1)}:00Z`,
  actions: { isCancelable: false, isConfirmable: true, isDiscardable: true, isForceCancelable: false },
  ...over,
});
const refused = () => {
  throw new Error("Could not list the workspace's runs: the connection was refused (is the service running?)");
};
const unreachable = () => {
  throw new Error('Could not read the workspace: the connection was refused (is the service running?)');
};

function setUp() {
  const fake = fakeDeps();
  const memento = { get: <T>(_key: string, fallback: T) => fallback, update: async () => undefined };
  const provider = new RunsTreeProvider(fake.deps, new PinnedWorkspaces(memento as never));
  fake.server.on(linkedWorkspacesRequest, () => [folder]);
  fake.server.on(workspaceRequest, (): WorkspaceSummary => ({ ...workspace, permissions: { canQueueRun: true } }));
  fake.server.on(runsRequest, () => ({ runs: [run('run-2'), run('run-1')], page: { current: 1 } }));
  return { ...fake, provider };
}

/** The workspace row and its children, as VS Code asks for them after a change event. */
async function render(provider: RunsTreeProvider): Promise<{ workspace: WorkspaceNode; children: RunsTreeNode[] }> {
  const [workspaceNode] = (await provider.getChildren()) as WorkspaceNode[];
  assert.equal(workspaceNode?.kind, 'workspace');
  return { workspace: workspaceNode!, children: await provider.getChildren(workspaceNode) };
}

const labels = (provider: RunsTreeProvider, nodes: RunsTreeNode[]) => nodes.map((node) => String(provider.getTreeItem(node).label));

describe('Runs view provider', () => {
  let tree: ReturnType<typeof setUp>;
  beforeEach(() => {
    tree = setUp();
  });
  afterEach(() => tree.provider.dispose());

  test('a Refresh during an outage keeps the runs read before, with one row saying when they were last read', async () => {
    const { provider, server } = tree;
    await render(provider);
    server.on(runsRequest, refused);
    server.on(workspaceRequest, unreachable);
    provider.refresh();
    const { workspace: row, children } = await render(provider);
    const shown = labels(provider, children);
    assert.deepEqual(shown.slice(1), ['Run run-2', 'Run run-1'], 'the runs read before stay');
    assert.match(shown[0]!, /^Could not refresh the runs \(last read \d\d:\d\d\): the connection was refused/);
    assert.doesNotMatch(shown[0]!, /Could not list/, 'the reason is told once, without its own prefix');
    assert.equal(provider.getTreeItem(row).description, 'Needs confirmation', 'the workspace row keeps the newest run, not "no runs yet"');
  });

  test('runs never read because the service is down: the row says so, never "no runs yet"', async () => {
    const { provider, server } = tree;
    server.on(runsRequest, refused);
    server.on(workspaceRequest, unreachable);
    const { workspace: row, children } = await render(provider);
    assert.deepEqual(labels(provider, children), ['Could not list the runs: the connection was refused (is the service running?)']);
    assert.equal(provider.getTreeItem(row).description, 'runs could not be read');
  });

  test('"no runs yet" and "No runs yet." when the service said there are none', async () => {
    const { provider, server } = tree;
    server.on(runsRequest, () => ({ runs: [], page: { current: 1 } }));
    const { workspace: row, children } = await render(provider);
    assert.deepEqual(labels(provider, children), ['No runs yet.']);
    assert.equal(provider.getTreeItem(row).description, 'no runs yet');
  });

  test('when the service is back (the watcher reports runs), the list is read again and its error row goes', async () => {
    const { provider, server, runsChanged } = tree;
    await render(provider);
    server.on(runsRequest, refused);
    provider.refresh();
    const before = await render(provider);
    assert.match(labels(provider, before.children)[0]!, /^Could not refresh/);

    server.on(runsRequest, () => ({ runs: [run('run-3'), run('run-2'), run('run-1')], page: { current: 1 } }));
    const redraw = nextEvent(provider.onDidChangeTreeData, (node) => node === before.workspace);
    runsChanged.fire({ hostname: workspace.hostname, workspaceId: workspace.id, runs: [run('run-3')] });
    await redraw;
    const after = await provider.getChildren(before.workspace);
    assert.deepEqual(labels(provider, after), ['Run run-3', 'Run run-2', 'Run run-1']);
  });

  test('a Refresh reads the workspace\'s permissions again: Queue Plan follows can-queue-run', async () => {
    const { provider, server } = tree;
    const first = await render(provider);
    assert.match(provider.getTreeItem(first.workspace).contextValue!, /\bqueue\b/);
    server.on(workspaceRequest, (): WorkspaceSummary => ({ ...workspace, permissions: { canQueueRun: false } }));
    provider.refresh();
    const { workspace: row } = await render(provider);
    assert.doesNotMatch(provider.getTreeItem(row).contextValue!, /\bqueue\b/);
  });

  test('signing in with another token re-reads the runs and their permissions: no Apply or Discard it may not do', async () => {
    const { provider, server, credentialsChanged } = tree;
    const first = await render(provider);
    const runRow = first.children.find((node) => node.kind === 'run')!;
    assert.match(provider.getTreeItem(runRow).contextValue!, /\bapply\b.*\bdiscard\b/);

    const readOnly = { canApply: false, canDiscard: false, canCancel: false };
    server.on(runsRequest, () => ({ runs: [run('run-2', { permissions: readOnly }), run('run-1', { permissions: readOnly })], page: { current: 1 } }));
    server.on(workspaceRequest, (): WorkspaceSummary => ({ ...workspace, permissions: { canQueueRun: false } }));
    const redraw = nextEvent(provider.onDidChangeTreeData, (node) => node === undefined);
    credentialsChanged.fire({ host: workspace.hostname, token: 'another-token' });
    await redraw;
    const { workspace: row, children } = await render(provider);
    const item = provider.getTreeItem(children.find((node) => node.kind === 'run')!);
    assert.doesNotMatch(item.contextValue!, /\b(apply|discard)\b/);
    assert.doesNotMatch(provider.getTreeItem(row).contextValue!, /\bqueue\b/);
  });

  test('a policy check not run yet shows no counts under its run; a finished one does', async () => {
    const { provider, server } = tree;
    server.on(runDetailsRequest, () => ({
      run: run('run-2'),
      policyChecks: [
        { id: 'polchk-1', status: 'pending', result: { passed: 1, softFailed: 0, hardFailed: 0, advisoryFailed: 0 } },
        { id: 'polchk-2', status: 'soft_failed', result: { passed: 1, softFailed: 1 } },
      ],
    }));
    const { children } = await render(provider);
    const phases = await provider.getChildren(children.find((node) => node.kind === 'run')!);
    assert.deepEqual(phases.map((node) => provider.getTreeItem(node).description), ['pending', 'soft failed · 1 passed, 1 soft-failed']);
  });
});
