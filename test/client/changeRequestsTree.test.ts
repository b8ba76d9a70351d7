// The Change Requests view's provider against a fake server: it follows the signed-in account, and a failed read
// (outage, 429, dropped connection) keeps the change requests read before, as the Runs and Variables views do.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ChangeRequestSummary, LinkedFolder } from '../../server/src/protocol';
import { changeRequestsRequest, linkedWorkspacesRequest, subscriptionRequest } from '../../server/src/protocol';
import { ChangeRequestsTree, type ChangeRequestsNode } from '../../client/src/changeRequests/changeRequestsTree';
import { ViewWorkspaces } from '../../client/src/views/viewWorkspaces';
import { fakeDeps, nextEvent } from './fakes/fakeDeps';

const workspace = { id: 'ws-1', name: 'demo-app', organization: 'acme', hostname: 'app.terraform.io' };
const folder: LinkedFolder = { folderUri: 'file:///repo/demo-app', mechanism: 'cloud', problems: [], signedIn: true, state: { kind: 'linked', workspace } };
const changeRequest = (id: string, subject: string, archived = false): ChangeRequestSummary => ({
  id,
  subject,
  message: '',
  archived,
  createdAt: `2026-11-2${id.slice(-1)}T10:00:00Z`,
  ...(archived ? { archivedAt: '2026-11-27T10:00:00Z', archivedBy: 'max-member' } : {}),
});
const seeded = [changeRequest('wscr-2', 'Rotate the keys'), changeRequest('wscr-1', 'Pin the provider'), changeRequest('wscr-3', 'Old idea', true)];
const refused = () => {
  throw new Error("Could not list the workspace's change requests: the connection was refused (is the service running?)");
};
const rateLimited = () => {
  throw new Error("Could not list the workspace's change requests: the service is rate limiting this token (still 429 after 3 attempts). Try again in 12 s.");
};

function setUp() {
  const fake = fakeDeps();
  const memento = { get: <T>(_key: string, fallback: T) => fallback, update: async () => undefined };
  const tree = new ChangeRequestsTree(fake.deps, new ViewWorkspaces(fake.deps, memento as never));
  fake.server.on(linkedWorkspacesRequest, () => [folder]);
  fake.server.on(changeRequestsRequest, () => ({ changeRequests: seeded }));
  // The organization's plan has the feature: a failed read is an error, never "not in the plan".
  fake.server.on(subscriptionRequest, () => ({ available: true, featureSet: { name: 'Plus', flags: { 'change-requests': true } } }));
  return { ...fake, tree };
}

/** The workspace's rows as VS Code shows them after a change event (the archived group by its label). */
async function rows(tree: ChangeRequestsTree): Promise<string[]> {
  const [workspaceNode] = await tree.getChildren();
  const children: ChangeRequestsNode[] = await tree.getChildren(workspaceNode);
  return children.map((node) => String(tree.getTreeItem(node).label));
}

describe('Change Requests view provider', () => {
  let view: ReturnType<typeof setUp>;
  beforeEach(() => {
    view = setUp();
  });
  afterEach(() => view.tree.dispose());

  test('signing in with another token (or out) redraws the Change Requests view from new reads', async () => {
    const { tree, credentialsChanged } = view;
    const redraw = nextEvent(tree.onDidChangeTreeData, (node) => node === undefined);
    credentialsChanged.fire({ host: 'app.terraform.io', token: 'another-token' });
    assert.equal(await redraw, undefined);
  });

  test('a Refresh during an outage keeps the change requests read before, under one row saying when they were read', async () => {
    const { tree, server } = view;
    assert.deepEqual(await rows(tree), ['Rotate the keys', 'Pin the provider', 'Archived (1)']);
    server.on(changeRequestsRequest, refused);
    tree.refresh();
    const shown = await rows(tree);
    assert.deepEqual(shown.slice(1), ['Rotate the keys', 'Pin the provider', 'Archived (1)'], 'the change requests read before stay');
    assert.match(shown[0]!, /^Could not refresh the change requests \(last read \d\d:\d\d\): the connection was refused/);
    assert.doesNotMatch(shown[0]!, /Could not list/, 'the reason is told once, without its own prefix');
  });

  test('a 429 keeps them too; "No open change requests." only when the service said so', async () => {
    const { tree, server } = view;
    server.on(changeRequestsRequest, () => ({ changeRequests: [seeded[2]!] }));
    assert.deepEqual(await rows(tree), ['No open change requests.', 'Archived (1)']);
    server.on(changeRequestsRequest, rateLimited);
    tree.refresh();
    const shown = await rows(tree);
    assert.match(shown[0]!, /^Could not refresh the change requests \(last read \d\d:\d\d\): the service is rate limiting/);
    assert.deepEqual(shown.slice(1), ['Archived (1)']);
  });

  test('change requests never read say they could not be listed, once', async () => {
    const { tree, server } = view;
    server.on(changeRequestsRequest, refused);
    assert.deepEqual(await rows(tree), ['Could not list the change requests: the connection was refused (is the service running?)']);
  });

  test('when the service is back (the watcher reports runs of the workspace), the list is read again and its error row goes', async () => {
    const { tree, server, runsChanged } = view;
    await rows(tree);
    server.on(changeRequestsRequest, refused);
    tree.refresh();
    assert.match((await rows(tree))[0]!, /^Could not refresh/);

    server.on(changeRequestsRequest, () => ({ changeRequests: [changeRequest('wscr-4', 'Add a tag'), ...seeded] }));
    const redraw = nextEvent(tree.onDidChangeTreeData);
    runsChanged.fire({ hostname: workspace.hostname, workspaceId: workspace.id, runs: [] });
    await redraw;
    assert.deepEqual(await rows(tree), ['Add a tag', 'Rotate the keys', 'Pin the provider', 'Archived (1)']);
  });

  test('another token forgets what the previous one read: nothing of it is shown, even during an outage', async () => {
    const { tree, server, credentialsChanged } = view;
    await rows(tree);
    server.on(changeRequestsRequest, refused);
    credentialsChanged.fire({ host: workspace.hostname, token: undefined });
    assert.deepEqual(await rows(tree), ['Could not list the change requests: the connection was refused (is the service running?)']);
  });

  test('an organization whose plan lacks the feature says so, not an error', async () => {
    const { tree, server } = view;
    server.on(changeRequestsRequest, () => {
      throw new Error("Could not list the workspace's change requests: not found");
    });
    server.on(subscriptionRequest, () => ({ available: true, featureSet: { name: 'Free', flags: { 'change-requests': false } } }));
    assert.deepEqual(await rows(tree), ["Change requests are not in acme's plan (Free): they need the top paid edition."]);
  });
});
