// The real Terraform CLI against the emulator, for `removed` blocks (Terraform 1.7+): with `lifecycle { destroy =
// false }` the state forgets the object ("will no longer be managed by Terraform", JSON action "forget", a warning
// naming it) and nothing is destroyed; without it (destroy = true, the default) the object is destroyed; a removed
// block naming a resource the code still declares fails. Same set-up as terraform-cli.test.ts; needs `terraform`.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { readPlanJson, runCli, runIdIn, startCliSandbox, terraform } from './harness';

const cloudBlock = (host: string) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "removed-app"
    }
  }
}
`;

const removedBlocks = `
resource "terraform_data" "stays" { input = "s" }

removed {
  from = terraform_data.kept_outside
  lifecycle {
    destroy = false
  }
}

removed {
  from = terraform_data.gone
}
`;

describe('the Terraform CLI against the emulator: removed blocks', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-removed-'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_')));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => emulator?.close());

  const cli = (...args: string[]) => runCli(args, { cwd: folder, env });
  const write = (body: string) => writeFileSync(path.join(folder, 'main.tf'), cloudBlock(host) + body);

  test('the first apply creates three', async () => {
    write('resource "terraform_data" "stays" { input = "s" }\nresource "terraform_data" "kept_outside" { input = "k" }\nresource "terraform_data" "gone" { input = "g" }\n');
    await cli('init', '-input=false');
    assert.match(await cli('apply', '-auto-approve', '-input=false'), /Apply complete! Resources: 3 added, 0 changed, 0 destroyed\./);
  });

  test('the plan forgets what destroy = false names, with Terraform\'s warning, and destroys the other', async () => {
    write(removedBlocks);
    const planned = await cli('plan', '-input=false');
    assert.match(planned, / # terraform_data\.kept_outside will no longer be managed by Terraform, but will not be destroyed\n # \(destroy = false is set in the configuration\)\n \. resource "terraform_data" "kept_outside"/);
    assert.match(planned, /# terraform_data\.gone will be destroyed/);
    assert.match(planned, /Plan: 0 to add, 0 to change, 1 to destroy\./, 'forgetting is not destroying');
    assert.match(planned, /Warning: Some objects will no longer be managed by Terraform/);
    assert.match(planned.replace(/\n│ /g, ' '), /but it will not delete them:\s+- terraform_data\.kept_outside\s/);
    const json = await readPlanJson(emulator, runIdIn(planned));
    const actions = Object.fromEntries(json.resource_changes.map((change: { address: string; change: { actions: string[] } }) => [change.address, change.change.actions]));
    assert.deepEqual(actions, { 'terraform_data.kept_outside': ['forget'], 'terraform_data.gone': ['delete'], 'terraform_data.stays': ['no-op'] });
  });

  test('applied, the state no longer holds either; the forgotten one was never destroyed; the next plan has no changes', async () => {
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /terraform_data\.gone: Destroying\.\.\./);
    assert.doesNotMatch(applied, /terraform_data\.kept_outside: Destroying/);
    assert.match(applied, /Apply complete! Resources: 0 added, 0 changed, 1 destroyed\./);
    assert.deepEqual((await cli('state', 'list')).trim().split('\n'), ['terraform_data.stays']);
    assert.match(await cli('plan', '-input=false'), /No changes\. Your infrastructure matches the configuration\./);
  });

  test('a removed block naming a resource the code still declares fails the plan', async () => {
    write(`${removedBlocks}\nresource "terraform_data" "gone" {}\n`);
    let output = '';
    await cli('plan', '-input=false').then(
      () => assert.fail('the plan succeeded'),
      (error: Error) => (output = error.message),
    );
    assert.match(output, /Error: Removed resource still exists/);
    assert.match(output.replace(/\n│ /g, ' '), /This statement declares that terraform_data\.gone was removed, but it is still declared in configuration\./);
  });
});
