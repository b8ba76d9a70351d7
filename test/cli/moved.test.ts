// The real Terraform CLI against the emulator, for `moved` blocks: a renamed resource is moved in the state, not
// destroyed and recreated ("# a has moved to b"; JSON `previous_address`), a moved one that also changed is updated
// under its new name, the apply leaves the state at the new addresses (a renamed module call moves what is in it),
// a move from a resource the code still declares fails as Terraform fails it, count added to a resource moves its
// instance to [0] without a moved block (Terraform's implied move), as the CLI draws it, and a move onto a resource the
// state holds is blocked, its instances destroyed, with Terraform's warning as the CLI draws it, and a refresh-only plan
// makes its moves too, drawn as drift, its apply writing them. Same set-up as
// terraform-cli.test.ts; needs `terraform` on the PATH.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { readPlanJson, runIdIn, runCli, startCliSandbox, terraform } from './harness';

const cloudBlock = (host: string) => `terraform {
  cloud {
    hostname     = "${host}"
    organization = "acme-demo"
    workspaces {
      name = "moved-app"
    }
  }
}
`;

const before1 = `
resource "terraform_data" "old" { input = "same" }
resource "terraform_data" "edited" { input = "v1" }
`;

const renamed = `
resource "terraform_data" "renamed" { input = "same" }
resource "terraform_data" "edited2" { input = "v2" }

moved {
  from = terraform_data.old
  to   = terraform_data.renamed
}

moved {
  from = terraform_data.edited
  to   = terraform_data.edited2
}
`;

describe('the Terraform CLI against the emulator: moved blocks', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-moved-'));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_VAR_')));
    env = { ...inherited, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => emulator?.close());

  const cli = (...args: string[]) => runCli(args, { cwd: folder, env });
  const write = (body: string) => writeFileSync(path.join(folder, 'main.tf'), cloudBlock(host) + body);

  test('the first apply creates both', async () => {
    write(before1);
    await cli('init', '-input=false');
    assert.match(await cli('apply', '-auto-approve', '-input=false'), /Apply complete! Resources: 2 added, 0 changed, 0 destroyed\./);
  });

  test('renamed with moved blocks: one has moved, the other is updated under its new name; nothing is created or destroyed', async () => {
    write(renamed);
    const planned = await cli('plan', '-input=false');
    assert.match(planned, /# terraform_data\.old has moved to terraform_data\.renamed\n/);
    assert.match(planned, /# terraform_data\.edited2 will be updated in-place\n\s+# \(moved from terraform_data\.edited\)/);
    assert.match(planned, /~ input += "v1" -> "v2"/);
    assert.match(planned, /Plan: 0 to add, 1 to change, 0 to destroy\./);
    assert.doesNotMatch(planned, /will be (created|destroyed)/);
    const json = await readPlanJson(emulator, runIdIn(planned));
    const byAddress = new Map<string, { previous_address?: string; change: { actions: string[] } }>(json.resource_changes.map((change: { address: string }) => [change.address, change]));
    assert.deepEqual([byAddress.get('terraform_data.renamed')?.previous_address, byAddress.get('terraform_data.renamed')?.change.actions], ['terraform_data.old', ['no-op']]);
    assert.deepEqual([byAddress.get('terraform_data.edited2')?.previous_address, byAddress.get('terraform_data.edited2')?.change.actions], ['terraform_data.edited', ['update']]);
  });

  test('applied, the state holds the new addresses (same object: same id), and the next plan has no changes', async () => {
    const idBefore = (await cli('state', 'show', 'terraform_data.old')).match(/id += "([^"]+)"/)?.[1];
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /Apply complete! Resources: 0 added, 1 changed, 0 destroyed\./);
    assert.deepEqual((await cli('state', 'list')).trim().split('\n').sort(), ['terraform_data.edited2', 'terraform_data.renamed']);
    assert.equal((await cli('state', 'show', 'terraform_data.renamed')).match(/id += "([^"]+)"/)?.[1], idBefore);
    assert.match(await cli('plan', '-input=false'), /No changes\. Your infrastructure matches the configuration\./);
  });

  test('a move alone is applied too (the plan is not empty)', async () => {
    write(`${renamed}\nmoved {\n  from = terraform_data.renamed\n  to   = terraform_data.final\n}\n`.replace('"renamed" {', '"final" {'));
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /# terraform_data\.renamed has moved to terraform_data\.final/);
    assert.match(applied, /Apply complete! Resources: 0 added, 0 changed, 0 destroyed\./);
    assert.deepEqual((await cli('state', 'list')).trim().split('\n').sort(), ['terraform_data.edited2', 'terraform_data.final']);
  });

  test('a move from a resource the configuration still declares fails the plan with Terraform\'s error', async () => {
    write(`resource "terraform_data" "final" { input = "same" }\nresource "terraform_data" "edited2" { input = "v2" }\nresource "terraform_data" "other" {}\n\nmoved {\n  from = terraform_data.final\n  to   = terraform_data.other\n}\n`);
    let output = '';
    await cli('plan', '-input=false').then(
      () => assert.fail('the plan succeeded'),
      (error: Error) => (output = error.message),
    );
    assert.match(output, /Error: Moved object still exists/);
    assert.match(output.replace(/\n│ /g, ' '), /This statement declares a move from terraform_data\.final, but that resource is still declared at main\.tf:10,1\./);
  });

  test('a renamed module call moves everything in it', async () => {
    mkdirSync(path.join(folder, 'net'), { recursive: true });
    writeFileSync(path.join(folder, 'net', 'main.tf'), 'resource "terraform_data" "x" { input = "in a module" }\n');
    write('module "net" { source = "./net" }\n');
    await cli('init', '-input=false');
    assert.match(await cli('apply', '-auto-approve', '-input=false'), /Apply complete! Resources: 1 added, 0 changed, 2 destroyed\./);
    write('module "network" { source = "./net" }\n\nmoved {\n  from = module.net\n  to   = module.network\n}\n');
    await cli('init', '-input=false');
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /# module\.net\.terraform_data\.x has moved to module\.network\.terraform_data\.x/);
    assert.match(applied, /Apply complete! Resources: 0 added, 0 changed, 0 destroyed\./);
    assert.deepEqual((await cli('state', 'list')).trim().split('\n'), ['module.network.terraform_data.x']);
  });

  test('count added without a moved block: the instance has moved to [0] (Terraform\'s implied move), [1] is created', async () => {
    const network = 'module "network" { source = "./net" }\n';
    write(`${network}resource "terraform_data" "single" { input = "one" }\n`);
    await cli('apply', '-auto-approve', '-input=false');
    const idBefore = (await cli('state', 'show', 'terraform_data.single')).match(/id += "([^"]+)"/)?.[1];
    write(`${network}resource "terraform_data" "single" {\n  count = 2\n  input = "one"\n}\n`);
    const applied = await cli('apply', '-auto-approve', '-input=false');
    assert.match(applied, /# terraform_data\.single has moved to terraform_data\.single\[0\]\n/);
    assert.match(applied, /Apply complete! Resources: 1 added, 0 changed, 0 destroyed\./);
    assert.equal((await cli('state', 'show', 'terraform_data.single[0]')).match(/id += "([^"]+)"/)?.[1], idBefore);
  });

  test('a move onto a resource the state holds is blocked: its instances are destroyed, with Terraform\'s warning', async () => {
    const network = 'module "network" { source = "./net" }\n';
    const other = 'resource "terraform_data" "other" { input = "o" }\n';
    write(`${network}resource "terraform_data" "single" {\n  count = 2\n  input = "one"\n}\n${other}`);
    await cli('apply', '-auto-approve', '-input=false');
    write(`${network}${other}\nmoved {\n  from = terraform_data.single\n  to   = terraform_data.other\n}\n`);
    const planned = await cli('plan', '-input=false');
    assert.match(planned, /Warning: Unresolved resource instance address changes/);
    assert.match(planned.replace(/\n│ /g, '\n'), /\n  - terraform_data\.single could not move to terraform_data\.other\n/);
    assert.match(planned, /# terraform_data\.single\[0\] will be destroyed/);
    assert.match(planned, /Plan: 0 to add, 0 to change, 2 to destroy\./);
  });

  test('a refresh-only plan makes the move too, drawn as drift, and its apply writes the new address', async () => {
    const network = 'module "network" { source = "./net" }\n';
    write(`${network}resource "terraform_data" "single" {\n  count = 2\n  input = "one"\n}\nresource "terraform_data" "other2" { input = "o" }\n\nmoved {\n  from = terraform_data.other\n  to   = terraform_data.other2\n}\n`);
    const planned = await cli('plan', '-refresh-only', '-input=false');
    assert.match(planned, /Objects have changed outside of Terraform[^]*# terraform_data\.other has moved to terraform_data\.other2\n[^]*This is a refresh-only plan/);
    assert.doesNotMatch(planned, /will be (created|destroyed)/);
    await cli('apply', '-refresh-only', '-auto-approve', '-input=false');
    assert.ok((await cli('state', 'list')).trim().split('\n').includes('terraform_data.other2'));
  });
});
