// The real Terraform CLI against the emulator, for what a plan computes from: values from the configuration's tfvars
// files and the workspace's TF_VAR_ env variables, format() with widths, outputs that change alone (applied, then
// read by `terraform output`), a null output, and the "Outputs:" an apply prints. Same set-up as terraform-cli.test.ts.
// Needs `terraform` on the PATH; without it the suite says so and skips.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, run, runCli, startCliSandbox, terraform } from './harness';

const configuration = (host: string, extra: string) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "values-app"
    }
  }
}

variable "w" { type = string }
variable "e" { type = string }
variable "n" {
  type    = number
  default = 1
}

resource "terraform_data" "w" { input = "\${var.w}/\${var.e}" }
resource "terraform_data" "n" { input = var.n }
resource "terraform_data" "padded" { input = format("%03d|%-4s|%.2f", 7, "ab", 3.14159) }

output "early" { value = "known" }
output "late" { value = terraform_data.w.output }
${extra}`;

describe('the Terraform CLI against the emulator: variable values and outputs', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-values-'));
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, ''));
    // terraform.tfvars sets w too: x.auto.tfvars, read after it, wins.
    writeFileSync(path.join(folder, 'terraform.tfvars'), 'w = "from-terraform-tfvars"\n');
    writeFileSync(path.join(folder, 'x.auto.tfvars'), 'w = "from-auto-tfvars"\n');
    // No TF_VAR_ from this process: the CLI would send those as run variables, and the values must come from the workspace.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_')));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => emulator?.close());

  const cli = (...args: string[]) => runCli(args, { cwd: folder, env });
  /** A call to the emulator's API as the owners team (not the CLI's user, whose rate the CLI spends): its body. */
  const api = async (apiPath: string, method = 'GET', body?: unknown) => (await callApi(emulator, apiPath, method, body)).body;
  const envVariable = async (key: string, value: string) => {
    const workspace = await api('/organizations/acme-demo/workspaces/values-app');
    await api(`/workspaces/${workspace.data.id}/vars`, 'POST', { data: { type: 'vars', attributes: { key, value, category: 'env' } } });
  };

  test('values from the auto.tfvars file and TF_VAR_ env workspace variables reach the plan; format pads as Terraform does', async () => {
    await cli('init', '-input=false');
    await envVariable('TF_VAR_e', 'from-env');
    await envVariable('TF_VAR_n', '9');
    const planned = await cli('plan', '-input=false');
    assert.match(planned, /\+ input += "from-auto-tfvars\/from-env"/);
    assert.match(planned, /\+ input += 9\b/, 'TF_VAR_n over the default, as a number');
    assert.match(planned, /\+ input += "007\|ab  \|3\.14"/);
  });

  test('the apply saves them and its "Outputs:" lists every output, those known only after apply too', async () => {
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /Apply complete! Resources: 3 added, 0 changed, 0 destroyed\./);
    // The CLI prints the log's outputs in Go's map order, which is random: each must be there, in any order.
    const listed = applied.slice(applied.lastIndexOf('\nOutputs:') + 1).split('\n').slice(1).filter(Boolean).sort();
    assert.deepEqual(listed, ['early = "known"', 'late = "from-auto-tfvars/from-env"']);
    const shown = await cli('state', 'show', 'terraform_data.w');
    assert.match(shown, /input += "from-auto-tfvars\/from-env"/);
  });

  test('a change to outputs alone is applied, and terraform output shows it; a null output is no change', async () => {
    writeFileSync(path.join(folder, 'main.tf'), configuration(host, 'output "added" { value = "new" }\noutput "nul" { value = null }\n'));
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /\+ added += "new"/);
    assert.doesNotMatch(applied, /nul =/, 'null before and after is no change');
    assert.match(applied, /Apply complete! Resources: 0 added, 0 changed, 0 destroyed\./);
    const { stdout } = await run('terraform', ['output', '-raw', 'added'], { cwd: folder, env, timeout: 60_000 });
    assert.equal(stdout, 'new');
    const again = await cli('plan', '-input=false');
    assert.match(again, /No changes\. Your infrastructure matches the configuration\./);
  });
});
