// The "done when", in a real VS Code: in a folder linked to the demo workspace a user sees the diagnostics
// and completions, queues a targeted plan from a code action and watches it progress.
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { linkedWorkspacesRequest, type RunSummary } from '../../../server/src/protocol';
import { emulatorGet, extension, languageClient, waitFor, withPrompts } from './helpers';

const expectedCodes = ['missing-value', 'undeclared-variable', 'undeclared-workspace-variable', 'invalid-hcl-value', 'type-mismatch', 'overridden-by-workspace', 'sensitive-exposed'];

function folderUri(): vscode.Uri {
  const [folder] = vscode.workspace.workspaceFolders ?? [];
  assert.ok(folder, 'no folder is open');
  return folder.uri;
}

function hcpDiagnosticCodes(): Set<string> {
  const codes = new Set<string>();
  for (const [, diagnostics] of vscode.languages.getDiagnostics()) {
    for (const diagnostic of diagnostics) if (diagnostic.source === 'hcp-terraform') codes.add(String(diagnostic.code));
  }
  return codes;
}

async function openMainTf(): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folderUri(), 'main.tf'));
  return vscode.window.showTextDocument(document);
}

describe('a folder linked to the demo workspace', function () {
  this.timeout(60_000);
  let workspaceId: string;

  it('is linked to acme-demo/demo-app', async () => {
    const client = languageClient();
    const linked = await waitFor('the folder to be linked', extension().exports.events.onWorkspaceChanged, async () => {
      const folders = await client.sendRequest(linkedWorkspacesRequest);
      const folder = folders.find((f) => f.state.kind === 'linked');
      return folder?.state.kind === 'linked' ? folder.state.workspace : undefined;
    });
    assert.equal(linked.organization, 'acme-demo');
    assert.equal(linked.name, 'demo-app');
    workspaceId = linked.id;
  });

  it('shows every hcp-terraform diagnostic the demo is built to trigger', async () => {
    await openMainTf();
    // The seeded `services` value is valid HCL; an unparsable one is set here (through the service, as another
    // client would, then re-read by the server) and put back afterwards.
    const services = (await emulatorGet(`/workspaces/${workspaceId}/vars`)).data.find((v: { attributes: { key: string } }) => v.attributes.key === 'services');
    assert.ok(services, 'demo-app has no services variable');
    const original: string = services.attributes.value;
    const server = extension().exports.deps.server;
    await server.command('updateVariable', { workspaceId, variableId: services.id, value: '{ web = { port = 80, public = true }' });
    try {
      await waitFor('all diagnostic codes', vscode.languages.onDidChangeDiagnostics, () => {
        const codes = hcpDiagnosticCodes();
        return expectedCodes.every((code) => codes.has(code)) ? true : undefined;
      });
    } finally {
      await server.command('updateVariable', { workspaceId, variableId: services.id, value: original });
    }
    await waitFor('the invalid HCL value to be gone with the valid value back', vscode.languages.onDidChangeDiagnostics, () =>
      hcpDiagnosticCodes().has('invalid-hcl-value') ? undefined : true,
    );
  });

  it('completes var. with the declared variables and the workspace-only ones', async () => {
    const editor = await openMainTf();
    const text = editor.document.getText();
    const offset = text.indexOf('var.');
    assert.ok(offset >= 0, 'main.tf has no var. reference');
    const position = editor.document.positionAt(offset + 'var.'.length);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', editor.document.uri, position);
    const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
    for (const name of ['region', 'instance_count', 'db_password', 'environment']) assert.ok(labels.includes(name), `${name} is not offered: ${labels.join(', ')}`);
    const legacy = list.items.find((item) => (typeof item.label === 'string' ? item.label : item.label.label) === 'legacy_flag');
    assert.ok(legacy, 'the workspace-only variable legacy_flag is not offered');
    assert.ok((legacy.additionalTextEdits ?? []).length > 0, 'legacy_flag comes without the edit that declares it');
  });

  it('shows the workspace\'s current run and its actions in a code lens above the cloud block', async () => {
    const editor = await openMainTf();
    const cloudLine = editor.document.getText().split('\n').findIndex((l) => /^\s*cloud\s*\{/.test(l));
    assert.ok(cloudLine >= 0, 'main.tf has no cloud block');
    const lenses = await waitFor('code lenses above the cloud block', vscode.languages.onDidChangeDiagnostics, async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri, 10);
      const above = found.filter((lens) => lens.range.start.line <= cloudLine + 1 && lens.command);
      return above.length > 0 ? above : undefined;
    });
    const titles = lenses.map((lens) => lens.command?.title ?? '');
    // The seeded current run passed its policy check and awaits confirmation: the lens names the workspace and the
    // status, and offers what the run's actions flags allow.
    assert.ok(titles.some((t) => t.startsWith('demo-app: Policy checked')), `no lens shows the current run: ${titles.join(' | ')}`);
    assert.ok(titles.includes('Apply'), `no Apply lens: ${titles.join(' | ')}`);
    assert.ok(titles.includes('Discard'), `no Discard lens: ${titles.join(' | ')}`);
  });

  it('queues a plan targeting the resource at the cursor from a code action, and watches it progress', async () => {
    const editor = await openMainTf();
    const line = editor.document.getText().split('\n').findIndex((l) => /^resource "/.test(l));
    assert.ok(line >= 0, 'main.tf has no resource block');
    const [, type, name] = /^resource "([^"]+)" "([^"]+)"/.exec(editor.document.lineAt(line).text) ?? [];
    const address = `${type}.${name}`;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      editor.document.uri,
      new vscode.Range(line, 12, line, 12),
    );
    const targeted = actions.find((action) => {
      const args = action.command?.arguments?.[0] as { targetAddrs?: string[] } | undefined;
      return action.command?.command === 'hcpTerraform.server.queuePlan' && args?.targetAddrs?.includes(address);
    });
    assert.ok(targeted?.command, `no code action targets ${address}: ${actions.map((a) => a.title).join(' | ')}`);

    // The extension's own event for hcpTerraform/runsChanged (one handler per method in vscode-jsonrpc: a test must
    // not register another, or it would replace the extension's).
    const seen: RunSummary[] = [];
    const runsChanged = new vscode.EventEmitter<void>();
    const subscription = extension().exports.events.onRunsChanged((params) => {
      seen.push(...params.runs);
      runsChanged.fire();
    });
    try {
      const { run, asked } = await withPrompts({}, async (asked) => ({ run: await vscode.commands.executeCommand<RunSummary>(targeted.command!.command, ...(targeted.command!.arguments ?? [])), asked }));
      assert.ok(run?.id, 'queuing the plan returned no run');
      // Announced and followed like a run queued from the Runs view: its completion is notified too.
      assert.ok(asked.some((a) => a.prompt === 'information' && /plan queued in demo-app/.test(String(a.args[0]))), `no "plan queued" notification: ${JSON.stringify(asked)}`);
      assert.ok(extension().exports.deps.activity.isMine(run.id), 'a run queued from a code action is not marked as this window\'s');
      const onService = await emulatorGet(`/runs/${run.id}`);
      assert.deepEqual(onService.data.attributes['target-addrs'], [address]);
      assert.equal(onService.data.relationships.workspace.data.id, workspaceId);
      // The demo workspace is held by a run awaiting confirmation, so the new run waits: pending. Running it now is
      // what a user does then (force-execute cancels the earlier incomplete runs), and the watcher pushes its progress.
      assert.equal(run.status, 'pending');
      // A destructive run action from a server command asks the Runs view's modal first.
      await withPrompts({ modal: ['Force Execute'] }, () => vscode.commands.executeCommand('hcpTerraform.server.forceExecuteRun', { runId: run.id }));
      const progressed = await waitFor(`run ${run.id} to progress past pending`, runsChanged.event, () =>
        seen.find((r) => r.id === run.id && r.status !== 'pending'),
      );
      assert.notEqual(progressed.status, 'pending');
    } finally {
      subscription.dispose();
      runsChanged.dispose();
    }
  });

  it('a module folder created outside the editor is read, and deleted takes its diagnostics with it (VS Code may report the folder alone)', async () => {
    const folder = path.join(folderUri().fsPath, 'deleted-soon');
    const file = vscode.Uri.file(path.join(folder, 'main.tf'));
    const staleDiagnostics = () => vscode.languages.getDiagnostics(file).filter((d) => d.source === 'hcp-terraform' && d.message.includes('gone_value'));
    // The server has started and read the folder (its watchers are registered at its start): main.tf's diagnostics are out.
    const mainTf = vscode.Uri.joinPath(folderUri(), 'main.tf');
    await waitFor('main.tf\'s diagnostics', vscode.languages.onDidChangeDiagnostics, () => (vscode.languages.getDiagnostics(mainTf).some((d) => d.source === 'hcp-terraform') ? true : undefined));
    mkdirSync(folder, { recursive: true });
    writeFileSync(file.fsPath, 'locals {\n  gone = var.gone_value\n}\n');
    try {
      await waitFor('the new folder\'s diagnostic', vscode.languages.onDidChangeDiagnostics, () => (staleDiagnostics().length > 0 ? true : undefined));
      rmSync(folder, { recursive: true });
      await waitFor('the deleted folder\'s diagnostics to go', vscode.languages.onDidChangeDiagnostics, () => (staleDiagnostics().length === 0 ? true : undefined));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
