// Run actions as a code lens above the cloud block and a Source Action carry them (hcpTerraform.server.applyRun…),
// run the way VS Code runs them (through the language client's command middleware): they ask the same modal and
// comment as the Runs view, and a modal dismissed sends nothing to the service.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunSummary } from '../../../server/src/protocol';
import { demoApp, runAwaitingConfirmation } from './demoRuns';
import { emulatorGet, extension, runReaches, waitFor, withPrompts } from './helpers';

async function openMainTf(): Promise<vscode.TextDocument> {
  const [folder] = vscode.workspace.workspaceFolders ?? [];
  assert.ok(folder, 'no folder is open');
  const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'main.tf'));
  await vscode.window.showTextDocument(document);
  return document;
}

/**
 * What changes the lenses and actions of a run: the run itself (runsChanged), and the workspace's current run, which
 * the server reads again after a run moves and tells with workspaceChanged (a lens shows the current run).
 */
const runOrWorkspaceChanged = (listener: () => void): vscode.Disposable => {
  const { events } = extension().exports;
  return vscode.Disposable.from(events.onRunsChanged(listener), events.onWorkspaceChanged(listener));
};

const runIdOf = (command: vscode.Command | undefined) => (command?.arguments?.[0] as { runId?: string } | undefined)?.runId;

/** The lens (once the server's snapshot has the run) whose command does `verb` to the run. */
function lensCommand(document: vscode.TextDocument, verb: string, runId: string): Promise<vscode.Command> {
  return waitFor(`a ${verb} lens for ${runId}`, runOrWorkspaceChanged, async () => {
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', document.uri, 20);
    return lenses.find((lens) => lens.command?.command === `hcpTerraform.server.${verb}` && runIdOf(lens.command) === runId)?.command;
  });
}

/** The Source Action whose command does `verb` to the run. */
function sourceActionCommand(document: vscode.TextDocument, verb: string, runId: string): Promise<vscode.Command> {
  return waitFor(`a ${verb} source action for ${runId}`, runOrWorkspaceChanged, async () => {
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, new vscode.Range(0, 0, 0, 0), vscode.CodeActionKind.Source.value);
    return actions.find((action) => action.command?.command === `hcpTerraform.server.${verb}` && runIdOf(action.command) === runId)?.command;
  });
}

const run = (command: vscode.Command) => vscode.commands.executeCommand<RunSummary | undefined>(command.command, ...(command.arguments ?? []));
const statusOnService = async (runId: string): Promise<string> => (await emulatorGet(`/runs/${runId}`)).data.attributes.status;

describe('run actions from code lenses and source actions', function () {
  this.timeout(120_000);

  it('Apply from the lens asks the Runs view\'s modal first; dismissed, nothing is applied; confirmed, it applies with the comment', async () => {
    const workspace = await demoApp();
    const awaiting = await runAwaitingConfirmation(workspace, 'Apply me from the lens');
    const document = await openMainTf();
    const apply = await lensCommand(document, 'applyRun', awaiting.id);

    const declined = await withPrompts({ modal: [undefined] }, async (asked) => {
      const result = await run(apply);
      const modal = asked.find((a) => a.prompt === 'modal');
      assert.ok(modal, `the lens applied without asking: ${JSON.stringify(asked)}`);
      assert.equal(modal.args[0], `Apply run "Apply me from the lens" (${awaiting.id}) in ${workspace.organization}/${workspace.name}?`);
      assert.match(String(modal.args[1]), /Its planned changes will be made to real infrastructure\./);
      assert.ok(!asked.some((a) => a.prompt === 'inputBox'), 'a comment was asked after the modal was dismissed');
      return result;
    });
    assert.equal(declined, undefined);
    assert.equal(await statusOnService(awaiting.id), awaiting.status, 'the run changed although the modal was dismissed');

    const applied = await withPrompts({ modal: ['Apply'], inputBox: ['Applied from the lens'] }, () => run(apply));
    assert.ok(applied, 'the apply was not sent once confirmed');
    await runReaches(awaiting.id, 'applied', (r) => r.status === 'applied', 60_000);
    assert.ok(JSON.stringify(await emulatorGet(`/runs/${awaiting.id}/comments`)).includes('Applied from the lens'), 'the comment did not reach the run');
  });

  it('a destroy plan from a source action asks the modal Queue Plan asks; dismissed, nothing is queued', async () => {
    const workspace = await demoApp();
    const document = await openMainTf();
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', document.uri, new vscode.Range(0, 0, 0, 0), 'source.hcpTerraform.queuePlan.destroy');
    const destroy = actions.find((action) => action.command?.command === 'hcpTerraform.server.queuePlan')?.command;
    assert.ok(destroy, `no destroy plan source action: ${actions.map((a) => a.title).join(' | ')}`);
    const allOperations = 'plan_only,plan_and_apply,save_plan,refresh_only,destroy,empty_apply';
    const count = async () => (await emulatorGet(`/workspaces/${workspace.id}/runs?filter[operation]=${allOperations}`)).meta?.pagination?.['total-count'];
    const before = await count();
    const declined = await withPrompts({ modal: [undefined] }, async (asked) => {
      const result = await run(destroy);
      assert.ok(asked.some((a) => a.prompt === 'modal' && String(a.args[0]) === `Queue a destroy plan in ${workspace.organization}/${workspace.name}?`), `no modal: ${JSON.stringify(asked)}`);
      return result;
    });
    assert.equal(declined, undefined);
    assert.equal(await count(), before, 'a destroy plan was queued although the modal was dismissed');
  });

  it('Discard from a source action asks first; dismissed, the run stays; confirmed, it is discarded', async () => {
    const workspace = await demoApp();
    const awaiting = await runAwaitingConfirmation(workspace, 'Discard me from a source action');
    const document = await openMainTf();
    const discard = await sourceActionCommand(document, 'discardRun', awaiting.id);

    const declined = await withPrompts({ modal: [undefined] }, async (asked) => {
      const result = await run(discard);
      assert.ok(asked.some((a) => a.prompt === 'modal' && String(a.args[0]).startsWith('Discard run "Discard me from a source action"')), `no modal: ${JSON.stringify(asked)}`);
      return result;
    });
    assert.equal(declined, undefined);
    assert.equal(await statusOnService(awaiting.id), awaiting.status, 'the run changed although the modal was dismissed');

    await withPrompts({ modal: ['Discard'], inputBox: [''] }, () => run(discard));
    await runReaches(awaiting.id, 'discarded', (r) => r.status === 'discarded');
  });
});
