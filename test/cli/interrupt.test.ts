// Ctrl-C on the real Terraform CLI while its remote apply runs: the CLI asks the service to cancel the run, the apply
// stops where it was (no "Apply complete!"), and the state saved holds the resources that were created by then, as a
// local `terraform apply` interrupted the same way would leave it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, readUrl, runReaching, startCli, startCliSandbox, stopLeftovers, terraform } from './harness';

describe('Ctrl-C on the Terraform CLI during a remote apply', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    // Twice the service's pace: thirty instances take 4 s to apply, long enough to interrupt part way.
    const sandbox = await startCliSandbox('hcp-cli-interrupt-', { speed: 2 });
    emulator = sandbox.emulator;
    folder = path.join(sandbox.dir, 'work');
    mkdirSync(folder);
    writeFileSync(
      path.join(folder, 'main.tf'),
      `terraform {\n  cloud {\n    hostname     = "${sandbox.host}"\n    organization = "acme-demo"\n    workspaces {\n      name = "interrupted"\n    }\n  }\n}\n\nresource "terraform_data" "many" {\n  count = 30\n  input = "v\${count.index}"\n}\n`,
    );
    env = { ...process.env, TF_CLI_CONFIG_FILE: path.join(sandbox.dir, 'cli.tfrc'), SSL_CERT_FILE: path.join(sandbox.dir, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => {
    stopLeftovers();
    return emulator?.close();
  });

  test('the run is canceled, its apply log stops at the interrupt, and the state holds what it created', { timeout: 180_000 }, async () => {
    const init = await startCli(['init', '-input=false'], { cwd: folder, env }).ended;
    assert.equal(init.code, 0, init.output);
    const apply = startCli(['apply', '-auto-approve', '-input=false'], { cwd: folder, env });
    await apply.printed(/terraform_data\.many\[\d+\]: Creating\.\.\./);
    apply.interrupt();
    const { output } = await apply.ended;
    const current = (await callApi(emulator, '/organizations/acme-demo/workspaces/interrupted?include=current_run')).body;
    const runId = current.data.relationships['current-run'].data.id;
    assert.ok(emulator.control.requests().some((entry) => entry.method === 'POST' && entry.path === `/api/v2/runs/${runId}/actions/cancel`), 'the CLI asked to cancel');
    assert.match(output, /The remote operation was successfully cancelled\./);
    // The CLI leaves as soon as the cancel is accepted; the interrupted apply stops on its own a little later.
    await runReaching(emulator, runId, 'canceled');

    const applyRecord = (await callApi(emulator, `/runs/${runId}/apply`)).body.data.attributes;
    const log = await readUrl(emulator, applyRecord['log-read-url']);
    assert.doesNotMatch(log, /Apply complete!/);
    assert.match(log, /Interrupt received\./);
    const createdInLog = (log.match(/terraform_data\.many\[\d+\]: Creation complete/g) ?? []).length;
    const listed = await startCli(['state', 'list'], { cwd: folder, env }).ended;
    assert.equal(listed.code, 0, listed.output);
    const inState = listed.output.trim().split('\n').filter((line) => line.startsWith('terraform_data.many['));
    assert.ok(inState.length > 0 && inState.length < 30, `the state holds ${inState.length} of 30 instances`);
    assert.equal(inState.length, createdInLog, 'the state holds what the apply log says it created');
    assert.equal(applyRecord['resource-additions'], inState.length);
    assert.equal((await callApi(emulator, '/organizations/acme-demo/workspaces/interrupted')).body.data.attributes.locked, false, 'the canceled run let go of the workspace');
  });
});
