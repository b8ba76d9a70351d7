// The status bar item for main.tf of the demo folder, and a notification's Apply button, in a real VS Code against
// the emulator. The test creates its own run (queued as this window's, run at once with force-execute) rather than
// depending on what other test files did to the workspace.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { linkedWorkspacesRequest, workspaceRequest, type LinkedWorkspace, type RunSummary, type WorkspaceSummary } from '../../../server/src/protocol';
import type { RunNode } from '../../../client/src/runs/model';
import { extension, languageClient, waitFor } from './helpers';

async function openMainTf(): Promise<void> {
  const [folder] = vscode.workspace.workspaceFolders ?? [];
  assert.ok(folder, 'no folder is open');
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'main.tf')));
}

async function demoWorkspace(): Promise<LinkedWorkspace> {
  return waitFor('the folder to be linked', extension().exports.events.onWorkspaceChanged, async () => {
    const folders = await languageClient().sendRequest(linkedWorkspacesRequest);
    const linked = folders.find((folder) => folder.state.kind === 'linked');
    return linked?.state.kind === 'linked' ? linked.state.workspace : undefined;
  });
}

describe('the status bar and run notifications', function () {
  this.timeout(90_000);
  let workspace: LinkedWorkspace;

  before(async () => {
    workspace = await demoWorkspace();
  });

  it('names demo-app and its current run\'s state for main.tf, and opens that run on click', async () => {
    await openMainTf();
    const statusBar = extension().exports.seams.statusBar;
    // Runs move on their own (speed 20): compare with the service's current run each time the item renders.
    const shown = await waitFor('the status bar to show the current run', statusBar.onDidRender, async () => {
      const current = statusBar.current();
      // By method name: a RequestType from the tests' bundle is not the client's (its parameter structure differs).
      const summary = await languageClient().sendRequest<WorkspaceSummary>(workspaceRequest.method, { workspaceId: workspace.id, hostname: workspace.hostname });
      const run = summary.currentRun;
      return current && run && current.text.endsWith(`demo-app: ${run.statusLabel}`) ? { current, run } : undefined;
    });
    assert.match(shown.current.text, /^\$\((sync~spin|warning|error|check|cloud)\) demo-app: /);
    assert.ok(shown.current.tooltip.includes('acme-demo/demo-app'), shown.current.tooltip);
    assert.equal(shown.current.command?.command, 'hcpTerraform.showRunDetails');
    const node = shown.current.command?.arguments?.[0] as RunNode;
    assert.equal(node.kind, 'run');
    assert.equal(node.run.id, shown.run.id);
    assert.equal(node.workspace.id, workspace.id);
  });

  it('notifies when this window\'s run needs confirmation, and Apply runs hcpTerraform.applyRun with that run', async () => {
    const api = extension().exports;
    const { prompts, notificationCommands } = api.seams;
    const original = { information: prompts.information, execute: notificationCommands.execute };
    const offered: Array<{ message: string; buttons: string[] }> = [];
    const executed: Array<{ command: string; node: RunNode }> = [];
    const didExecute = new vscode.EventEmitter<void>();
    const runMessage = `Notification test ${Date.now()}`;
    let mine: RunSummary | undefined;
    prompts.information = async (message, ...buttons) => {
      offered.push({ message, buttons });
      return mine && message.includes('needs confirmation') && message.includes(`"${runMessage}"`) ? 'Apply' : undefined;
    };
    // A spy instead of the real command, which would ask for confirmation in a modal and apply on the service.
    notificationCommands.execute = async (command, node) => {
      executed.push({ command, node });
      didExecute.fire();
    };
    try {
      // Replacing the app's name: something to confirm even after earlier tests applied the configuration.
      const queued = await api.deps.server.command('queuePlan', { workspaceId: workspace.id, hostname: workspace.hostname, message: runMessage, replaceAddrs: ['random_pet.app_name'] });
      mine = queued;
      api.deps.activity.queued(queued);
      // The workspace may be held by an earlier run awaiting confirmation: run ours now (the earlier ones are
      // canceled). Refused when nothing holds it (then it was pending only for a moment and goes on by itself).
      if (queued.status === 'pending') {
        await api.deps.server.command('forceExecuteRun', { runId: queued.id, hostname: workspace.hostname }).catch(() => undefined);
      }
      const applied = await waitFor(`the Apply button of run ${queued.id} to run its command`, didExecute.event, () =>
        executed.find((entry) => entry.node.run.id === queued.id),
        60_000,
      );
      assert.equal(applied.command, 'hcpTerraform.applyRun');
      assert.equal(applied.node.kind, 'run');
      assert.equal(applied.node.workspace.id, workspace.id);
      const notification = offered.filter((entry) => entry.message.includes(`"${runMessage}"`) && entry.message.includes('needs confirmation'));
      assert.equal(notification.length, 1, `expected one needs-confirmation notification: ${JSON.stringify(offered)}`);
      assert.deepEqual(notification[0]!.buttons, ['Apply', 'Discard', 'Show']);

      // The same change reached the status bar: the newer run is the current one, waiting for confirmation.
      await openMainTf();
      const statusBar = api.seams.statusBar;
      const shown = await waitFor(`the status bar to show run ${queued.id}`, statusBar.onDidRender, () => {
        const node = statusBar.current()?.command?.arguments?.[0] as RunNode | undefined;
        return node?.run.id === queued.id ? statusBar.current() : undefined;
      });
      assert.match(shown!.text, /^\$\(warning\) demo-app: /);
      assert.ok(shown!.tooltip.startsWith(runMessage), shown!.tooltip);
    } finally {
      prompts.information = original.information;
      notificationCommands.execute = original.execute;
      didExecute.dispose();
    }
  });
});
