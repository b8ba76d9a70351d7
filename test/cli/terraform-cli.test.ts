// The real Terraform CLI against the emulator on TLS, as a user of a `cloud` block would run it: init, plan, apply.
// Needs `terraform` on the PATH (our machines have 1.11); without it the suite says so and skips.
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { RunningEmulator } from '../../emulator/src/index';
import { callApi, run, runCli, running, startCli, startCliSandbox, stopLeftovers, terraform } from './harness';

describe('the Terraform CLI against the emulator', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    ({ emulator, host, dir: folder } = await startCliSandbox('hcp-cli-'));
    writeFileSync(
      path.join(folder, 'main.tf'),
      `terraform {\n  cloud {\n    hostname     = "${host}"\n    organization = "acme-demo"\n    workspaces {\n      name = "demo-app"\n    }\n  }\n}\n\nvariable "who" {\n  default = "world"\n}\n\nresource "terraform_data" "marker" {\n  input = "hello"\n}\n\nresource "terraform_data" "counted" {\n  count = 2\n  input = var.who\n}\n\noutput "greeting" {\n  value = var.who\n}\n\noutput "marker" {\n  value = terraform_data.marker.output\n}\n\nvariable "token" {\n  default   = "t0ken"\n  sensitive = true\n}\n\noutput "token" {\n  value     = var.token\n  sensitive = true\n}\n`,
    );
    // Go's TLS reads SSL_CERT_FILE: the CLI trusts the emulator's certificate and nothing else changes.
    env = { ...process.env, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => emulator?.close());

  const cli = (...args: string[]) => runCli(args, { cwd: folder, env });
  const api = (apiPath: string, method = 'GET', body?: unknown) => callApi(emulator, apiPath, method, body);
  const outputs = async () => JSON.parse((await run('terraform', ['output', '-json'], { cwd: folder, env, timeout: 60_000 })).stdout);
  /** The workspace with its current run included (the run the CLI just drove). */
  const demoApp = async () => {
    const { body } = await api('/organizations/acme-demo/workspaces/demo-app?include=current_run');
    return { workspace: body.data, currentRun: body.included?.find((resource: { type: string }) => resource.type === 'runs') };
  };

  test('init finds the workspace through service discovery, over https with the emulator\'s certificate', async () => {
    const output = await cli('init', '-input=false');
    assert.match(output, /HCP Terraform has been successfully initialized/);
  });

  test('plan runs remotely and follows the configuration: every declared instance is created', async () => {
    const output = await cli('plan', '-input=false');
    assert.match(output, /Running plan in HCP Terraform/);
    assert.match(output, /terraform_data\.counted\[1\] will be created/);
    assert.match(output, /\+ input += "world"/, 'the plan shows the values the configuration gives');
    assert.match(output, /Plan: 3 to add, 0 to change, 0 to destroy\./);
    assert.equal(output.match(/will be created/g)?.length, 3, 'the plan is drawn once (structured output, not also the text log)');
    assert.match(output, /\+ marker += \(known after apply\)/, 'an output reading a resource the plan creates');
    assert.match(output, /\+ token += \(sensitive value\)/, 'a new sensitive output is listed, its value hidden');
  });

  test('apply -auto-approve applies the run, and the service says so', async () => {
    const output = await cli('apply', '-auto-approve', '-input=false');
    assert.match(output, /Apply complete! Resources: 3 added, 0 changed, 0 destroyed\./);
    assert.equal((await demoApp()).currentRun.attributes.status, 'applied');
  });

  test('the apply wrote the workspace\'s state: state list and state pull read it, output shows the outputs', async () => {
    const listed = await cli('state', 'list');
    assert.deepEqual(listed.trim().split('\n').sort(), ['terraform_data.counted[0]', 'terraform_data.counted[1]', 'terraform_data.marker']);
    assert.equal((await outputs()).greeting.value, 'world');
    assert.equal((await outputs()).marker.value, 'hello', 'the output reading a resource was saved with the state');
    const pulled = JSON.parse(await run('terraform', ['state', 'pull'], { cwd: folder, env, timeout: 60_000 }).then((r) => r.stdout));
    assert.equal(pulled.version, 4);
    assert.equal(pulled.serial, 1);
    assert.ok(pulled.lineage);
    // terraform_data as Terraform stores it (dynamic values wrapped, output = input), so state show can draw it.
    const shown = await cli('state', 'show', 'terraform_data.marker');
    assert.match(shown, /input += "hello"/);
    assert.match(shown, /output += "hello"/);
  });

  test('a second plan says "No changes" (the outputs too); a changed argument is an update in place', async () => {
    const again = await cli('plan', '-input=false');
    assert.match(again, /No changes\. Your infrastructure matches the configuration\./);
    assert.doesNotMatch(again, /Changes to Outputs/);
    writeFileSync(path.join(folder, 'main.tf'), readFileSync(path.join(folder, 'main.tf'), 'utf8').replace('input = "hello"', 'input = "hello again"'));
    const changed = await cli('plan', '-input=false');
    assert.match(changed, /terraform_data\.marker will be updated in-place/);
    assert.match(changed, /~ input += "hello" -> "hello again"/, 'the attribute that changes, before and after');
    assert.match(changed, /Plan: 0 to add, 1 to change, 0 to destroy\./);
  });

  test('-target plans only the targeted instance; -replace replaces one; plan -out then apply of the saved plan', async () => {
    const targeted = await cli('plan', '-input=false', '-target=terraform_data.marker');
    assert.match(targeted, /terraform_data\.marker will be updated in-place/);
    assert.doesNotMatch(targeted, /counted/);
    // Terraform's warning, in the run's log, and the service's refusal to price a partial plan, as the CLI tells it.
    assert.match(targeted, /Warning: Resource targeting is in effect/);
    assert.match(targeted, /│ You are creating a plan with the -target option/);
    assert.match(targeted, /Not available for this plan, because it was created with the -target option\./);
    const replaced = await cli('plan', '-input=false', '-replace=terraform_data.counted[1]');
    assert.match(replaced, /terraform_data\.counted\[1\] will be replaced, as requested/);
    // With TF_IN_AUTOMATION the CLI does not say where it saved the plan (PlanNextStep); the file says what it saved.
    const saved = await cli('plan', '-input=false', '-out=saved.tfplan');
    assert.match(saved, /terraform_data\.marker will be updated in-place/);
    assert.match(saved, /Plan: 0 to add, 1 to change, 0 to destroy\./);
    const bookmark = JSON.parse(readFileSync(path.join(folder, 'saved.tfplan'), 'utf8'));
    assert.equal(bookmark.remote_plan_format, 1);
    assert.equal(bookmark.hostname, host);
    assert.match(bookmark.run_id, /^run-/);
    const savedRun = (await api(`/runs/${bookmark.run_id}`)).body.data;
    assert.deepEqual([savedRun.attributes.status, savedRun.attributes['save-plan'], savedRun.attributes['plan-only']], ['planned_and_saved', true, false]);
    assert.equal(savedRun.attributes.actions['is-confirmable'], true);
    const applied = await cli('apply', '-input=false', 'saved.tfplan');
    assert.match(applied, /Apply complete! Resources: 0 added, 1 changed, 0 destroyed\./);
    assert.equal((await api(`/runs/${bookmark.run_id}`)).body.data.attributes.status, 'applied');
    assert.equal((await demoApp()).currentRun.id, bookmark.run_id);
    assert.match(await cli('plan', '-input=false'), /No changes\./);
  });

  test('a workspace variable reaches the run: what uses it is updated and the output shows its value', async () => {
    const { workspace } = await demoApp();
    const made = await api(`/workspaces/${workspace.id}/vars`, 'POST', { data: { type: 'vars', attributes: { key: 'who', value: 'workspace', category: 'terraform' } } });
    assert.equal(made.status, 201);
    const output = await cli('apply', '-auto-approve', '-input=false');
    assert.match(output, /terraform_data\.counted\[0\] will be updated in-place/);
    assert.match(output, /terraform_data\.counted\[1\] will be updated in-place/);
    assert.match(output, /Apply complete! Resources: 0 added, 2 changed, 0 destroyed\./);
    assert.equal((await outputs()).greeting.value, 'workspace');
    const { currentRun } = await demoApp();
    assert.deepEqual([currentRun.attributes.status, currentRun.attributes.variables], ['applied', []]);
  });

  test('a run variable (-var) goes with the run and wins over the workspace\'s', async () => {
    const planned = await cli('plan', '-input=false', '-var', 'who=run');
    assert.match(planned, /terraform_data\.counted\[1\] will be updated in-place/);
    assert.match(planned, /Plan: 0 to add, 2 to change, 0 to destroy\./);
    const output = await cli('apply', '-auto-approve', '-input=false', '-var', 'who=run');
    assert.match(output, /Apply complete! Resources: 0 added, 2 changed, 0 destroyed\./);
    assert.equal((await outputs()).greeting.value, 'run');
    const { currentRun } = await demoApp();
    assert.equal(currentRun.attributes.status, 'applied');
    assert.deepEqual(currentRun.attributes.variables, [{ key: 'who', value: '"run"' }]);
    // Without -var the workspace's value is back: the run variable lived only in that run.
    assert.match(await cli('plan', '-input=false'), /Plan: 0 to add, 2 to change, 0 to destroy\./);
  });

  test('apply -replace destroys the instance and creates a new one with a new id; the others keep theirs', async () => {
    const idOf = async (address: string) => /^\s+id += "([\w-]+)"/m.exec(await cli('state', 'show', address))?.[1];
    const kept = await idOf('terraform_data.counted[1]');
    const output = await cli('apply', '-auto-approve', '-input=false', '-replace=terraform_data.counted[0]');
    const destroyed = /terraform_data\.counted\[0\]: Destroying\.\.\. \[id=([\w-]+)\]/.exec(output)?.[1];
    const created = /terraform_data\.counted\[0\]: Creation complete after \d+s \[id=([\w-]+)\]/.exec(output)?.[1];
    assert.ok(destroyed && created, output);
    assert.notEqual(created, destroyed);
    assert.equal(await idOf('terraform_data.counted[0]'), created);
    assert.equal(await idOf('terraform_data.counted[1]'), kept);
  });

  test('state push (locking the workspace, uploading through the state version\'s URLs) and outputs, sensitive ones too', async () => {
    const pulled = JSON.parse(await run('terraform', ['state', 'pull'], { cwd: folder, env, timeout: 60_000 }).then((r) => r.stdout));
    pulled.serial += 1;
    pulled.outputs = { greeting: { value: 'hi', type: 'string' }, secret: { value: 's3cr3t', type: 'string', sensitive: true } };
    writeFileSync(path.join(folder, 'pushed.tfstate'), JSON.stringify(pulled));
    // The seeded workspace asks for Terraform ~> 1.9; the CLI on the machine may be newer.
    await cli('state', 'push', '-ignore-remote-version', 'pushed.tfstate');
    const pushed = await outputs();
    assert.deepEqual(pushed.greeting, { sensitive: false, type: 'string', value: 'hi' });
    assert.equal(pushed.secret.sensitive, true);
    assert.equal((await run('terraform', ['output', '-raw', 'secret'], { cwd: folder, env, timeout: 60_000 })).stdout, 's3cr3t');
    assert.ok(readFileSync(path.join(folder, 'pushed.tfstate'), 'utf8').includes('s3cr3t'));
  });

  test('apply -refresh-only completes: the run has no cost estimate to wait for', async () => {
    const output = await cli('apply', '-refresh-only', '-auto-approve', '-input=false');
    assert.doesNotMatch(output, /cost estimate/i);
    assert.match(output, /Apply complete!|No changes\./);
    const { currentRun } = await demoApp();
    assert.equal(currentRun.attributes['refresh-only'], true);
    assert.ok(['applied', 'planned_and_finished'].includes(currentRun.attributes.status), currentRun.attributes.status);
  });

  test('state push -force with the cloud block: Terraform 1.11 sends force: false, so the stale state is refused and the CLI keeps its lock', async () => {
    // internal/command/state_push.go calls WriteState after Import, and the cloud backend's WriteState resets the force
    // flag Import set (internal/cloud/state.go): the upload goes without force and meets the serial check, as on the
    // service. After a failed upload the cloud backend leaves the workspace locked on purpose; force-unlock ends it.
    const older = JSON.parse((await run('terraform', ['state', 'pull'], { cwd: folder, env, timeout: 60_000 })).stdout);
    writeFileSync(path.join(folder, 'later.tfstate'), JSON.stringify({ ...older, serial: older.serial + 1 }));
    await cli('state', 'push', '-ignore-remote-version', 'later.tfstate');
    writeFileSync(path.join(folder, 'older.tfstate'), JSON.stringify(older));
    await assert.rejects(cli('state', 'push', '-force', '-ignore-remote-version', 'older.tfstate'), /error uploading state: conflict/);
    const { workspace } = await demoApp();
    assert.deepEqual([workspace.attributes.locked, workspace.relationships['locked-by'].data.type], [true, 'users']);
    assert.match(await cli('force-unlock', '-force', 'acme-demo/demo-app'), /has been unlocked/);
    assert.equal((await demoApp()).workspace.attributes.locked, false);
  });

  test('destroy removes every resource from the state', async () => {
    assert.match(await cli('destroy', '-auto-approve', '-input=false'), /Destroy complete! Resources: 3 destroyed\./);
    assert.equal((await cli('state', 'list')).trim(), '');
  });
});

describe('the Terraform CLI creates and selects workspaces on the emulator', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let base: string;
  before(async () => {
    ({ emulator, host, dir: base } = await startCliSandbox('hcp-cli-ws-'));
  });
  after(() => {
    stopLeftovers();
    return emulator?.close();
  });

  const folderWith = (name: string, selection: string) => {
    const folder = path.join(base, name);
    execFileSync('mkdir', ['-p', folder]);
    writeFileSync(path.join(folder, 'main.tf'), `terraform {\n  cloud {\n    hostname     = "${host}"\n    organization = "acme-demo"\n    workspaces {\n      ${selection}\n    }\n  }\n}\n\nresource "terraform_data" "x" {}\n`);
    return folder;
  };
  const cliEnv = (extra: NodeJS.ProcessEnv = {}) => {
    const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: path.join(base, 'cli.tfrc'), SSL_CERT_FILE: path.join(base, 'ca.pem'), CHECKPOINT_DISABLE: '1', ...extra };
    delete env.TF_WORKSPACE;
    delete env.TF_IN_AUTOMATION;
    return env;
  };
  const cli = async (folder: string, args: string[], extra: NodeJS.ProcessEnv = {}, input?: string) => {
    const env = cliEnv(extra);
    // Answers the CLI's prompt (the new workspace's name) on its standard input.
    const child = execFile('terraform', [...args, '-no-color'], { cwd: folder, env, timeout: 120_000 });
    child.stdin?.end(input ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    child.stderr?.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`terraform ${args.join(' ')} failed (exit ${code}):\n${stdout}\n${stderr}`);
    return stdout;
  };
  const api = (apiPath: string, method = 'GET', body?: unknown) => callApi(emulator, apiPath, method, body);
  const workspace = async (name: string) => {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ connect: { ca: emulator.caPem } });
    try {
      const answer = await request(`${emulator.url}/api/v2/organizations/acme-demo/workspaces/${name}`, { dispatcher, headers: { Authorization: `Bearer ${emulator.tokens.team}` } });
      return answer.statusCode === 200 ? ((await answer.body.json()) as any).data : undefined;
    } finally {
      await dispatcher.close();
    }
  };

  test('init with tags creates the workspace it is asked for, tagged; workspace new adds another', async () => {
    const folder = folderWith('tagged', 'tags = ["app", "cli"]');
    const output = await cli(folder, ['init'], {}, 'web-dev\n');
    assert.match(output, /HCP Terraform has been successfully initialized/);
    assert.deepEqual((await workspace('web-dev'))?.attributes['tag-names'].sort(), ['app', 'cli']);
    assert.match(await cli(folder, ['workspace', 'new', 'web-staging']), /Created and switched to workspace "web-staging"/);
    const listed = await cli(folder, ['workspace', 'list']);
    assert.match(listed, /web-dev/);
    assert.match(listed, /\* web-staging/);
  });

  test('init with TF_CLOUD_PROJECT creates the named workspace in that project', async () => {
    const folder = folderWith('project', 'name = "in-a-project"');
    await cli(folder, ['init'], { TF_CLOUD_PROJECT: 'Default Project' });
    const created = await workspace('in-a-project');
    assert.ok(created, 'the workspace was not created');
    assert.match(created.relationships.project.data.id, /^prj-/);
  });

  test('force-unlock releases a lock another user holds', async () => {
    const folder = folderWith('locked', 'name = "in-a-project"');
    await cli(folder, ['init'], { TF_CLOUD_PROJECT: 'Default Project' });
    const target = await workspace('in-a-project');
    const locked = await api(`/workspaces/${target.id}/actions/lock`, 'POST', { reason: 'held by a colleague' });
    assert.equal(locked.status, 200);
    assert.equal((await workspace('in-a-project')).attributes['locked-reason'], 'held by a colleague');
    assert.match(await cli(folder, ['force-unlock', '-force', 'acme-demo/in-a-project']), /has been unlocked/);
    assert.equal((await workspace('in-a-project')).attributes.locked, false);
  });

  const runsOf = async (workspaceId: string) => (await api(`/workspaces/${workspaceId}/runs`)).body.data as any[];

  test('apply on a workspace a user locked waits for the lock; force-unlock releases it and the apply goes on', async () => {
    const folder = folderWith('user-locked', 'name = "user-locked"');
    await cli(folder, ['init'], { TF_CLOUD_PROJECT: 'Default Project' });
    const target = await workspace('user-locked');
    assert.equal((await api(`/workspaces/${target.id}/actions/lock`, 'POST', { reason: 'held by a colleague' })).status, 200);
    const apply = startCli(['apply', '-auto-approve', '-input=false'], { cwd: folder, env: cliEnv() });
    // The CLI reads the workspace: locked, its current run (the CLI's own) pending. It says why it waits, and waits.
    await apply.printed(/Waiting for the manually locked workspace to be unlocked\.\.\./);
    const [waiting] = await runsOf(target.id);
    assert.equal(waiting.attributes.status, 'pending');
    const locked = await workspace('user-locked');
    assert.deepEqual([locked.attributes.locked, locked.relationships['locked-by'].data.type, locked.relationships['current-run'].data.id], [true, 'users', waiting.id]);
    assert.match(await cli(folder, ['force-unlock', '-force', 'acme-demo/user-locked']), /has been unlocked/);
    const { code, output } = await apply.ended;
    assert.equal(code, 0, output);
    assert.match(output, /Apply complete! Resources: 1 added, 0 changed, 0 destroyed\./);
    assert.equal((await api(`/runs/${waiting.id}`)).body.data.attributes.status, 'applied');
    assert.equal((await workspace('user-locked')).attributes.locked, false, 'the run let go of the workspace when it ended');
  });

  test('apply on a workspace another run holds waits in the queue; when that run is discarded the apply goes on', async () => {
    // Two people, two working copies of the same workspace: the first leaves its apply at the confirmation prompt.
    const first = folderWith('run-locked-a', 'name = "run-locked"');
    const second = folderWith('run-locked-b', 'name = "run-locked"');
    await cli(first, ['init'], { TF_CLOUD_PROJECT: 'Default Project' });
    await cli(second, ['init']);
    const target = await workspace('run-locked');
    const holder = startCli(['apply'], { cwd: first, env: cliEnv() });
    await holder.printed(/Do you want to perform these actions in workspace "run-locked"\?[\s\S]*Enter a value:/);
    const [held] = await runsOf(target.id);
    // Paused for confirmation (after the organization's cost estimate), holding the workspace.
    assert.equal(held.attributes.status, 'cost_estimated');
    assert.equal(held.attributes.actions['is-confirmable'], true);
    assert.deepEqual((await workspace('run-locked')).relationships['locked-by'].data, { id: held.id, type: 'runs' });

    const apply = startCli(['apply', '-auto-approve', '-input=false'], { cwd: second, env: cliEnv() });
    await apply.printed(/Waiting for 1 run\(s\) to finish before being queued\.\.\./);
    const queued = (await runsOf(target.id)).find((run) => run.id !== held.id);
    assert.equal(queued.attributes.status, 'pending');

    holder.answer('no\n');
    const discarded = await holder.ended;
    assert.notEqual(discarded.code, 0);
    assert.match(discarded.output, /Apply discarded\./);
    const { code, output } = await apply.ended;
    assert.equal(code, 0, output);
    assert.match(output, /terraform_data\.x will be created/);
    assert.match(output, /Apply complete! Resources: 1 added, 0 changed, 0 destroyed\./);
    assert.equal((await api(`/runs/${held.id}`)).body.data.attributes.status, 'discarded');
    assert.equal((await api(`/runs/${queued.id}`)).body.data.attributes.status, 'applied');
  });

  test('state push -force (backend "remote", which sends force: true) puts back an older state of another lineage; the lock is released', async () => {
    const folder = path.join(base, 'forced-push');
    execFileSync('mkdir', ['-p', folder]);
    writeFileSync(path.join(folder, 'main.tf'), `terraform {\n  backend "remote" {\n    hostname     = "${host}"\n    organization = "acme-demo"\n    workspaces {\n      name = "pushed-over"\n    }\n  }\n}\n`);
    assert.equal((await api('/organizations/acme-demo/workspaces', 'POST', { data: { type: 'workspaces', attributes: { name: 'pushed-over' } } })).status, 201);
    await cli(folder, ['init', '-input=false']);
    const pull = async () => JSON.parse(await cli(folder, ['state', 'pull']));
    const stateWith = (serial: number, lineage: string, greeting: string) => JSON.stringify({ version: 4, serial, lineage, outputs: { greeting: { value: greeting, type: 'string' } }, resources: [] });
    writeFileSync(path.join(folder, 'first.tfstate'), stateWith(1, randomUUID(), 'first'));
    await cli(folder, ['state', 'push', 'first.tfstate']);
    const older = await pull();
    writeFileSync(path.join(folder, 'later.tfstate'), stateWith(older.serial + 1, older.lineage, 'later'));
    await cli(folder, ['state', 'push', 'later.tfstate']);
    const forced = { ...older, lineage: randomUUID() };
    writeFileSync(path.join(folder, 'older.tfstate'), JSON.stringify(forced));
    await cli(folder, ['state', 'push', '-force', 'older.tfstate']);
    const pulled = await pull();
    assert.equal(pulled.lineage, forced.lineage);
    // Terraform uploads the serial after the file's (states/remote/state.go PersistState): here the later push's.
    assert.equal(pulled.serial, older.serial + 1);
    assert.equal(pulled.outputs.greeting.value, 'first');
    assert.equal((await workspace('pushed-over')).attributes.locked, false, 'the push let go of its lock');
    assert.match(await cli(folder, ['plan', '-input=false']), /Running plan in the remote backend/);
  });

  test('workspace delete deletes the workspace (safe-delete; DELETE with -force) and workspace list no longer shows it', async () => {
    const folder = folderWith('deleting', 'tags = ["deletable"]');
    await cli(folder, ['init'], {}, 'app-dev\n');
    await cli(folder, ['workspace', 'new', 'app-stage']);
    assert.match(await cli(folder, ['workspace', 'new', 'app-prod']), /Created and switched to workspace "app-prod"/);
    assert.match(await cli(folder, ['workspace', 'delete', 'app-dev']), /Deleted workspace "app-dev"!/);
    assert.match(await cli(folder, ['workspace', 'delete', '-force', 'app-stage']), /Deleted workspace "app-stage"!/);
    assert.equal(await workspace('app-dev'), undefined);
    assert.equal(await workspace('app-stage'), undefined);
    const listed = await cli(folder, ['workspace', 'list']);
    assert.doesNotMatch(listed, /app-dev|app-stage/);
    assert.match(listed, /\* app-prod/);
    // The workspace carries can-force-delete, as on the service, so the CLI asks for a safe delete unless forced.
    // A 429 is left out: the CLI's commands share one token's 30 requests a second, and go-tfe waits and asks again
    // (a loaded machine ran the safe-delete into the limit once, then it went through).
    const deletes = emulator.control
      .requests()
      .filter((entry) => /\/workspaces\/app-(dev|stage)(\/actions\/safe-delete)?$/.test(entry.path) && entry.method !== 'GET' && entry.status !== 429);
    assert.deepEqual(deletes.map((entry) => `${entry.method} ${entry.path.replace(/.*\/workspaces\//, '')} ${entry.status}`), ['POST app-dev/actions/safe-delete 204', 'DELETE app-stage 204']);
  });
});

describe('the Terraform CLI plans against the workspace\'s state, whoever wrote it, and by value', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let base: string;
  before(async () => {
    ({ emulator, host, dir: base } = await startCliSandbox('hcp-cli-state-'));
  });
  after(() => {
    stopLeftovers();
    return emulator?.close();
  });

  const cloudBlock = (workspace: string) => `terraform {\n  cloud {\n    hostname     = "${host}"\n    organization = "acme-demo"\n    workspaces {\n      name = "${workspace}"\n    }\n  }\n}\n`;
  /** A folder holding `main.tf` (rewritten by later calls with the same name). */
  const folderWith = (name: string, text: string) => {
    const folder = path.join(base, name);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'main.tf'), text);
    return folder;
  };
  const cli = async (folder: string, args: string[], input = '') => {
    const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: path.join(base, 'cli.tfrc'), SSL_CERT_FILE: path.join(base, 'ca.pem'), CHECKPOINT_DISABLE: '1', TF_IN_AUTOMATION: '1' };
    delete env.TF_WORKSPACE;
    const child = execFile('terraform', [...args, '-no-color'], { cwd: folder, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    child.stdin?.end(input);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    if (code !== 0) throw new Error(`terraform ${args.join(' ')} failed (exit ${code}):\n${output}`);
    return output;
  };
  const stateList = async (folder: string) => (await cli(folder, ['state', 'list'])).trim().split('\n').filter(Boolean).sort();
  const abc = 'resource "terraform_data" "a" { input = "a" }\nresource "terraform_data" "b" { input = "b" }\nresource "terraform_data" "c" { input = "c" }\n';

  test('after state mv and state rm the plan diffs the state (a2 destroyed, a and c created); code that matches it plans no changes, and a later apply keeps a2 and b, not c', async () => {
    const folder = folderWith('moved', cloudBlock('state-edits') + abc);
    await cli(folder, ['init', '-input=false']);
    assert.match(await cli(folder, ['apply', '-auto-approve', '-input=false']), /Resources: 3 added/);
    await cli(folder, ['state', 'mv', 'terraform_data.a', 'terraform_data.a2']);
    await cli(folder, ['state', 'rm', 'terraform_data.c']);
    assert.deepEqual(await stateList(folder), ['terraform_data.a2', 'terraform_data.b']);
    const planned = await cli(folder, ['plan', '-input=false']);
    assert.match(planned, /terraform_data\.a will be created/);
    assert.match(planned, /terraform_data\.c will be created/);
    assert.match(planned, /terraform_data\.a2 will be destroyed/);
    assert.match(planned, /Plan: 2 to add, 0 to change, 1 to destroy\./);
    assert.match(await cli(folder, ['plan', '-destroy', '-input=false']), /Plan: 0 to add, 0 to change, 2 to destroy\./, 'a destroy plan destroys what the state holds: a2 and b');
    folderWith('moved', cloudBlock('state-edits') + 'resource "terraform_data" "a2" { input = "a" }\nresource "terraform_data" "b" { input = "b" }\n');
    assert.match(await cli(folder, ['plan', '-input=false']), /No changes\. Your infrastructure matches the configuration\./);
    folderWith('moved', cloudBlock('state-edits') + 'resource "terraform_data" "a2" { input = "a" }\nresource "terraform_data" "b" { input = "b-changed" }\n');
    assert.match(await cli(folder, ['apply', '-auto-approve', '-input=false']), /Apply complete! Resources: 0 added, 1 changed, 0 destroyed\./);
    assert.deepEqual(await stateList(folder), ['terraform_data.a2', 'terraform_data.b']);
    assert.match(await cli(folder, ['state', 'show', 'terraform_data.a2']), /input += "a"/);
  });

  test('terraform import writes the state, and the next plan has nothing to create; a later apply keeps the imported id', async () => {
    const folder = folderWith('imported', cloudBlock('imports') + 'resource "terraform_data" "imp" {}\n');
    await cli(folder, ['init', '-input=false']);
    assert.match(await cli(folder, ['import', '-input=false', 'terraform_data.imp', 'imported-id-1']), /Import successful/);
    assert.match(await cli(folder, ['plan', '-input=false']), /No changes\./);
    folderWith('imported', cloudBlock('imports') + 'resource "terraform_data" "imp" {}\nresource "terraform_data" "other" { input = "o" }\n');
    assert.match(await cli(folder, ['apply', '-auto-approve', '-input=false']), /Apply complete! Resources: 1 added, 0 changed, 0 destroyed\./);
    assert.match(await cli(folder, ['state', 'show', 'terraform_data.imp']), /id += "imported-id-1"/);
  });

  test('local state migrated by terraform init is what the next plan diffs: no changes, and a later apply keeps its id', async () => {
    const folder = folderWith('migrated', 'resource "terraform_data" "local1" { input = "one" }\noutput "o" { value = terraform_data.local1.output }\n');
    await cli(folder, ['init', '-input=false']);
    await cli(folder, ['apply', '-auto-approve', '-input=false']);
    const localId = /id += "([^"]+)"/.exec(await cli(folder, ['state', 'show', 'terraform_data.local1']))?.[1];
    writeFileSync(path.join(folder, 'backend.tf'), cloudBlock('migrated'));
    await cli(folder, ['init'], 'yes\n');
    assert.deepEqual(await stateList(folder), ['terraform_data.local1']);
    assert.match(await cli(folder, ['plan', '-input=false']), /No changes\./);
    writeFileSync(path.join(folder, 'cloud.tf'), 'resource "terraform_data" "cloud1" { input = "c" }\n');
    assert.match(await cli(folder, ['apply', '-auto-approve', '-input=false']), /Apply complete! Resources: 1 added, 0 changed, 0 destroyed\./);
    assert.equal(/id += "([^"]+)"/.exec(await cli(folder, ['state', 'show', 'terraform_data.local1']))?.[1], localId);
  });

  test('an argument whose value does not change is no update: lower("X") where the state has "x"; a grown count adds only the new instance', async () => {
    const text = (x: string) => `${cloudBlock('by-value')}variable "names" {\n  type    = list(string)\n  default = ["a", "b"]\n}\nresource "terraform_data" "list" {\n  count = length(var.names)\n  input = upper(var.names[count.index])\n}\nresource "terraform_data" "x" { input = ${x} }\n`;
    const folder = folderWith('by-value', text('"x"'));
    await cli(folder, ['init', '-input=false']);
    assert.match(await cli(folder, ['apply', '-auto-approve', '-input=false']), /Resources: 3 added/);
    folderWith('by-value', text('lower("X")'));
    assert.match(await cli(folder, ['plan', '-input=false']), /No changes\. Your infrastructure matches the configuration\./);
    const grown = await cli(folder, ['plan', '-input=false', '-var', 'names=["a","b","c"]']);
    assert.match(grown, /terraform_data\.list\[2\] will be created/);
    assert.match(grown, /Plan: 1 to add, 0 to change, 0 to destroy\./);
  });
});

describe('terraform login against the emulator', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let host: string;
  let dir: string;
  before(async () => {
    ({ emulator, host, dir } = await startCliSandbox('hcp-cli-login-'));
  });
  after(() => {
    stopLeftovers();
    emulator?.close();
  });

  // Bounded: offered an OAuth flow, the CLI would wait for a browser that never comes back.
  test('asks for a token, checks it with the service and saves it (no OAuth flow the service does not offer)', { timeout: 60_000 }, async () => {
    const home = path.join(dir, 'home');
    mkdirSync(path.join(home, '.terraform.d'), { recursive: true });
    // The CLI reads the token from a terminal: `script` gives it one, and passes our answers through.
    const child = spawn('script', ['-qec', `terraform login -no-color ${host}`, '/dev/null'], {
      env: { ...process.env, HOME: home, SSL_CERT_FILE: path.join(dir, 'ca.pem'), CHECKPOINT_DISABLE: '1', BROWSER: 'true' },
    });
    running.add(child);
    let output = '';
    const prompts = { proceed: false, token: false };
    const ended = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!prompts.proceed && /Do you want to proceed\?[\s\S]*Enter a value:/.test(output)) {
        prompts.proceed = true;
        child.stdin.write('yes\n');
      }
      if (!prompts.token && /Token for [^\n]*:\s*Enter a value:/.test(output)) {
        prompts.token = true;
        child.stdin.write(`${emulator.tokens.owner}\n`);
      }
    });
    const code = await ended;
    running.delete(child);
    const shown = output.replaceAll(emulator.tokens.owner, '<token>');
    assert.equal(code, 0, shown);
    assert.match(shown, /Retrieved token for user /);
    assert.match(shown, /Success! Logged in/);
    const saved = JSON.parse(readFileSync(path.join(home, '.terraform.d', 'credentials.tfrc.json'), 'utf8'));
    assert.equal(saved.credentials[host].token, emulator.tokens.owner);
  });
});
