// The real Terraform CLI on a workspace whose soft-mandatory policy fails (the demo seed's prod-network): `terraform
// apply` asks to override, then, once overridden, asks to apply, and applies. The CLI reads the run right after its
// override call and stops unless the run is already confirmable (internal/cloud/backend_apply.go).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, startCli, startCliSandbox, stopLeftovers, terraform } from './harness';

describe('the Terraform CLI overriding a soft-failed policy check', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    const sandbox = await startCliSandbox('hcp-cli-policy-', { seed: 'demo' });
    emulator = sandbox.emulator;
    folder = path.join(sandbox.dir, 'work');
    mkdirSync(folder);
    writeFileSync(
      path.join(folder, 'main.tf'),
      `terraform {\n  cloud {\n    hostname     = "${sandbox.host}"\n    organization = "acme-demo"\n    workspaces {\n      name = "prod-network"\n    }\n  }\n}\n\nresource "terraform_data" "vpc" {\n  input = "10.0.0.0/16"\n}\n`,
    );
    // Prompts are answered on standard input, so no TF_IN_AUTOMATION and no -input=false.
    env = { ...process.env, TF_CLI_CONFIG_FILE: path.join(sandbox.dir, 'cli.tfrc'), SSL_CERT_FILE: path.join(sandbox.dir, 'ca.pem'), CHECKPOINT_DISABLE: '1' };
    delete env.TF_IN_AUTOMATION;
  });
  after(() => {
    stopLeftovers();
    return emulator?.close();
  });

  const api = (apiPath: string, method = 'GET', body?: unknown) => callApi(emulator, apiPath, method, body);

  test('apply asks to override, then asks to perform the actions, and applies', { timeout: 180_000 }, async () => {
    const { code: initCode, output: initOutput } = await startCli(['init', '-input=false'], { cwd: folder, env }).ended;
    assert.equal(initCode, 0, initOutput);
    // The seed's own run stopped in policy_override holds the workspace; it is discarded so the CLI's run can go.
    const workspace = (await api('/organizations/acme-demo/workspaces/prod-network')).body.data;
    const runs = (await api(`/workspaces/${workspace.id}/runs`)).body.data as Array<{ id: string; attributes: { status: string } }>;
    const seeded = runs.find((run) => run.attributes.status === 'policy_override');
    assert.ok(seeded, 'the demo seed has a run waiting for an override on prod-network');
    assert.equal((await api(`/runs/${seeded.id}/actions/discard`, 'POST', {})).status, 202);

    const apply = startCli(['apply'], { cwd: folder, env });
    await apply.printed(/Do you want to override the soft failed policy check\?[\s\S]*Enter a value:/);
    apply.type('override\n');
    await apply.printed(/Do you want to perform these actions in workspace "prod-network"\?[\s\S]*Enter a value:/);
    apply.answer('yes\n');
    const { code, output } = await apply.ended;
    assert.equal(code, 0, output);
    assert.match(output, /Apply complete! Resources: \d+ added, \d+ changed, \d+ destroyed\./);
    const current = (await api('/organizations/acme-demo/workspaces/prod-network?include=current_run')).body;
    const run = current.included.find((resource: { type: string }) => resource.type === 'runs');
    assert.equal(run.attributes.status, 'applied');
    assert.ok(run.attributes['status-timestamps']['policy-override-at'], 'the run went through policy_override');
    assert.equal(current.data.attributes.locked, false, 'the applied run let go of the workspace');
  });
});
