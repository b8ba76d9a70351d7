// The real Terraform CLI against the emulator: a plan that destroys what the configuration no longer declares says
// why, as Terraform does (action_reason in the plan JSON, "# (because …)" under "will be destroyed"): the block is
// gone, a count index or for_each key is, a module instance is, or a `moved` block's target is not declared. The
// expected lines are those a local Terraform 1.11 printed for the same two configurations. Needs `terraform`.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, readPlanJson, runCli, runIdIn, startCliSandbox, terraform } from './harness';

const cloudBlock = (host: string) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "delete-reasons-app"
    }
  }
}
`;

const everything = `
resource "terraform_data" "gone" {}
resource "terraform_data" "counted" { count = 2 }
resource "terraform_data" "each" { for_each = toset(["a", "b"]) }
module "mod" {
  source = "./m"
  count  = 2
}
module "whole" { source = "./m" }
resource "terraform_data" "mv" {}
`;

/** Each of `everything`'s deletions for a different reason. */
const fewer = `
resource "terraform_data" "counted" { count = 1 }
resource "terraform_data" "each" { for_each = toset(["a"]) }
module "mod" {
  source = "./m"
  count  = 1
}
moved {
  from = terraform_data.mv
  to   = terraform_data.mv2
}
`;

const expectedReasons = {
  'terraform_data.gone': 'delete_because_no_resource_config',
  'terraform_data.counted[1]': 'delete_because_count_index',
  'terraform_data.each["b"]': 'delete_because_each_key',
  'module.mod[1].terraform_data.in': 'delete_because_no_module',
  'module.whole.terraform_data.in': 'delete_because_no_resource_config',
  'terraform_data.mv2': 'delete_because_no_move_target',
};

/** What Terraform 1.11 printed, heading and reason, for each. */
const expectedLines = [
  '  # terraform_data.gone will be destroyed\n  # (because terraform_data.gone is not in configuration)\n',
  '  # terraform_data.counted[1] will be destroyed\n  # (because index [1] is out of range for count)\n',
  '  # terraform_data.each["b"] will be destroyed\n  # (because key ["b"] is not in for_each map)\n',
  '  # module.mod[1].terraform_data.in will be destroyed\n  # (because module.mod[1] is not in configuration)\n',
  '  # module.whole.terraform_data.in will be destroyed\n  # (because terraform_data.in is not in configuration)\n',
  '  # terraform_data.mv2 will be destroyed\n  # (because terraform_data.mv was moved to terraform_data.mv2, which is not in configuration)\n  # (moved from terraform_data.mv)\n',
];

describe('the Terraform CLI against the emulator: why a plan destroys', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-delete-reasons-'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_')));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
    mkdirSync(path.join(folder, 'm'));
    writeFileSync(path.join(folder, 'm', 'main.tf'), 'resource "terraform_data" "in" {}\n');
    writeFileSync(path.join(folder, 'main.tf'), cloudBlock(host) + everything);
    await cli('init', '-input=false');
    await cli('apply', '-auto-approve', '-input=false');
    writeFileSync(path.join(folder, 'main.tf'), cloudBlock(host) + fewer);
    await cli('init', '-input=false');
  });
  after(() => emulator?.close());

  const cli = (...args: string[]) => runCli(args, { cwd: folder, env });

  test('the plan JSON gives each destroyed instance Terraform\'s action_reason', async () => {
    const planned = await cli('plan', '-input=false');
    const json = await readPlanJson(emulator, runIdIn(planned));
    const reasons = Object.fromEntries(
      json.resource_changes.filter((change: { change: { actions: string[] } }) => change.change.actions.includes('delete')).map((change: { address: string; action_reason?: string }) => [change.address, change.action_reason]),
    );
    assert.deepEqual(reasons, expectedReasons);
    assert.match(planned, /Plan: 0 to add, 0 to change, 6 to destroy\./);
    for (const lines of expectedLines) assert.ok(planned.includes(lines), `the CLI printed:\n${lines}\nin:\n${planned}`);
  });

  test('without structured run output, the plan log the CLI streams says the same', async () => {
    const workspace = (await callApi(emulator, '/organizations/acme-demo/workspaces/delete-reasons-app')).body.data;
    const patched = await callApi(emulator, `/workspaces/${workspace.id}`, 'PATCH', { data: { type: 'workspaces', attributes: { 'structured-run-output-enabled': false } } });
    assert.equal(patched.status, 200);
    const planned = await cli('plan', '-input=false');
    for (const lines of expectedLines) assert.ok(planned.includes(lines), `the log said:\n${lines}\nin:\n${planned}`);
  });
});
