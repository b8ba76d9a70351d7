// Sign-in through the HCP Terraform account provider (a pasted token, an environment token, a refused one), the
// status bar item of the active editor's workspace, and a notification's Apply button — in a real VS Code.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunSummary } from '../../../server/src/protocol';
import { emulatorGet, emulatorInfo, extension, queueRunOnService, runReaches, waitFor, withPrompts } from './helpers';

const host = () => new URL(emulatorInfo().url).host;
const pasteItem = (items: Array<{ label: string }>) => items.find((i) => i.label.includes('Paste'));

describe('sign-in, status bar and notifications', function () {
  this.timeout(120_000);
  after(async () => {
    // Back to the token of the Terraform credentials file, as the scenario started.
    await withPrompts({}, () => vscode.commands.executeCommand('hcpTerraform.signOut', { host: host() }));
  });

  it('signs in with a pasted team token, checked with the service, and lists the account as a team token', async () => {
    const asked = await withPrompts({ pick: [pasteItem], input: [emulatorInfo().tokens.team] }, async (asked) => {
      await vscode.commands.executeCommand('hcpTerraform.signIn');
      return asked;
    });
    const offered = asked.find((a) => a.prompt === 'pick');
    assert.ok(offered, 'the tokens found on the machine were not offered');
    const labels = (await (offered.args[0] as Promise<Array<{ label: string }>> | Array<{ label: string }>)) as Array<{ label: string }>;
    assert.ok(labels.some((l) => l.label.includes('terraform login')), `the credentials file was not offered: ${labels.map((l) => l.label).join(' | ')}`);
    const message = asked.find((a) => a.prompt === 'info');
    assert.match(String(message?.args[0]), /signed in to .* \(team token\)/);
    const sessions = await extension().exports.accounts.getSessions();
    const session = sessions.find((s) => s.id === host());
    assert.ok(session, 'no session for the host');
    assert.match(session.account.label, /\(team token\)$/);
    assert.ok(!JSON.stringify(asked.map((a) => a.args.filter((x) => typeof x === 'string'))).includes(emulatorInfo().tokens.team), 'the token was echoed in a message');
  });

  it('signs in with TF_TOKEN_<host> from the environment, named by the user it belongs to', async () => {
    const variable = `TF_TOKEN_${host().replace(/:\d+$/, '').replace(/-/g, '__').replace(/\./g, '_')}`;
    process.env[variable] = emulatorInfo().tokens.member;
    try {
      await withPrompts({ pick: [(items: Array<{ label: string }>) => items.find((i) => i.label.includes(variable))] }, () => vscode.commands.executeCommand('hcpTerraform.signIn'));
      const session = (await extension().exports.accounts.getSessions()).find((s) => s.id === host());
      assert.equal(session?.account.label, `max-member @ ${host()}`);
    } finally {
      delete process.env[variable];
    }
  });

  it('a refused token is said to be refused and is not kept', async () => {
    const before = (await extension().exports.accounts.getSessions()).find((s) => s.id === host())?.accessToken;
    const asked = await withPrompts({ pick: [pasteItem], input: ['not-a-real-token.atlasv1.000000'], error: [undefined] }, async (asked) => {
      await vscode.commands.executeCommand('hcpTerraform.signIn');
      return asked;
    });
    const error = asked.find((a) => a.prompt === 'error');
    assert.match(String(error?.args[0]), /refused/);
    assert.ok(!String(error?.args[0]).includes('not-a-real-token'));
    const after = (await extension().exports.accounts.getSessions()).find((s) => s.id === host())?.accessToken;
    assert.equal(after, before, 'the refused token replaced the stored one');
  });

  it('the status bar names the workspace of the open file and its current run', async () => {
    await withPrompts({ pick: [pasteItem], input: [emulatorInfo().tokens.owner] }, () => vscode.commands.executeCommand('hcpTerraform.signIn'));
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'main.tf')));
    const statusBar = extension().exports.statusBar;
    const state = await waitFor('the status bar to name demo-app', statusBar.onDidUpdate, () => (statusBar.state?.workspace.name === 'demo-app' ? statusBar.state : undefined));
    assert.match(state.text, /demo-app/);
    if (state.run) assert.ok(state.text.endsWith(state.run.statusLabel), state.text);
  });

  it('a run of this window that needs confirmation notifies once, and its Apply button applies it', async () => {
    const id = await queueRunOnService('demo-app', 'Notify me');
    const queued = await runReaches(id, 'queued', () => true);
    extension().exports.deps.activity.queued(queued); // as if queued from this window's palette
    const notified: string[] = [];
    await withPrompts(
      {
        info: [(message: string, ...buttons: string[]) => (notified.push(`${message} [${buttons.join(', ')}]`), /needs confirmation/.test(message) ? 'Apply' : undefined)],
        // Whichever modal comes (force execute, then apply): its one button, as a user saying yes.
        modal: [(_message: string, _detail: string, button: string) => button, (_message: string, _detail: string, button: string) => button],
        input: [''],
      },
      async () => {
        if (queued.status === 'pending') {
          const workspace = extension().exports.runsView.workspaceNodes().find((n) => n.workspace.name === 'demo-app')!.workspace;
          await vscode.commands.executeCommand('hcpTerraform.forceExecuteRun', { kind: 'run', run: queued, workspace });
        }
        await runReaches(id, 'confirmed or applied', (run: RunSummary) => ['apply_queued', 'applying', 'applied', 'confirmed'].includes(run.status), 90_000);
      },
    );
    const confirmations = notified.filter((n) => n.includes('needs confirmation'));
    assert.equal(confirmations.length, 1, notified.join('\n'));
    assert.match(confirmations[0]!, /\[Apply, Discard, Show\]/);
    assert.notEqual((await emulatorGet(`/runs/${id}`)).data.attributes.status, 'policy_checked');
  });
});
