// What the test/cli suites share: whether the real `terraform` is on the PATH, a sandbox (the emulator on TLS with an
// empty seed, and a CLI configuration trusting it), API calls beside the CLI, and terraform processes left running
// so a test can answer their prompts. Not a test file itself (no `.test.ts`).
import { execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/src/index';

export const run = promisify(execFile);
export const terraform = (() => {
  try {
    execFileSync('terraform', ['version'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
})();

/**
 * A call to the emulator's API over TLS with the emulator's CA: status and parsed body (if any). It goes as the
 * owners team, not as the user the CLI signs in as: the service limits each caller to 30 requests a second, the
 * emulator's second runs 50 times faster here, and a CLI command spends that in a burst (a lock right after
 * `terraform init` got a 429 in one CI run).
 */
export async function callApi(emulator: RunningEmulator, apiPath: string, method = 'GET', body?: unknown): Promise<{ status: number; body: any }> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connect: { ca: emulator.caPem } });
  try {
    const answer = await request(`${emulator.url}/api/v2${apiPath}`, {
      method: method as 'GET',
      dispatcher,
      headers: { Authorization: `Bearer ${emulator.tokens.team}`, 'Content-Type': 'application/vnd.api+json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await answer.body.text();
    return { status: answer.statusCode, body: text ? JSON.parse(text) : undefined };
  } finally {
    await dispatcher.close();
  }
}

/** Runs terraform to its end in `cwd` and returns what it printed; a failure's message carries its output. */
export async function runCli(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<string> {
  try {
    const { stdout, stderr } = await run('terraform', [...args, '-no-color'], { ...options, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`terraform ${args.join(' ')} failed: ${failed.message}\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
  }
}

/** Processes startCli started that have not ended: a failed test leaves none behind (stopLeftovers). */
export const running = new Set<ChildProcess>();
export const stopLeftovers = () => {
  for (const child of running) child.kill();
};

/** A terraform process left running: its output so far, a wait for a line of it, its standard input, and its end. */
export function startCli(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const child = execFile('terraform', [...args, '-no-color'], { ...options, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
  running.add(child);
  child.on('close', () => running.delete(child));
  let output = '';
  const listeners = new Set<() => void>();
  const take = (chunk: string | Buffer) => {
    output += chunk;
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', take);
  child.stderr?.on('data', take);
  const ended = new Promise<{ code: number | null; output: string }>((resolve) => child.on('close', (code) => resolve({ code, output })));
  return {
    get output() {
      return output;
    },
    ended,
    /** Types `text` on its standard input (a prompt's answer) and closes it. */
    answer(text: string) {
      child.stdin?.end(text);
    },
    /** Ctrl-C, as a user at the terminal would press it. */
    interrupt() {
      child.kill('SIGINT');
    },
    /** Types `text` on its standard input and keeps it open for a later prompt (the CLI reads each answer afresh). */
    type(text: string) {
      child.stdin?.write(text);
    },
    /** Resolves when the output matches `pattern`; rejects if the process ends first. */
    printed(pattern: RegExp): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!pattern.test(output)) return;
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        check();
        void ended.then(() => {
          if (listeners.delete(check)) reject(new Error(`terraform ${args.join(' ')} ended without printing ${pattern}:\n${output}`));
        });
      });
    },
  };
}

/**
 * The emulator on TLS (the empty seed, runs 50 times faster than on the service, unless told), and a folder holding its certificate (ca.pem, for SSL_CERT_FILE) and a CLI
 * configuration (cli.tfrc, for TF_CLI_CONFIG_FILE) with the owner's token for its host.
 */
export async function startCliSandbox(
  prefix: string,
  { seed = 'empty', speed = 50 }: Pick<EmulatorOptions, 'seed' | 'speed'> = {},
): Promise<{ emulator: RunningEmulator; host: string; dir: string }> {
  const emulator = await startEmulator({ tls: true, seed, speed });
  const host = new URL(emulator.url).host;
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  writeFileSync(path.join(dir, 'ca.pem'), emulator.caPem!);
  writeFileSync(path.join(dir, 'cli.tfrc'), `credentials "${host}" {\n  token = "${emulator.tokens.owner}"\n}\n`);
  return { emulator, host, dir };
}

/**
 * Resolves with the run once its status is `status`; rejects after `boundMs`. The service pushes nothing when a run
 * moves on, so this reads the run every 250 ms, as Terraform CLI does while it waits on one.
 */
export async function runReaching(emulator: RunningEmulator, runId: string, status: string, boundMs = 60_000): Promise<any> {
  const deadline = Date.now() + boundMs;
  for (;;) {
    const run = (await callApi(emulator, `/runs/${runId}`)).body.data;
    if (run.attributes.status === status) return run;
    if (Date.now() > deadline) throw new Error(`run ${runId} did not reach ${status} within ${boundMs} ms; it is ${run.attributes.status}`);
    await delay(250);
  }
}

/** The text behind a URL the emulator handed out (a log-read-url needs no token, only trust in its certificate). */
export async function readUrl(emulator: RunningEmulator, url: string): Promise<string> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connect: { ca: emulator.caPem } });
  try {
    return await (await request(url, { dispatcher })).body.text();
  } finally {
    await dispatcher.close();
  }
}

/** A run's plan JSON as `GET /runs/:id/plan/json-output` serves it: the 307 it answers, followed to the blob. */
export async function readPlanJson(emulator: RunningEmulator, runId: string): Promise<any> {
  const { Agent, request } = await import('undici');
  const dispatcher = new Agent({ connect: { ca: emulator.caPem } });
  try {
    const answer = await request(`${emulator.url}/api/v2/runs/${runId}/plan/json-output`, { dispatcher, headers: { Authorization: `Bearer ${emulator.tokens.team}` } });
    await answer.body.dump();
    if (answer.statusCode !== 307) throw new Error(`the plan JSON of ${runId} answered ${answer.statusCode}, not 307`);
    return JSON.parse(await readUrl(emulator, String(answer.headers.location)));
  } finally {
    await dispatcher.close();
  }
}

/** The run a CLI command drove, from the link it printed (a speculative plan is not the workspace's current run). */
export function runIdIn(output: string): string {
  const id = /\/runs\/(run-[A-Za-z0-9]+)/.exec(output)?.[1];
  if (!id) throw new Error(`no run link in:\n${output}`);
  return id;
}
