// The real Terraform CLI against the emulator on TLS, as a user of a `cloud` block would run it: init, plan, apply.
// Needs `terraform` on the PATH (our machines have 1.11); without it the suite says so and skips.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';

const run = promisify(execFile);
const terraform = (() => {
  try {
    execFileSync('terraform', ['version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
})();

describe('the Terraform CLI against the emulator', { skip: terraform ? false : 'skipped: terraform not found on the PATH' }, () => {
  let emulator: RunningEmulator;
  let folder: string;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    emulator = await startEmulator({ tls: true, seed: 'empty', speed: 50 });
    const host = new URL(emulator.url).host;
    folder = mkdtempSync(path.join(os.tmpdir(), 'hcp-cli-'));
    writeFileSync(path.join(folder, 'ca.pem'), emulator.caPem!);
    writeFileSync(path.join(folder, 'cli.tfrc'), `credentials "${host}" {\n  token = "${emulator.tokens.owner}"\n}\n`);
    writeFileSync(
      path.join(folder, 'main.tf'),
      `terraform {\n  cloud {\n    hostname     = "${host}"\n    organization = "acme-demo"\n    workspaces {\n      name = "demo-app"\n    }\n  }\n}\n\nvariable "who" {\n  default = "world"\n}\n\nresource "terraform_data" "marker" {\n  input = "hello"\n}\n\nresource "terraform_data" "counted" {\n  count = 2\n  input = var.who\n}\n\noutput "greeting" {\n  value = var.who\n}\n`,
    );
    // Go's TLS reads SSL_CERT_FILE: the CLI trusts the emulator's certificate and nothing else changes.
    env = { ...process.env, TF_CLI_CONFIG_FILE: path.join(folder, 'cli.tfrc'), SSL_CERT_FILE: path.join(folder, 'ca.pem'), TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1' };
  });
  after(() => emulator?.close());

  const cli = async (...args: string[]) => {
    try {
      return (await run('terraform', [...args, '-no-color'], { cwd: folder, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 })).stdout;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(`terraform ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
    }
  };

  test('init finds the workspace through service discovery, over https with the emulator\'s certificate', async () => {
    const output = await cli('init', '-input=false');
    assert.match(output, /HCP Terraform has been successfully initialized/);
  });

  test('plan runs remotely and follows the configuration: every declared instance is created', async () => {
    const output = await cli('plan', '-input=false');
    assert.match(output, /Running plan in HCP Terraform/);
    assert.match(output, /terraform_data\.counted\[1\] will be created/);
    assert.match(output, /Plan: 3 to add, 0 to change, 0 to destroy\./);
  });

  test('apply -auto-approve applies the run, and the service says so', async () => {
    const output = await cli('apply', '-auto-approve', '-input=false');
    assert.match(output, /Apply complete! Resources: 3 added, 0 changed, 0 destroyed\./);
    const headers = { Authorization: `Bearer ${emulator.tokens.owner}` };
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ connect: { ca: emulator.caPem } });
    try {
      const workspace = (await (await request(`${emulator.url}/api/v2/organizations/acme-demo/workspaces/demo-app?include=current_run`, { headers, dispatcher })).body.json()) as any;
      const current = workspace.included.find((resource: { type: string }) => resource.type === 'runs');
      assert.equal(current.attributes.status, 'applied');
    } finally {
      await dispatcher.close();
    }
  });

  test('the apply wrote the workspace\'s state: state list and state pull read it, output shows the outputs', async () => {
    const listed = await cli('state', 'list');
    assert.deepEqual(listed.trim().split('\n').sort(), ['terraform_data.counted[0]', 'terraform_data.counted[1]', 'terraform_data.marker']);
    const outputs = JSON.parse(await run('terraform', ['output', '-json'], { cwd: folder, env, timeout: 60_000 }).then((r) => r.stdout));
    assert.equal(outputs.greeting.value, 'world');
    const pulled = JSON.parse(await run('terraform', ['state', 'pull'], { cwd: folder, env, timeout: 60_000 }).then((r) => r.stdout));
    assert.equal(pulled.version, 4);
    assert.equal(pulled.serial, 1);
    assert.ok(pulled.lineage);
  });

  test('a second plan says "No changes"; a changed argument is an update in place', async () => {
    assert.match(await cli('plan', '-input=false'), /No changes\. Your infrastructure matches the configuration\./);
    writeFileSync(path.join(folder, 'main.tf'), readFileSync(path.join(folder, 'main.tf'), 'utf8').replace('input = "hello"', 'input = "hello again"'));
    const changed = await cli('plan', '-input=false');
    assert.match(changed, /terraform_data\.marker will be updated in-place/);
    assert.match(changed, /Plan: 0 to add, 1 to change, 0 to destroy\./);
  });

  test('state push (locking the workspace, uploading through the state version\'s URLs) and outputs, sensitive ones too', async () => {
    const pulled = JSON.parse(await run('terraform', ['state', 'pull'], { cwd: folder, env, timeout: 60_000 }).then((r) => r.stdout));
    pulled.serial += 1;
    pulled.outputs = { greeting: { value: 'hi', type: 'string' }, secret: { value: 's3cr3t', type: 'string', sensitive: true } };
    writeFileSync(path.join(folder, 'pushed.tfstate'), JSON.stringify(pulled));
    // The seeded workspace asks for Terraform ~> 1.9; the CLI on the machine may be newer.
    await cli('state', 'push', '-ignore-remote-version', 'pushed.tfstate');
    const outputs = JSON.parse(await run('terraform', ['output', '-json'], { cwd: folder, env, timeout: 60_000 }).then((r) => r.stdout));
    assert.deepEqual(outputs.greeting, { sensitive: false, type: 'string', value: 'hi' });
    assert.equal(outputs.secret.sensitive, true);
    assert.equal((await run('terraform', ['output', '-raw', 'secret'], { cwd: folder, env, timeout: 60_000 })).stdout, 's3cr3t');
    assert.ok(readFileSync(path.join(folder, 'pushed.tfstate'), 'utf8').includes('s3cr3t'));
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
    emulator = await startEmulator({ tls: true, seed: 'empty', speed: 50 });
    host = new URL(emulator.url).host;
    base = mkdtempSync(path.join(os.tmpdir(), 'hcp-cli-ws-'));
    writeFileSync(path.join(base, 'ca.pem'), emulator.caPem!);
    writeFileSync(path.join(base, 'cli.tfrc'), `credentials "${host}" {\n  token = "${emulator.tokens.owner}"\n}\n`);
  });
  after(() => emulator?.close());

  const folderWith = (name: string, selection: string) => {
    const folder = path.join(base, name);
    execFileSync('mkdir', ['-p', folder]);
    writeFileSync(path.join(folder, 'main.tf'), `terraform {\n  cloud {\n    hostname     = "${host}"\n    organization = "acme-demo"\n    workspaces {\n      ${selection}\n    }\n  }\n}\n\nresource "terraform_data" "x" {}\n`);
    return folder;
  };
  const cli = async (folder: string, args: string[], extra: NodeJS.ProcessEnv = {}, input?: string) => {
    const env: NodeJS.ProcessEnv = { ...process.env, TF_CLI_CONFIG_FILE: path.join(base, 'cli.tfrc'), SSL_CERT_FILE: path.join(base, 'ca.pem'), CHECKPOINT_DISABLE: '1', ...extra };
    delete env.TF_WORKSPACE;
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
  const api = async (apiPath: string, method = 'GET', body?: unknown) => {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ connect: { ca: emulator.caPem } });
    try {
      const answer = await request(`${emulator.url}/api/v2${apiPath}`, {
        method: method as 'GET',
        dispatcher,
        headers: { Authorization: `Bearer ${emulator.tokens.owner}`, 'Content-Type': 'application/vnd.api+json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      await answer.body.dump();
      return { status: answer.statusCode };
    } finally {
      await dispatcher.close();
    }
  };
  const workspace = async (name: string) => {
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ connect: { ca: emulator.caPem } });
    try {
      const answer = await request(`${emulator.url}/api/v2/organizations/acme-demo/workspaces/${name}`, { dispatcher, headers: { Authorization: `Bearer ${emulator.tokens.owner}` } });
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
});
