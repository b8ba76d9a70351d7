// The change request's read-only document after Archive. VS Code keeps a provider's document as it was opened until
// the provider says its URI changed, so Archive has to say so, or every editor and preview showing it stays "Open".
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { ChangeRequestSummary, LinkedFolder } from '../../server/src/protocol';
import { changeRequestsRequest, linkedWorkspacesRequest } from '../../server/src/protocol';
import { registerChangeRequestCommands } from '../../client/src/changeRequests/changeRequestCommands';
import { ChangeRequestsTree } from '../../client/src/changeRequests/changeRequestsTree';
import { prompts } from '../../client/src/userPrompts';
import { ReadOnlyDocuments } from '../../client/src/views/readOnlyDocuments';
import { ViewWorkspaces } from '../../client/src/views/viewWorkspaces';
import { fakeDeps, nextEvent } from './fakes/fakeDeps';
import { commands, workspace as editorWorkspace, type FakeTextDocument } from './fakes/vscode';

const workspace = { id: 'ws-1', name: 'demo-app', organization: 'acme', hostname: 'app.terraform.io' };
const open: ChangeRequestSummary = { id: 'wscr-1', subject: 'Rotate the keys', message: 'Keys are **old**.', archived: false, createdAt: '2026-11-20T10:00:00Z', createdBy: 'olivia-owner' };
const archived: ChangeRequestSummary = { ...open, archived: true, archivedAt: '2026-11-27T21:00:00Z', archivedBy: 'max-member' };
const nodeOf = (changeRequest: ChangeRequestSummary) => ({ kind: 'changeRequest', changeRequest, workspace });
const folder: LinkedFolder = { folderUri: 'file:///repo/demo-app', mechanism: 'cloud', problems: [], signedIn: true, state: { kind: 'linked', workspace } };

describe('change request document', () => {
  let context: { subscriptions: Array<{ dispose(): unknown }> };
  let fake: ReturnType<typeof fakeDeps>;
  let tree: ChangeRequestsTree;
  const modal = prompts.modal;

  beforeEach(() => {
    fake = fakeDeps();
    context = { subscriptions: [] };
    const memento = { get: <T>(_key: string, fallback: T) => fallback, update: async () => undefined };
    const workspaces = new ViewWorkspaces(fake.deps, memento as never);
    tree = new ChangeRequestsTree(fake.deps, workspaces);
    context.subscriptions.push(tree);
    registerChangeRequestCommands(context as never, fake.deps, tree, workspaces, ReadOnlyDocuments.register(context as never));
    fake.server.onCommand('archiveChangeRequest', () => archived);
    prompts.modal = async () => 'Archive';
  });
  afterEach(() => {
    prompts.modal = modal;
    for (const subscription of context.subscriptions) subscription.dispose();
  });

  test('Archive re-renders the open document: it says archived, by whom and when, no longer open', async () => {
    const document = (await commands.executeCommand('hcpTerraform.showChangeRequest', nodeOf(open))) as FakeTextDocument;
    assert.match(document.getText(), /^- Open$/m);
    const rerendered = nextEvent(editorWorkspace.onDidChangeTextDocument, (event) => event.document === document);
    await commands.executeCommand('hcpTerraform.archiveChangeRequest', nodeOf(open));
    await rerendered;
    assert.match(document.getText(), /^- \*\*Archived\*\* 2026-11-27T21:00:00Z by max\\-member$/m);
    assert.doesNotMatch(document.getText(), /^- Open$/m);
    assert.match(document.getText(), /Keys are \*\*old\*\*\./, 'the message stays');
  });

  test('a dismissed Archive leaves the document open as it was', async () => {
    const document = (await commands.executeCommand('hcpTerraform.showChangeRequest', nodeOf(open))) as FakeTextDocument;
    prompts.modal = async () => undefined;
    await commands.executeCommand('hcpTerraform.archiveChangeRequest', nodeOf(open));
    assert.equal(fake.server.requests.length, 0, 'nothing was sent');
    assert.match(document.getText(), /^- Open$/m);
  });

  test('archived elsewhere (the web, another window): the open document follows once the view reads the list again', async () => {
    const document = (await commands.executeCommand('hcpTerraform.showChangeRequest', nodeOf(open))) as FakeTextDocument;
    let rereads = 0;
    const counting = editorWorkspace.onDidChangeTextDocument((event) => event.document === document && rereads++);
    // A list read that changes nothing re-renders nothing.
    fake.server.on(changeRequestsRequest, () => ({ changeRequests: [open] }));
    fake.server.on(linkedWorkspacesRequest, () => [folder]);
    await listOf(tree);
    assert.equal(rereads, 0);
    fake.server.on(changeRequestsRequest, () => ({ changeRequests: [archived] }));
    const rerendered = nextEvent(editorWorkspace.onDidChangeTextDocument, (event) => event.document === document);
    await listOf(tree);
    await rerendered;
    assert.match(document.getText(), /^- \*\*Archived\*\* 2026-11-27T21:00:00Z by max\\-member$/m);
    counting.dispose();
  });
});

/** The workspace's rows, as the view reads them when it is drawn. */
async function listOf(tree: ChangeRequestsTree) {
  const [workspaceNode] = await tree.getChildren();
  assert.ok(workspaceNode, 'no workspace in the view');
  return tree.getChildren(workspaceNode);
}
