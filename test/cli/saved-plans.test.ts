// The real Terraform CLI and a saved plan another run outdated: `plan -out`, then an apply of newer code, then
// `apply FILE` must be refused (the service discarded the saved run) rather than roll the state back.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, startCli, startCliSandbox, stopLeftovers, terraform } from './harness';

describe('the Terraform CLI with a saved plan another run outdated', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let folder: string;
  let env: NodeJS.ProcessEnv;
  let mainTf: (input: string) => void;

  before(async () => {
    const sandbox = await startCliSandbox('hcp-cli-saved-');
    emulator = sandbox.emulator;
    folder = path.join(sandbox.dir, 'work');
    mkdirSync(folder);
    mainTf = (input) =>
      writeFileSync(
        path.join(folder, 'main.tf'),
        `terraform {\n  cloud {\n    hostname     = "${sandbox.host}"\n    organization = "acme-demo"\n    workspaces {\n      name = "saved-plans"\n    }\n  }\n}\n\nresource "terraform_data" "b" {\n  input = "${input}"\n}\n`,
      );
    env = { ...process.env, TF_CLI_CONFIG_FILE: path.join(sandbox.dir, 'cli.tfrc'), SSL_CERT_FILE: path.join(sandbox.dir, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => {
    stopLeftovers();
    return emulator?.close();
  });

  const cli = (...args: string[]) => startCli(args, { cwd: folder, env }).ended;
  const succeeds = async (...args: string[]) => {
    const { code, output } = await cli(...args);
    assert.equal(code, 0, `terraform ${args.join(' ')}:\n${output}`);
    return output;
  };

  test('apply of a saved plan made before another apply is refused: "Saved plan is discarded", the state keeps the newer value', async () => {
    mainTf('b');
    await succeeds('init', '-input=false');
    await succeeds('apply', '-auto-approve', '-input=false');
    mainTf('b2');
    assert.match(await succeeds('plan', '-input=false', '-out=s.tfplan'), /Plan: 0 to add, 1 to change, 0 to destroy\./);
    const savedRunId = JSON.parse(readFileSync(path.join(folder, 's.tfplan'), 'utf8')).run_id;
    mainTf('b3');
    assert.match(await succeeds('apply', '-auto-approve', '-input=false'), /Apply complete! Resources: 0 added, 1 changed, 0 destroyed\./);

    const refused = await cli('apply', '-input=false', 's.tfplan');
    assert.notEqual(refused.code, 0, refused.output);
    assert.match(refused.output, /Error: Saved plan is discarded/);
    assert.match(refused.output, /either another run was applied\s+first/);
    assert.doesNotMatch(refused.output, /Apply complete!/);
    assert.equal((await callApi(emulator, `/runs/${savedRunId}`)).body.data.attributes.status, 'discarded');
    assert.match(await succeeds('state', 'show', 'terraform_data.b'), /input += "b3"/);
  });
});
