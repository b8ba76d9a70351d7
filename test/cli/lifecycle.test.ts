// The real Terraform CLI against the emulator, for a resource block's `lifecycle`: ignore_changes keeps the state's
// value, create_before_destroy turns a replacement round ("+/- create replacement and then destroy", actions
// ["create","delete"]), and prevent_destroy fails a plan that would destroy or replace the instance. Same set-up as
// terraform-cli.test.ts; needs `terraform` on the PATH, without it the suite says so and skips.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, readPlanJson, runCli, startCliSandbox, terraform } from './harness';

/** The configuration with each resource's changing value. */
const configuration = (host: string, values: { guarded: string; ignoring: string; ordered: string }) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "lifecycle-app"
    }
  }
}

resource "terraform_data" "guarded" {
  triggers_replace = "${values.guarded}"
  lifecycle {
    prevent_destroy = true
  }
}

resource "terraform_data" "ignoring" {
  input = "${values.ignoring}"
  lifecycle {
    ignore_changes = [input]
  }
}

resource "terraform_data" "ordered" {
  triggers_replace = "${values.ordered}"
  lifecycle {
    create_before_destroy = true
  }
}
`;

describe('the Terraform CLI against the emulator: lifecycle', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-lifecycle-'));
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, { guarded: 'v1', ignoring: 'v1', ordered: 'v1' }));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_')));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => emulator?.close());

  const cli = (...args: string[]) => runCli(args, { cwd: folder, env });
  /** The CLI's failure, with what it printed (runCli throws it). */
  const failing = async (...args: string[]) => {
    try {
      await cli(...args);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error(`terraform ${args.join(' ')} succeeded`);
  };
  /** The plan JSON of the workspace's current run, as the service serves it. */
  const currentPlanJson = async () => {
    const workspace = (await callApi(emulator, '/organizations/acme-demo/workspaces/lifecycle-app')).body.data;
    return (await readPlanJson(emulator, workspace.relationships['current-run'].data.id)) as { resource_changes: Array<{ address: string; change: { actions: string[] } }> };
  };

  test('the first apply creates all three', async () => {
    await cli('init', '-input=false');
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /Apply complete! Resources: 3 added, 0 changed, 0 destroyed\./);
  });

  test('ignore_changes: a new input is no change; create_before_destroy: the replacement is created first', async () => {
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, { guarded: 'v1', ignoring: 'v2', ordered: 'v2' }));
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /\+\/- create replacement and then destroy/);
    assert.doesNotMatch(applied, /destroy and then create replacement/);
    assert.match(applied, /# terraform_data\.ordered must be replaced\n\+\/- resource "terraform_data" "ordered"/);
    assert.doesNotMatch(applied, /# terraform_data\.ignoring /, 'the ignored input changes nothing');
    assert.match(applied, /Plan: 1 to add, 0 to change, 1 to destroy\./);
    // The apply log narrates the create before the destroy.
    assert.ok(applied.indexOf('terraform_data.ordered: Creating...') < applied.indexOf('terraform_data.ordered: Destroying...'), applied);
    assert.deepEqual((await currentPlanJson()).resource_changes.find((change) => change.address === 'terraform_data.ordered')?.change.actions, ['create', 'delete']);
    assert.match(await cli('state', 'show', 'terraform_data.ignoring'), /input += "v1"/, 'the state keeps the ignored value');
  });

  test('prevent_destroy: a plan that would replace the instance fails with Terraform\'s error, as does a destroy plan', async () => {
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, { guarded: 'v2', ignoring: 'v2', ordered: 'v2' }));
    const replacing = await failing('plan', '-input=false');
    assert.match(replacing, /Error: Instance cannot be destroyed/);
    assert.match(replacing, /on main\.tf line 11:\n.*11: resource "terraform_data" "guarded" \{/);
    // The CLI wraps the detail inside its box.
    const detail = replacing.replace(/\n│ /g, ' ');
    assert.match(detail, /Resource terraform_data\.guarded has lifecycle\.prevent_destroy set, but the plan calls for this resource to be destroyed\./);
    const destroying = await failing('plan', '-destroy', '-input=false');
    assert.match(destroying, /Error: Instance cannot be destroyed/);
  });
});
