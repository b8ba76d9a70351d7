// The Variables view's provider against a fake server: a Refresh during an outage keeps the variables read before.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LinkedFolder, VariableSummary } from '../../server/src/protocol';
import { linkedWorkspacesRequest, variableDeclarationsRequest, variablesRequest } from '../../server/src/protocol';
import { VariablesTree, type VariablesNode } from '../../client/src/variables/variablesTree';
import { ViewWorkspaces } from '../../client/src/views/viewWorkspaces';
import { fakeDeps, nextEvent } from './fakes/fakeDeps';

const workspace = { id: 'ws-1', name: 'demo-app', organization: 'acme', hostname: 'app.terraform.io' };
const folder: LinkedFolder = { folderUri: 'file:///repo/demo-app', mechanism: 'cloud', problems: [], signedIn: true, state: { kind: 'linked', workspace } };
const variable = (key: string): VariableSummary => ({ id: `var-${key}`, key, category: 'terraform', hcl: false, sensitive: false, value: 'eu' });

function setUp() {
  const fake = fakeDeps();
  const memento = { get: <T>(_key: string, fallback: T) => fallback, update: async () => undefined };
  const tree = new VariablesTree(fake.deps, new ViewWorkspaces(fake.deps, memento as never));
  fake.server.on(linkedWorkspacesRequest, () => [folder]);
  fake.server.on(variableDeclarationsRequest, () => []);
  fake.server.on(variablesRequest, () => [variable('region'), variable('size')]);
  return { ...fake, tree };
}

async function rows(tree: VariablesTree): Promise<string[]> {
  const [workspaceNode] = await tree.getChildren();
  const children: VariablesNode[] = await tree.getChildren(workspaceNode);
  return children.map((node) => String(tree.getTreeItem(node).label));
}

const refused = () => {
  throw new Error("Could not list the workspace's variables: the connection was refused (is the service running?)");
};

describe('Variables view provider', () => {
  test('a Refresh during an outage keeps the variables read before, under one row saying when they were read', async () => {
    const { tree, server } = setUp();
    assert.deepEqual(await rows(tree), ['region', 'size']);
    server.on(variablesRequest, refused);
    tree.refresh();
    const shown = await rows(tree);
    assert.deepEqual(shown.slice(1), ['region', 'size']);
    assert.match(shown[0]!, /^Could not refresh the variables \(last read \d\d:\d\d\): the connection was refused/);
    tree.dispose();
  });

  test('variables never read say they could not be listed, once', async () => {
    const { tree, server } = setUp();
    server.on(variablesRequest, refused);
    assert.deepEqual(await rows(tree), ['Could not list the variables: the connection was refused (is the service running?)']);
    tree.dispose();
  });

  test('when the service is back (the watcher reports runs of the workspace), the variables are read again and the error row goes', async () => {
    const { tree, server, runsChanged } = setUp();
    await rows(tree);
    server.on(variablesRequest, refused);
    tree.refresh();
    assert.match((await rows(tree))[0]!, /^Could not refresh/);
    // Runs of another workspace say nothing about this one: no redraw for them.
    let redraws = 0;
    const counting = tree.onDidChangeTreeData(() => redraws++);
    runsChanged.fire({ hostname: workspace.hostname, workspaceId: 'ws-other', runs: [] });
    assert.equal(redraws, 0);
    server.on(variablesRequest, () => [variable('region'), variable('size'), variable('zone')]);
    const redraw = nextEvent(tree.onDidChangeTreeData);
    runsChanged.fire({ hostname: workspace.hostname, workspaceId: workspace.id, runs: [] });
    await redraw;
    assert.deepEqual(await rows(tree), ['region', 'size', 'zone']);
    counting.dispose();
    tree.dispose();
  });

  test('another token forgets what the previous one read: nothing of it is shown, even during an outage', async () => {
    const { tree, server, credentialsChanged } = setUp();
    await rows(tree);
    server.on(variablesRequest, refused);
    credentialsChanged.fire({ host: workspace.hostname, token: undefined });
    assert.deepEqual(await rows(tree), ['Could not list the variables: the connection was refused (is the service running?)']);
    tree.dispose();
  });
});
