import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { serverStatusRequest } from '../../../server/src/protocol';
import { extension, languageClient, waitFor } from './helpers';

describe('activation', () => {
  it('activates by itself on a folder containing .tf files', () => {
    // VS Code runs the tests only after its eager activations (workspaceContains) have completed,
    // so the extension must already be active without anyone calling activate().
    assert.equal(extension().isActive, true);
  });

  it('starts the language server, which answers a request', async () => {
    const status = await languageClient().sendRequest(serverStatusRequest);
    assert.equal(status.version, extension().packageJSON.version);
    assert.equal(status.address, 'https://app.terraform.io');
    assert.equal(status.signedIn, false);
  });

  it('measures its own activation and writes it to its output channel', async () => {
    const timing = extension().exports.activation();
    assert.ok(timing, 'no activation timing after activation');
    assert.ok(timing.moduleEvaluationMs > 0 && timing.activateMs > 0, JSON.stringify(timing));
    assert.equal(timing.activationMs, Math.round((timing.moduleEvaluationMs + timing.activateMs) * 10) / 10);
    // The language server's start is reported apart, after activate() handed control back.
    assert.ok(timing.serverStartMs !== undefined && timing.serverStartMs > timing.activateMs, JSON.stringify(timing));
    // The channel writes to a file beside the extension's log folder (context.logUri), in the host's log folder.
    const logRoot = path.dirname(extension().exports.views.logUri.fsPath);
    const written = () => filesUnder(logRoot).map((file) => readFileSync(file, 'utf8')).join('\n');
    const changed = new vscode.EventEmitter<void>();
    const watcher = watch(logRoot, { recursive: true }, () => changed.fire());
    try {
      const line = await waitFor('the activation line in the log', changed.event, () => /activated in [\d.]+ ms \(module evaluation [\d.]+ ms, activate\(\) [\d.]+ ms/.exec(written())?.[0], 10_000);
      assert.ok(line.includes(`activated in ${timing.activationMs} ms`), line);
    } finally {
      watcher.close();
      changed.dispose();
    }
  });

  it('opens .tf files as terraform and .tfvars files as terraform-vars', async () => {
    const [folder] = vscode.workspace.workspaceFolders ?? [];
    assert.ok(folder, 'no folder is open');
    const tf = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'main.tf'));
    const tfvars = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'terraform.tfvars'));
    assert.equal(tf.languageId, 'terraform');
    assert.equal(tfvars.languageId, 'terraform-vars');
  });
});

describe('contributions', () => {
  it('registers every contributed command', async () => {
    const contributed: Array<{ command: string }> = extension().packageJSON.contributes.commands;
    assert.ok(contributed.length > 0);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = contributed.map((c) => c.command).filter((command) => !registered.has(command));
    assert.deepEqual(missing, []);
  });

  it('contributes the four views, each of which opens', async () => {
    const views: Array<{ id: string }> = extension().packageJSON.contributes.views.hcpTerraform;
    assert.deepEqual(
      views.map((v) => v.id),
      ['hcpTerraform.runs', 'hcpTerraform.changeRequests', 'hcpTerraform.variables', 'hcpTerraform.organization'],
    );
    // VS Code creates a `<view id>.focus` command for each registered view; it fails for an unknown view.
    for (const view of views) await vscode.commands.executeCommand(`${view.id}.focus`);
  });

  it('knows the run-log language', async () => {
    const languages = await vscode.languages.getLanguages();
    for (const id of ['terraform', 'terraform-vars', 'hcp-terraform-log']) assert.ok(languages.includes(id), `${id} is missing`);
  });
});

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}
