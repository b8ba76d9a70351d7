// Plans on the code in a real VS Code on the demo folder: a plan queued with Queue Plan reaches main.tf's editor as
// gutter/ruler marks (read through the extension's seam: VS Code has no API to read decorations), the Runs view lists
// its resource changes and opens their blocks, Show Plan on Code puts another run's plan on the code, and Toggle
// Plan on Code takes the marks away and brings them back. Every wait is on an event, with a bound.
import assert from 'node:assert/strict';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RunSummary } from '../../../server/src/protocol';
import { linkedWorkspacesRequest } from '../../../server/src/protocol';
import type { VerdictMark } from '../../../client/src/planOverlay/editorVerdicts';
import type { RunNode, RunsTreeNode, WorkspaceNode, WorkspaceRef } from '../../../client/src/runs/model';
import { emulatorGet, extension, languageClient, runReaches, waitFor, withPrompts } from './helpers';

const replaced = 'random_pet.app_name';
const seam = () => extension().exports.seams.planDecorations;
const tree = () => extension().exports.runsView;

/** demo-app as linked to the folder, once the server has linked it (it may still be loading when this file runs first). */
async function demoApp(): Promise<WorkspaceRef> {
  return waitFor('demo-app to be linked', extension().exports.events.onWorkspaceChanged, async () => {
    const folders = await languageClient().sendRequest(linkedWorkspacesRequest);
    const folder = folders.find((f) => f.state.kind === 'linked' && f.state.workspace.name === 'demo-app');
    return folder && folder.state.kind === 'linked' ? { ...folder.state.workspace, folderUri: folder.folderUri } : undefined;
  });
}

async function mainTf(): Promise<vscode.TextEditor> {
  const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(root, 'main.tf')), { preview: false });
}

/** The marks drawn on main.tf once `done` accepts them (each drawing re-checks). */
function marksOn(editor: vscode.TextEditor, description: string, done: (marks: VerdictMark[]) => boolean, timeoutMs = 45_000): Promise<VerdictMark[]> {
  const uri = editor.document.uri.toString();
  return waitFor(`main.tf's plan marks: ${description}`, seam().onDidRender, () => {
    const marks = seam().marks(uri);
    return done(marks) ? marks : undefined;
  }, timeoutMs);
}

const lineOf = (editor: vscode.TextEditor, start: string) => editor.document.getText().split('\n').findIndex((line) => line.startsWith(start));

async function children(node?: RunsTreeNode): Promise<RunsTreeNode[]> {
  return (await tree().getChildren(node)) ?? [];
}

async function runInTree(runId: string): Promise<RunNode> {
  return waitFor(`run ${runId} in the Runs view`, tree().onDidChangeTreeData, async () => {
    const workspace = (await children()).find((n): n is WorkspaceNode => n.kind === 'workspace' && n.workspace.name === 'demo-app');
    return workspace ? (await children(workspace)).find((n): n is RunNode => n.kind === 'run' && n.run.id === runId) : undefined;
  });
}

describe('plans on the code', function () {
  this.timeout(120_000);
  let planned: RunSummary;

  before(async () => {
    // Plan only (speculative: it never waits behind the run holding the workspace), replacing the app's name, so the
    // plan has a verdict on a block whatever earlier applies left in the state.
    const workspace = await demoApp();
    await mainTf();
    const run = await withPrompts(
      {
        stepPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'Plan only')],
        // message, then no run variable (an empty entry goes on), then no Terraform version
        stepInput: ['Plan on the code', '', ''],
        // no target, the replaced block, no run option
        stepPickMany: [[], (items: Array<{ label: string }>) => items.filter((i) => i.label === replaced), []],
        quickPick: [(items: Array<{ go?: boolean }>) => items.find((i) => i.go === true)],
      },
      async (asked) => {
        const queued = await vscode.commands.executeCommand<RunSummary | undefined>('hcpTerraform.queuePlan', { kind: 'workspace', workspace, pinned: false });
        const said = asked.map((a) => `${a.prompt}: ${JSON.stringify(a.prompt.startsWith('step') || a.prompt === 'quickPick' ? a.args[a.prompt === 'stepInput' ? 0 : 1] : a.args[0])}`);
        assert.ok(queued?.id, `no plan was queued; the prompts were:\n${said.join('\n')}`);
        return queued;
      },
    );
    assert.deepEqual((await emulatorGet(`/runs/${run.id}`)).data.attributes['replace-addrs'], [replaced]);
    planned = await runReaches(run.id, 'planned', (r) => r.status === 'planned_and_finished', 60_000);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('hcpTerraform').update('planOverlay.enabled', undefined, vscode.ConfigurationTarget.Global);
  });

  it('puts the finished plan on main.tf: a -/+ replace mark on the replaced block\'s first line', async () => {
    const editor = await mainTf();
    const marks = await marksOn(editor, `the plan of ${planned.id}`, (m) => m.some((mark) => mark.runId === planned.id && mark.address === replaced));
    const mark = marks.find((m) => m.address === replaced)!;
    assert.equal(mark.action, 'replace');
    assert.equal(mark.key, 'replace');
    assert.equal(mark.stale, false);
    assert.equal(mark.line, lineOf(editor, `resource "random_pet" "app_name"`));
    assert.match(mark.label, /replace/);
    // Other blocks carry their own verdicts; each on a resource or data block's first line.
    for (const other of marks) assert.match(editor.document.lineAt(other.line).text, /^(resource|data) "/, `${other.address} is marked on "${editor.document.lineAt(other.line).text}"`);
  });

  it('lists the plan\'s resource changes under the run in the Runs view; selecting one opens its block', async () => {
    const run = await runInTree(planned.id);
    const under = await children(run);
    const changesNode = under.find((n) => n.kind === 'resourceChanges');
    assert.ok(changesNode, `no Resource changes under the planned run: ${under.map((n) => n.kind).join(', ')}`);
    assert.equal(tree().getTreeItem(changesNode).label, 'Resource changes');
    const changes = await children(changesNode);
    const change = changes.find((n) => n.kind === 'resourceChange' && n.change.address === replaced);
    assert.ok(change && change.kind === 'resourceChange', `the changes are ${changes.map((n) => (n.kind === 'resourceChange' ? n.change.address : n.kind)).join(', ')}`);
    const item = tree().getTreeItem(change);
    assert.equal(item.label, replaced);
    assert.match(String(item.description), /^-\/\+ replace/);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'arrow-swap');
    assert.equal(item.command?.command, 'hcpTerraform.openResourceChange');
    assert.ok(change.change.uri, 'the replaced resource has no block');
    // The editor on main.tf moves to another file first, so opening the block is seen.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand(item.command!.command, ...(item.command!.arguments ?? []));
    const editor = vscode.window.activeTextEditor;
    assert.equal(path.basename(editor?.document.uri.fsPath ?? ''), 'main.tf');
    assert.equal(editor!.selection.active.line, change.change.range!.start.line);
    assert.equal(editor!.selection.active.line, lineOf(editor!, `resource "random_pet" "app_name"`));
  });

  it('offers Show Plan on Code on planned runs, and puts another run\'s plan on the code', async () => {
    const workspace = await demoApp();
    // An older run whose plan finished (the seed has several): its plan replaces the marks of the latest one.
    const older = (await tree().getChildren((await children()).find((n) => n.kind === 'workspace' && n.workspace.name === 'demo-app')))?.find(
      (n): n is RunNode => n.kind === 'run' && n.run.id !== planned.id && String(tree().getTreeItem(n).contextValue).split(' ').includes('planned'),
    );
    assert.ok(older, 'no other planned run of demo-app');
    assert.ok(String(tree().getTreeItem(await runInTree(planned.id)).contextValue).split(' ').includes('planned'));
    const editor = await mainTf();
    const result = await vscode.commands.executeCommand<{ folderUris: string[] }>('hcpTerraform.showPlanOnCode', { kind: 'run', run: older.run, workspace });
    assert.deepEqual(result?.folderUris, [workspace.folderUri]);
    await marksOn(editor, `the plan of ${older.run.id}`, (m) => m.length > 0 && m.every((mark) => mark.runId === older.run.id));
    // And back to ours, from the palette: workspace (the only linked one) then the run, picked.
    await withPrompts({ quickPick: [(items: Array<{ run?: RunSummary }>) => items.find((i) => i.run?.id === planned.id)] }, () => vscode.commands.executeCommand('hcpTerraform.showPlanOnCode'));
    await marksOn(editor, `the plan of ${planned.id} again`, (m) => m.some((mark) => mark.runId === planned.id && mark.address === replaced));
  });

  it('Toggle Plan on Code takes the marks away and brings them back', async () => {
    const editor = await mainTf();
    await marksOn(editor, 'some marks', (m) => m.length > 0);
    assert.equal(await vscode.commands.executeCommand('hcpTerraform.togglePlanOverlay'), false);
    assert.equal(vscode.workspace.getConfiguration('hcpTerraform').get('planOverlay.enabled'), false);
    await marksOn(editor, 'none', (m) => m.length === 0);
    assert.equal(await vscode.commands.executeCommand('hcpTerraform.togglePlanOverlay'), true);
    await marksOn(editor, 'back', (m) => m.some((mark) => mark.address === replaced));
  });

  it('dims the marks once main.tf is edited after the plan, and not before', async () => {
    const editor = await mainTf();
    const before = await marksOn(editor, 'fresh', (m) => m.some((mark) => mark.address === replaced));
    assert.ok(before.every((mark) => !mark.stale));
    const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    await editor.edit((edit) => edit.insert(end, '\n# edited after the plan\n'));
    await editor.document.save();
    try {
      const stale = await marksOn(editor, 'stale', (m) => m.length > 0 && m.every((mark) => mark.stale));
      assert.equal(stale.find((mark) => mark.address === replaced)?.key, 'replace-stale');
    } finally {
      await editor.edit((edit) => edit.delete(new vscode.Range(end, editor.document.lineAt(editor.document.lineCount - 1).range.end)));
      await editor.document.save();
    }
  });
});
