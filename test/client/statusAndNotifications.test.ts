// The status bar's choice of folder and run, and which run changes notify: pure functions, no VS Code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LinkedFolder, RunSummary } from '../../server/src/protocol';
import { runNotification } from '../../client/src/status/notificationDecision';
import { folderForActiveFile, nextCurrentRun, statusBarState } from '../../client/src/status/statusBarState';
import { foundTokens } from '../../client/src/auth/tokenSources';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const run = (over: Partial<RunSummary> = {}): RunSummary => ({
  id: 'run-1', status: 'planning', statusLabel: 'Planning', actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false }, ...over,
});
const linked = (folderUri: string, name: string): LinkedFolder => ({
  folderUri, mechanism: 'cloud', problems: [], signedIn: true, state: { kind: 'linked', workspace: { id: `ws-${name}`, name, organization: 'acme', hostname: 'app.terraform.io' } },
});

describe('status bar', () => {
  const folders = [linked('file:///w/app', 'app'), linked('file:///w/app/modules/net', 'net'), { folderUri: 'file:///w/other', mechanism: 'none', problems: [], signedIn: true, state: { kind: 'not-linked' } } as LinkedFolder];
  test('the deepest linked folder holding the active file; hidden outside; the only one without a file', () => {
    assert.equal(folderForActiveFile(folders, 'file:///w/app/modules/net/main.tf')?.state.workspace.name, 'net');
    assert.equal(folderForActiveFile(folders, 'file:///w/app/main.tf')?.state.workspace.name, 'app');
    assert.equal(folderForActiveFile(folders, 'file:///w/other/main.tf'), undefined);
    assert.equal(folderForActiveFile(folders, 'file:///w/application/main.tf'), undefined, 'a folder name prefix is not the folder');
    assert.equal(folderForActiveFile(folders, undefined), undefined, 'two linked folders and no file: none');
    assert.equal(folderForActiveFile([folders[0]!], undefined)?.state.workspace.name, 'app');
  });
  test('text and icon follow the current run', () => {
    const folder = folderForActiveFile(folders, 'file:///w/app/main.tf')!;
    assert.equal(statusBarState(folder, run({ status: 'policy_checked', statusLabel: 'Policy checked' })).text, '$(warning) app: Policy checked');
    assert.equal(statusBarState(folder, run({ status: 'applying', statusLabel: 'Applying' })).text, '$(sync~spin) app: Applying');
    assert.equal(statusBarState(folder, undefined).text, '$(cloud) app');
  });
  test('a newer run that is not plan-only becomes current; the current one updates in place', () => {
    const current = run({ id: 'run-1', createdAt: '2026-01-01T00:00:00Z' });
    assert.equal(nextCurrentRun(current, [run({ id: 'run-1', status: 'planned', createdAt: '2026-01-01T00:00:00Z' })])?.status, 'planned');
    assert.equal(nextCurrentRun(current, [run({ id: 'run-2', createdAt: '2026-01-02T00:00:00Z', planOnly: true })])?.id, 'run-1');
    assert.equal(nextCurrentRun(current, [run({ id: 'run-3', createdAt: '2026-01-02T00:00:00Z' })])?.id, 'run-3');
    assert.equal(nextCurrentRun(current, [run({ id: 'run-0', createdAt: '2025-12-31T00:00:00Z' })])?.id, 'run-1');
  });
});

describe('run notifications', () => {
  const awaiting = run({ status: 'policy_checked', statusLabel: 'Policy checked', message: 'Scale', actions: { isCancelable: false, isConfirmable: true, isDiscardable: true, isForceCancelable: false } });
  test('needs confirmation offers Apply, Discard and Show; errored offers the log; applied says so', () => {
    const note = runNotification(awaiting, 'web', 'mine', true)!;
    assert.deepEqual(note.buttons.map((b) => b.title), ['Apply', 'Discard', 'Show']);
    assert.equal(note.buttons[0]!.command, 'hcpTerraform.applyRun');
    assert.match(note.message, /"Scale" in web needs confirmation/);
    assert.equal(runNotification(run({ status: 'errored' }), 'web', 'mine', true)?.buttons[0]?.command, 'hcpTerraform.showRunLog');
    assert.equal(runNotification(run({ status: 'errored' }), 'web', 'mine', true)?.severity, 'error');
    assert.match(runNotification(run({ status: 'applied' }), 'web', 'mine', true)!.message, /applied/);
    assert.equal(runNotification(run({ status: 'planning' }), 'web', 'all', true), undefined);
  });
  test('the setting decides whose runs notify; each run and state has one key', () => {
    assert.equal(runNotification(awaiting, 'web', 'off', true), undefined);
    assert.equal(runNotification(awaiting, 'web', 'mine', false), undefined);
    assert.ok(runNotification(awaiting, 'web', 'all', false));
    assert.notEqual(runNotification(awaiting, 'web', 'all', false)!.key, runNotification(run({ status: 'applied' }), 'web', 'all', false)!.key);
  });
});

describe('tokens found for sign-in', () => {
  test('TF_TOKEN_<host> by Terraform\'s encoding, and the terraform login file', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hcp-signin-'));
    mkdirSync(path.join(home, '.terraform.d'));
    writeFileSync(path.join(home, '.terraform.d', 'credentials.tfrc.json'), JSON.stringify({ credentials: { 'my-tfe.example.com': { token: 'from-file' } } }));
    const found = foundTokens('my-tfe.example.com', { HOME: home, TF_TOKEN_my__tfe_example_com: 'from-env', TF_TOKEN_other_example_com: 'not-this' });
    assert.deepEqual(found.map((f) => [f.source, f.token]), [['environment', 'from-env'], ['credentials-file', 'from-file']]);
    assert.equal(found[0]!.where, 'TF_TOKEN_my__tfe_example_com');
    assert.deepEqual(foundTokens('app.terraform.io', { HOME: home }), []);
  });
});
