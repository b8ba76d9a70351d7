// Sign-in as a user does it, against the emulator: a pasted token, a TF_TOKEN_<host> variable, a refused token; the
// account shows in the Accounts menu with who the token is. The questions are answered through the extension's
// prompts seam. At the end the stored token is removed, so the folder is back on the credentials file's owner token.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { UserPrompts } from '../../../client/src/userPrompts';
import { emulatorInfo, extension } from './helpers';

interface Recorded {
  picks: string[][];
  inputs: number;
  information: string[];
  warnings: string[];
  errors: string[];
}

/** Replaces the prompts for one test: `pick` chooses among the offered labels, `input` answers the n-th input box. */
function answerPrompts(pick: (labels: string[], call: number) => string | undefined, input: (call: number) => string | undefined): { recorded: Recorded; restore(): void } {
  const prompts = extension().exports.seams.prompts;
  const original: UserPrompts = { ...prompts };
  const recorded: Recorded = { picks: [], inputs: 0, information: [], warnings: [], errors: [] };
  prompts.quickPick = async (items) => {
    const labels = items.map((item) => item.label);
    recorded.picks.push(labels);
    const chosen = pick(labels, recorded.picks.length);
    return items.find((item) => item.label === chosen);
  };
  prompts.inputBox = async () => input(++recorded.inputs);
  prompts.information = async (message) => void recorded.information.push(message);
  prompts.warning = async (message) => void recorded.warnings.push(message);
  prompts.error = async (message) => void recorded.errors.push(message);
  return { recorded, restore: () => Object.assign(prompts, original) };
}

const paste = (labels: string[]) => labels.find((label) => label.includes('Paste a token'));

describe('signing in to the demo service', function () {
  this.timeout(60_000);
  const info = emulatorInfo();
  const host = new URL(info.url).host.toLowerCase();
  const credentials = () => extension().exports.deps.credentials;
  let restorePrompts: (() => void) | undefined;

  afterEach(() => {
    restorePrompts?.();
    restorePrompts = undefined;
  });

  after(async () => {
    // Back to what the scenario started with: no stored token, the owner's from the credentials file.
    await credentials().delete(host);
  });

  it('refuses a made-up token: says so, asks again, stores nothing', async () => {
    const before = await credentials().get(host);
    const madeUp = 'madeUpToken000.atlasv1.thisIsNotAnyTokenTheEmulatorKnows0000000000000000';
    const { recorded, restore } = answerPrompts((labels, call) => (call === 1 ? paste(labels) : undefined), () => madeUp);
    restorePrompts = restore;
    await vscode.commands.executeCommand('hcpTerraform.signIn', { host });
    assert.equal(recorded.errors.length, 1, `expected one refusal message: ${recorded.errors.join(' | ')}`);
    assert.match(recorded.errors[0]!, /refused/);
    assert.ok(!recorded.errors[0]!.includes(madeUp), 'the message repeats the token');
    assert.equal(recorded.picks.length, 2, 'the sign-in did not ask again after the refusal');
    assert.equal(recorded.information.length, 0, `a refused token reported a sign-in: ${recorded.information.join(' | ')}`);
    assert.equal(await credentials().get(host), before, 'the refused token was stored');
  });

  it('signs in with a pasted team token, labelled as a team token in the Accounts menu', async () => {
    const { recorded, restore } = answerPrompts(paste, () => info.tokens.team);
    restorePrompts = restore;
    await vscode.commands.executeCommand('hcpTerraform.signIn', { host });
    assert.deepEqual(recorded.errors, []);
    assert.equal(recorded.information.length, 1);
    assert.match(recorded.information[0]!, new RegExp(`^HCP Terraform: Signed in to ${host.replace(/\./g, '\\.')} as .+ \\(team token\\)\\.$`));
    assert.equal(await credentials().get(host), info.tokens.team);
    const accounts = await vscode.authentication.getAccounts('hcpTerraform');
    const account = accounts.find((candidate) => candidate.id === host);
    assert.ok(account, `no account for ${host}: ${accounts.map((a) => a.label).join(', ')}`);
    assert.match(account.label, new RegExp(` @ ${host.replace(/\./g, '\\.')} \\(team token\\)$`));
  });

  it('offers TF_TOKEN_<host> and the terraform login token, and signs in with the variable as its user', async () => {
    const variable = `TF_TOKEN_${host.replace(/-/g, '__').replace(/\./g, '_')}`;
    process.env[variable] = info.tokens.owner;
    try {
      const { recorded, restore } = answerPrompts((labels) => labels.find((label) => label.includes(variable)), () => undefined);
      restorePrompts = restore;
      await vscode.commands.executeCommand('hcpTerraform.signIn', { host });
      const offered = recorded.picks[0] ?? [];
      assert.ok(offered.some((label) => label.includes('terraform login')), `the credentials file's token is not offered: ${offered.join(' | ')}`);
      assert.equal(recorded.inputs, 0, 'a found token still asked for a paste');
      assert.deepEqual(recorded.information, [`HCP Terraform: Signed in to ${host} as olivia-owner.`]);
      assert.equal(await credentials().get(host), info.tokens.owner);
      // The Accounts menu's list (getSession would need the user's consent to hand out the token).
      const accounts = await vscode.authentication.getAccounts('hcpTerraform');
      assert.deepEqual(
        accounts.filter((account) => account.id === host).map((account) => account.label),
        [`olivia-owner @ ${host}`],
      );
    } finally {
      delete process.env[variable];
    }
  });

  it('signs out from the command: the account leaves the Accounts menu, and the `terraform login` token left is told', async () => {
    const { recorded, restore } = answerPrompts(() => undefined, () => undefined);
    restorePrompts = restore;
    await vscode.commands.executeCommand('hcpTerraform.signOut', { host });
    assert.equal(await credentials().get(host), undefined);
    const accounts = await vscode.authentication.getAccounts('hcpTerraform');
    assert.ok(!accounts.some((account) => account.id === host), 'the account is still listed');
    // The scenario's credentials file still signs the server in: "signed out" would be untrue.
    assert.deepEqual(recorded.information, []);
    assert.equal(recorded.warnings.length, 1);
    assert.match(recorded.warnings[0]!, new RegExp(`removed the token HCP Terraform stored for ${host.replace(/\./g, '\\.')}, but you are still signed in there with the token from the credentials file of \`terraform login\``));
    assert.ok(recorded.warnings[0]!.includes(`run \`terraform logout ${host}\``), recorded.warnings[0]);

    // Nothing stored now: Sign Out says where the token comes from, never "not signed in".
    await vscode.commands.executeCommand('hcpTerraform.signOut', { host });
    assert.equal(recorded.warnings.length, 2);
    assert.match(recorded.warnings[1]!, new RegExp(`you are signed in to ${host.replace(/\./g, '\\.')} with the token from the credentials file`));
    assert.ok(!recorded.warnings[1]!.includes(info.tokens.owner), 'the token itself is never shown');
  });
});
