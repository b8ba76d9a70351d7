// The run commands as a user runs them from the palette or the Runs view, with every question answered by the test
// (the extension's prompts), checked on the emulator: queue a plan with targets and a run variable, force execute,
// apply, discard, a modal answered no, run details and logs, and linking a folder.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { RunSummary } from '../../../server/src/protocol';
import { linkedWorkspacesRequest } from '../../../server/src/protocol';
import { demoApp, node, runAwaitingConfirmation } from './demoRuns';
import { emulatorGet, extension, languageClient, runReaches, waitFor, withPrompts } from './helpers';

describe('run commands from the palette and the tree', function () {
  this.timeout(120_000);

  it('queues a plan through every step of Queue Plan: kind, message, targets, no replacement, options, a run variable checked as typed, summary', async () => {
    const workspace = await demoApp();
    type StepInput = { validate?: (value: string) => Thenable<unknown> | unknown };
    const run = await withPrompts(
      {
        stepPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'Plan and apply')],
        // message, then after targets, replacements and options: one run variable (checked as the user types it),
        // then an empty entry to go on
        stepInput: [
          'Palette plan with a target',
          async (options: StepInput) => {
            assert.match(String(await options.validate?.('region = eu-central-1')), /not an HCL literal/, 'an unquoted string was not refused as typed');
            const undeclared = (await options.validate?.('colour = "blue"')) as vscode.InputBoxValidationMessage | undefined;
            assert.equal(undeclared?.severity, vscode.InputBoxValidationSeverity.Warning, 'a variable the code does not declare is not warned about');
            assert.equal(await options.validate?.('region = "eu-central-1"'), undefined);
            return 'region = "eu-central-1"';
          },
          '',
        ],
        stepPickMany: [
          (items: Array<{ label: string }>) => items.filter((i) => /^terraform_data\./.test(i.label)).slice(0, 1),
          [],
          (items: Array<{ label: string }>) => items.filter((i) => i.label === 'Debugging mode' || i.label === 'Skip the refresh'),
        ],
        quickPick: [(items: Array<{ label: string; go?: boolean }>) => items.find((i) => i.go === true)],
      },
      async (asked) => {
        const queued = await vscode.commands.executeCommand<RunSummary>('hcpTerraform.queuePlan', { kind: 'workspace', workspace, pinned: false });
        const summary = asked.find((a) => a.prompt === 'quickPick' && String((a.args[1] as { title?: string }).title).includes('summary'));
        assert.ok(summary, 'no summary step was shown');
        assert.match(JSON.stringify(summary.args[0]), /Options: debugging mode, no refresh/);
        const steps = asked.filter((a) => a.prompt.startsWith('step')).map((a) => (a.args[a.prompt === 'stepInput' ? 0 : 1] as { step: number }).step);
        assert.deepEqual(steps, [1, 2, 3, 4, 5, 6, 6], 'the steps are not numbered in order');
        return queued;
      },
    );
    assert.ok(run?.id, 'no run was queued');
    const onService = (await emulatorGet(`/runs/${run.id}`)).data.attributes;
    assert.equal(onService.message, 'Palette plan with a target');
    assert.equal(onService['target-addrs'].length, 1);
    assert.match(onService["target-addrs"][0], /^terraform_data\./);
    assert.deepEqual(onService.variables, [{ key: 'region', value: '"eu-central-1"' }]);
    assert.equal(onService['debugging-mode'], true);
    assert.equal(onService.refresh, false);
    assert.equal(onService['allow-config-generation'], false, 'an option not picked keeps the service default');
    assert.ok(extension().exports.deps.activity.isMine(run.id), 'a run queued here is marked as this window\'s');
  });

  it('a plan the service refuses keeps its choices: Change and Retry opens the steps again with them', async () => {
    const workspace = await demoApp();
    const run = await withPrompts(
      {
        // First round: a plan-only run on a Terraform version the organization does not have; second: the same
        // choices, the version emptied.
        stepPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'Plan only'), (items: Array<{ label: string; picked?: boolean }>) => items.find((i) => i.picked)],
        stepInput: ['Refused first', '', '0.0.1', (options: { value?: string }) => options.value, '', ''],
        stepPickMany: [[], [], [], (items: Array<{ picked?: boolean }>) => items.filter((i) => i.picked), (items: Array<{ picked?: boolean }>) => items.filter((i) => i.picked), (items: Array<{ picked?: boolean }>) => items.filter((i) => i.picked)],
        quickPick: [(items: Array<{ go?: boolean }>) => items.find((i) => i.go === true), (items: Array<{ go?: boolean }>) => items.find((i) => i.go === true)],
        error: ['Change and Retry'],
      },
      async (asked) => {
        const queued = await vscode.commands.executeCommand<RunSummary | undefined>('hcpTerraform.queuePlan', { kind: 'workspace', workspace, pinned: false });
        const refused = asked.find((a) => a.prompt === 'error');
        assert.ok(refused, 'the refusal was not told');
        assert.match(String(refused.args[0]), /not available to this organization/);
        const kinds = asked.filter((a) => a.prompt === 'stepPick');
        assert.equal(kinds.length, 2, 'the steps were not opened again');
        const messages = asked.filter((a) => a.prompt === 'stepInput' && String((a.args[0] as { title: string }).title).endsWith('message'));
        assert.deepEqual(messages.map((m) => (m.args[0] as { value?: string }).value), ['Queued from VS Code', 'Refused first'], 'the second round did not start from the first one\'s choices');
        return queued;
      },
    );
    assert.ok(run?.id, 'the retried plan was not queued');
    const onService = (await emulatorGet(`/runs/${run.id}`)).data.attributes;
    assert.equal(onService.message, 'Refused first');
    assert.equal(onService['plan-only'], true);
  });

  it('leaving Queue Plan at any step queues nothing', async () => {
    const workspace = await demoApp();
    const before = (await emulatorGet(`/workspaces/${workspace.id}/runs?filter[operation]=plan_only,plan_and_apply,save_plan,refresh_only,destroy,empty_apply`)).meta?.pagination?.['total-count'];
    const run = await withPrompts({ stepPick: [(items: Array<{ label: string }>) => items[0]], stepInput: [undefined] }, () =>
      vscode.commands.executeCommand<RunSummary | undefined>('hcpTerraform.queuePlan', { kind: 'workspace', workspace, pinned: false }),
    );
    assert.equal(run, undefined);
    const after = (await emulatorGet(`/workspaces/${workspace.id}/runs?filter[operation]=plan_only,plan_and_apply,save_plan,refresh_only,destroy,empty_apply`)).meta?.pagination?.['total-count'];
    assert.equal(after, before);
  });

  it('applies a run that needs confirmation from the palette (workspace and run picked), after the modal', async () => {
    const workspace = await demoApp();
    const awaiting = await runAwaitingConfirmation(workspace, 'Apply me from the palette');
    const result = await withPrompts(
      { quickPick: [(items: Array<{ run?: RunSummary }>) => items.find((i) => i.run?.id === awaiting.id)], modal: ['Apply'], inputBox: ['Shipped from the e2e suite'] },
      async (asked) => {
        const applied = await vscode.commands.executeCommand<RunSummary>('hcpTerraform.applyRun');
        const modal = asked.find((a) => a.prompt === 'modal');
        assert.ok(modal, 'apply did not ask for confirmation');
        assert.match(String(modal.args[0]), /demo-app/);
        assert.match(String(modal.args[0]), new RegExp(awaiting.id));
        return applied;
      },
    );
    assert.ok(result, 'the apply was not sent');
    const applied = await runReaches(awaiting.id, 'applied', (run) => run.status === 'applied', 60_000);
    assert.equal(applied.status, 'applied');
    const comments = await emulatorGet(`/runs/${awaiting.id}/comments`);
    assert.ok(JSON.stringify(comments).includes('Shipped from the e2e suite'));
  });

  it('a modal answered "Cancel" changes nothing; answered "Discard" discards the run', async () => {
    const workspace = await demoApp();
    const awaiting = await runAwaitingConfirmation(workspace, 'Discard me');
    const declined = await withPrompts({ modal: [undefined] }, () => vscode.commands.executeCommand('hcpTerraform.discardRun', node(awaiting, workspace)));
    assert.equal(declined, undefined);
    assert.equal((await emulatorGet(`/runs/${awaiting.id}`)).data.attributes.status, awaiting.status);
    await withPrompts({ modal: ['Discard'], inputBox: [''] }, () => vscode.commands.executeCommand('hcpTerraform.discardRun', node(awaiting, workspace)));
    const discarded = await runReaches(awaiting.id, 'discarded', (run) => run.status === 'discarded');
    assert.equal(discarded.status, 'discarded');
  });

  it('shows a run\'s details and its plan log as documents', async () => {
    const workspace = await demoApp();
    const awaiting = await runAwaitingConfirmation(workspace, 'Read my details');
    await vscode.commands.executeCommand('hcpTerraform.showRunDetails', node(awaiting, workspace));
    // Shown rendered: as raw markdown, every escape of the service's text would show.
    // The workbench reports its tabs after the command returns: wait for the preview's.
    const previewTab = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.input instanceof vscode.TabInputWebview && /markdown\.preview/.test(tab.input.viewType) && tab.label.includes('details.md'));
    await waitFor('the details in the markdown preview', vscode.window.tabGroups.onDidChangeTabs, previewTab, 10_000);
    assert.notEqual(vscode.window.activeTextEditor?.document.uri.scheme, 'hcp-terraform-run', 'not opened as text beside it');
    // The preview may run in another extension host (a web one): read the document it shows from ours.
    const details = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'hcp-terraform-run', authority: workspace.hostname, path: `/${awaiting.id}/details.md` }));
    assert.match(details.getText(), /# Read my details/);
    assert.match(details.getText(), /\*\*Status:\*\* /);
    assert.match(details.getText(), new RegExp(`\\*\\*Workspace:\\*\\* ${`${workspace.organization}/${workspace.name}`.replace(/-/g, '\\\\-')}`), 'opened from a run node, the details name its workspace');
    await vscode.commands.executeCommand('hcpTerraform.showRunLog', node(awaiting, workspace));
    const log = vscode.window.activeTextEditor?.document;
    assert.equal(log?.languageId, 'hcp-terraform-log');
    const text = await waitFor('the plan log text', vscode.workspace.onDidChangeTextDocument, () => (/Plan:|No changes/.test(log!.getText()) ? log!.getText() : undefined));
    assert.doesNotMatch(text, /[\u0000-\u0008\u001b]/, 'the log shows control bytes');
    await withPrompts({ modal: ['Discard'], inputBox: [''] }, () => vscode.commands.executeCommand('hcpTerraform.discardRun', node(awaiting, workspace)));
  });

  it('links a folder without a cloud block to a workspace picked from the organization', async () => {
    const root = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    const folder = path.join(root, 'linked-by-test');
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'main.tf'), 'resource "terraform_data" "x" {}\n');
    const folderUri = vscode.Uri.file(folder).toString();
    // Opening the file is what makes a folder created behind the editor's back known at once (no watcher wait).
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(folder, 'main.tf')));
    await waitFor('the server to know the new folder', extension().exports.events.onWorkspaceChanged, async () =>
      (await languageClient().sendRequest(linkedWorkspacesRequest)).some((f) => f.folderUri === folderUri) ? true : undefined,
    );
    const linked = await withPrompts(
      { quickPick: [(items: Array<{ label: string }>) => items.find((i) => i.label === 'acme-demo'), (items: Array<{ label: string }>) => items.find((i) => i.label === 'sandbox')] },
      () => vscode.commands.executeCommand<boolean>('hcpTerraform.linkFolder', { folderUri }),
    );
    assert.equal(linked, true);
    const text = readFileSync(path.join(folder, 'main.tf'), 'utf8');
    assert.match(text, /terraform \{\n {2}cloud \{/);
    assert.match(text, /organization = "acme-demo"/);
    assert.match(text, /name = "sandbox"/);
    const relinked = await waitFor('the folder to be linked to sandbox', extension().exports.events.onWorkspaceChanged, async () => {
      const found = (await languageClient().sendRequest(linkedWorkspacesRequest)).find((f) => f.folderUri === folderUri);
      return found?.state.kind === 'linked' ? found.state.workspace : undefined;
    });
    assert.equal(relinked.name, 'sandbox');
  });
});
