// The real Terraform CLI against the emulator: `terraform.workspace` in a remote run is the HCP Terraform
// workspace's name (HashiCorp's remote backend / cloud integration docs: "for remote operations, terraform.workspace
// = networking-prod", the full name), so a resource argument and an output reading it are known at plan time and a
// second plan has no changes. Needs `terraform` on the PATH, without it the suite says so and skips.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { readPlanJson, runCli, runIdIn, startCliSandbox, terraform } from './harness';

const configuration = (host: string) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "networking-prod"
    }
  }
}

resource "terraform_data" "named" {
  input = "app-\${terraform.workspace}"
}

output "workspace" {
  value = terraform.workspace
}
`;

describe('the Terraform CLI against the emulator: terraform.workspace', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    let host: string;
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-workspace-'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_') && key !== 'TF_WORKSPACE'));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
    writeFileSync(path.join(folder, 'main.tf'), configuration(host));
    await cli('init', '-input=false');
  });
  after(() => emulator?.close());

  const cli = (...args: string[]) => runCli(args, { cwd: folder, env });

  test('the remote plan evaluates it to the workspace\'s name, in an argument and an output', async () => {
    const planned = await cli('plan', '-input=false');
    assert.match(planned, /\+ input {2}= "app-networking-prod"/);
    assert.match(planned, /\+ workspace = "networking-prod"/);
    const json = await readPlanJson(emulator, runIdIn(planned));
    assert.equal(json.resource_changes[0].change.after.input, 'app-networking-prod');
    assert.deepEqual(json.output_changes.workspace.after, 'networking-prod');
  });

  test('applied, the output holds it and the next plan has no changes', async () => {
    await cli('apply', '-auto-approve', '-input=false');
    assert.equal((await cli('output', '-raw', 'workspace')).trim(), 'networking-prod');
    assert.match(await cli('plan', '-input=false'), /No changes\. Your infrastructure matches the configuration\./);
  });
});
