// What the other-editor tests (test/editors/) share: an emulator and a home folder per suite, the environment an
// editor starts from (the server and address where the README's configurations read them, the token where a user
// puts it, nothing of the developer's own tokens), and running the editor until its probe has written what it saw.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';

/** Starts the demo emulator and a temporary home before the suite, and removes both after it. */
export function editorSandbox(prefix: string): { readonly emulator: RunningEmulator; readonly base: string } {
  const sandbox = {} as { emulator: RunningEmulator; base: string };
  before(async () => {
    sandbox.emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    sandbox.base = await mkdtemp(path.join(os.tmpdir(), prefix));
  });
  after(async () => {
    await sandbox.emulator.close();
    await rm(sandbox.base, { recursive: true, force: true });
  });
  return sandbox;
}

/**
 * The editor's environment: HOME in the sandbox, HCP_TERRAFORM_SERVER / HCP_TERRAFORM_ADDRESS as the README's
 * configurations read them, and the member's token in TF_TOKEN_<host> (a port stays in the name, as the README says).
 */
export function editorEnvironment(base: string, emulator: RunningEmulator, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const host = new URL(emulator.url).host;
  return {
    ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TF_TOKEN_') && !key.startsWith('TF_CLOUD_'))),
    HOME: base,
    HCP_TERRAFORM_SERVER: path.resolve('dist/server.js'),
    HCP_TERRAFORM_ADDRESS: emulator.url,
    [`TF_TOKEN_${host.replace(/\./g, '_')}`]: emulator.tokens.member,
    ...extra,
  };
}

/** Runs the editor to its end; returns the JSON its probe wrote to `out` (null when it wrote none) and what it printed. */
export async function runEditorProbe<T>(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, out: string): Promise<{ result: T | null; output: string; code: number | null }> {
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const result = JSON.parse(await readFile(out, 'utf8').catch(() => 'null')) as T | null;
  return { result, output, code };
}
