// The real Terraform CLI against the emulator: `terraform show -json` of a saved cloud plan (`plan -out`) reads the
// plan's JSON from the service and prints it as is, so tools that read `planned_values` and `prior_state` (policy
// checks, cost tools, CI summaries) need the emulator to serve them in Terraform's JSON output format. Expected
// values come from the same configurations planned locally, without the cloud block, with Terraform 1.11.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { runCli, startCliSandbox, terraform } from './harness';

const cloudBlock = (host: string) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "show-json-app"
    }
  }
}
`;

const outputs = `
output "s" {
  value     = "secret"
  sensitive = true
}
output "u" { value = terraform_data.d.id }
`;

const firstConfiguration = `
resource "terraform_data" "a" { input = "hello" }
resource "terraform_data" "b" {
  count = 2
  input = { n = count.index, s = "x" }
}
resource "terraform_data" "c" { input = "gone" }
resource "terraform_data" "d" { input = "d" }
${outputs}`;

/** a changes, b loses an instance, c goes, e arrives (its id known only after apply). */
const secondConfiguration = `
resource "terraform_data" "a" { input = "hello2" }
resource "terraform_data" "b" {
  count = 1
  input = { n = count.index, s = "x" }
}
resource "terraform_data" "d" { input = "d" }
resource "terraform_data" "e" { input = ["x", 1] }
${outputs}
output "later" { value = terraform_data.e.id }
`;

describe('the Terraform CLI against the emulator: show -json of a saved cloud plan', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;
  let shown: any;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-show-json-'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_')));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
    const cli = (...args: string[]) => runCli(args, { cwd: folder, env });
    writeFileSync(path.join(folder, 'main.tf'), cloudBlock(host) + firstConfiguration);
    await cli('init', '-input=false');
    await cli('apply', '-auto-approve', '-input=false');
    writeFileSync(path.join(folder, 'main.tf'), cloudBlock(host) + secondConfiguration);
    await cli('plan', '-input=false', '-out=saved.tfplan');
    const printed = await cli('show', '-json', 'saved.tfplan');
    shown = JSON.parse(printed.slice(printed.indexOf('{')));
  });
  after(() => emulator?.close());

  const resource = (values: any, address: string) => values.root_module.resources.find((candidate: { address: string }) => candidate.address === address);

  test('planned_values holds every instance the apply leaves, sorted by address, without those it destroys', () => {
    assert.deepEqual(
      shown.planned_values.root_module.resources.map((candidate: { address: string }) => candidate.address),
      ['terraform_data.a', 'terraform_data.b[0]', 'terraform_data.d', 'terraform_data.e'],
    );
  });

  test('a planned instance has Terraform\'s fields; unknown attributes are left out, unset ones are null', () => {
    const { values, ...fields } = resource(shown.planned_values, 'terraform_data.e');
    assert.deepEqual(fields, { address: 'terraform_data.e', mode: 'managed', type: 'terraform_data', name: 'e', provider_name: 'terraform.io/builtin/terraform', schema_version: 0, sensitive_values: { input: [false, false], output: [] } });
    assert.deepEqual(values, { input: ['x', 1], triggers_replace: null }, 'id and output are known only after apply');
    const updated = resource(shown.planned_values, 'terraform_data.a');
    assert.equal(updated.values.input, 'hello2');
    assert.equal('output' in updated.values, false, 'output follows input: unknown until the apply');
    assert.deepEqual(resource(shown.planned_values, 'terraform_data.b[0]').index, 0);
  });

  test('planned outputs: a known one with its type and value (sensitive too), an unknown one with its sensitivity only', () => {
    assert.deepEqual(shown.planned_values.outputs.s, { sensitive: true, type: 'string', value: 'secret' });
    assert.deepEqual(shown.planned_values.outputs.later, { sensitive: false });
    assert.equal(shown.planned_values.outputs.u.value, resource(shown.prior_state.values, 'terraform_data.d').values.id);
  });

  test('prior_state holds the state the plan started from, destroyed instances included', () => {
    assert.equal(shown.prior_state.format_version, '1.0');
    const prior = shown.prior_state.values;
    assert.deepEqual(
      prior.root_module.resources.map((candidate: { address: string }) => candidate.address),
      ['terraform_data.a', 'terraform_data.b[0]', 'terraform_data.b[1]', 'terraform_data.c', 'terraform_data.d'],
    );
    assert.deepEqual(resource(prior, 'terraform_data.c').values, { id: resource(prior, 'terraform_data.c').values.id, input: 'gone', output: 'gone', triggers_replace: null });
    assert.deepEqual(resource(prior, 'terraform_data.b[1]').sensitive_values, { input: {}, output: {} });
    assert.deepEqual(prior.outputs.s, { sensitive: true, value: 'secret', type: 'string' });
    assert.equal(prior.outputs.later, undefined, 'a new output known only after apply is not in the prior state');
  });
});
