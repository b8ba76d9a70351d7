// Shared by the in-host test files: the extension under test, the demo emulator, and waiting on events with a bound.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../client/src/extension';
import { runDetailsRequest, type RunSummary } from '../../../server/src/protocol';

export const extensionId = 'hcp-terraform-runs.hcp-terraform-runs';

export function extension(): vscode.Extension<ExtensionApi> {
  const found = vscode.extensions.getExtension<ExtensionApi>(extensionId);
  assert.ok(found, `extension ${extensionId} is not installed in this host`);
  return found;
}

export function languageClient() {
  const client = extension().exports.languageClient();
  assert.ok(client, 'the language client was not created');
  return client;
}

export interface EmulatorInfo {
  url: string;
  organization: string;
  tokens: Record<'owner' | 'member' | 'reader' | 'team' | 'organization', string>;
}

/** The emulator the runner started for this scenario (its --info file). */
export function emulatorInfo(): EmulatorInfo {
  const file = process.env.HCP_E2E_EMULATOR_INFO;
  assert.ok(file, 'HCP_E2E_EMULATOR_INFO is not set: this test needs the demo scenario');
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * GET on the emulator's API with the owners team's token, to check what the extension did. Not the owner's: the
 * extension signs in as the owner, and the service's 30 requests a second are counted per caller, so a test's
 * checks would spend the extension's budget and get (or cause) a 429 under load.
 */
export async function emulatorGet(path: string): Promise<any> {
  const info = emulatorInfo();
  const response = await fetch(`${info.url}/api/v2${path}`, { headers: { Authorization: `Bearer ${info.tokens.team}` } });
  assert.equal(response.status, 200, `GET ${path} answered ${response.status}`);
  return response.json();
}

/**
 * Resolves with the first value `check` returns that is not undefined: checked now, then each time `event` fires.
 * Rejects after `timeoutMs` with the description. No polling on timers: the event drives it.
 */
export function waitFor<T>(
  description: string,
  event: (listener: () => void) => { dispose(): void },
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const finish = (outcome: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      subscription.dispose();
      outcome();
    };
    const attempt = async () => {
      try {
        const value = await check();
        if (value !== undefined) finish(() => resolve(value));
      } catch (error) {
        finish(() => reject(error));
      }
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}`))), timeoutMs);
    const subscription = event(() => void attempt());
    void attempt();
  });
}

/** POST to the emulator's API as the owner (JSON:API body), returning the parsed answer. */
export async function emulatorPost(path: string, body: unknown): Promise<any> {
  const info = emulatorInfo();
  const response = await fetch(`${info.url}/api/v2${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${info.tokens.owner}`, 'Content-Type': 'application/vnd.api+json' },
    body: JSON.stringify(body),
  });
  assert.ok(response.status >= 200 && response.status < 300, `POST ${path} answered ${response.status}`);
  return response.status === 204 ? undefined : response.json();
}

/** The id of a workspace of the demo organization. */
export async function workspaceId(name: string): Promise<string> {
  return (await emulatorGet(`/organizations/acme-demo/workspaces/${name}`)).data.id;
}

/** Queues a run on a demo workspace through the API (as another client would), returning its id. */
export async function queueRunOnService(workspace: string, message: string, attributes: Record<string, unknown> = {}): Promise<string> {
  const id = await workspaceId(workspace);
  const created = await emulatorPost('/runs', { data: { type: 'runs', attributes: { message, ...attributes }, relationships: { workspace: { data: { type: 'workspaces', id } } } } });
  return created.data.id;
}

type PromptName = keyof ExtensionApi['seams']['prompts'];

/**
 * Answers the extension's prompts from a script while `work` runs: each call of a prompt takes the next answer
 * given for that prompt (a function receives what was asked). Every call is recorded; the real prompts come back after.
 */
export async function withPrompts<T>(
  answers: Partial<Record<PromptName, Array<unknown | ((...args: any[]) => unknown)>>>,
  work: (asked: Array<{ prompt: PromptName; args: unknown[] }>) => Thenable<T> | Promise<T>,
): Promise<T> {
  const prompts = extension().exports.seams.prompts as unknown as Record<PromptName, (...args: unknown[]) => unknown>;
  const saved = { ...prompts };
  const asked: Array<{ prompt: PromptName; args: unknown[] }> = [];
  for (const name of Object.keys(saved) as PromptName[]) {
    prompts[name] = async (...args: unknown[]) => {
      asked.push({ prompt: name, args });
      const queue = answers[name];
      if (!queue || queue.length === 0) return undefined; // unscripted: dismissed, as a user pressing Escape
      const next = queue.shift();
      if (typeof next !== 'function') return next;
      const items = args[0] && typeof (args[0] as Thenable<unknown>).then === 'function' ? await args[0] : args[0];
      return (next as (...a: unknown[]) => unknown)(items, ...args.slice(1));
    };
  }
  try {
    return await work(asked);
  } finally {
    Object.assign(prompts, saved);
  }
}

/** The run and its workspace's current run as the emulator has them (for a failure's message). */
async function serviceSideOf(runId: string): Promise<string> {
  try {
    const run = (await emulatorGet(`/runs/${runId}`)).data;
    const workspaceId = run.relationships?.workspace?.data?.id;
    const workspace = workspaceId ? (await emulatorGet(`/workspaces/${workspaceId}`)).data : undefined;
    const holderId = workspace?.relationships?.['current-run']?.data?.id;
    const holder = holderId && holderId !== runId ? (await emulatorGet(`/runs/${holderId}`)).data : undefined;
    const describe = (r: any) => `${r.id} ${r.attributes.status} ${JSON.stringify(r.attributes.actions)} "${r.attributes.message}" (${JSON.stringify(r.attributes['status-timestamps'])})`;
    // Whether the extension kept reading it, and whether a 429 could have paused its watcher.
    const log = (await (await fetch(`${emulatorInfo().url}/_emulator/requests`)).json()) as Array<{ time: string; method: string; path: string; status: number; tokenRole?: string }>;
    const reads = log.filter((r) => r.method === 'GET' && r.path.split('?')[0] === `/api/v2/runs/${runId}`);
    const since = Date.now() - 120_000;
    const refused = log.filter((r) => r.status === 429 && Date.parse(r.time) >= since).map((r) => `${r.time} ${r.tokenRole ?? '?'} ${r.method} ${r.path.slice(0, 80)}`);
    const side = `the emulator has ${describe(run)}${holder ? `, behind ${describe(holder)}` : ', holding its workspace'}`;
    return `${side}; GET /runs/${runId} ${reads.length} times, the last at ${reads.at(-1)?.time ?? 'never'}; 429s in the last 2 minutes: ${refused.length ? refused.join(' | ') : 'none'}`;
  } catch (error) {
    return `the emulator could not be asked (${error instanceof Error ? error.message : String(error)})`;
  }
}

/**
 * Waits until the run satisfies `done`, as the server reports it: the run is read once (which makes the server
 * follow it while it is active), then every hcpTerraform/runsChanged is checked. No timers: the events drive it.
 */
export async function runReaches(runId: string, description: string, done: (run: RunSummary) => boolean, timeoutMs = 45_000): Promise<RunSummary> {
  let latest: RunSummary | undefined;
  const events = extension().exports.events;
  const changed = new vscode.EventEmitter<void>();
  const subscription = events.onRunsChanged((params) => {
    const run = params.runs.find((r) => r.id === runId);
    if (run) {
      latest = run;
      changed.fire();
    }
  });
  try {
    // By method name: the test bundle's own copy of the protocol types is not the client's (parameter structures differ).
    latest = ((await languageClient().sendRequest(runDetailsRequest.method, { runId })) as { run: RunSummary }).run;
    return await waitFor(`run ${runId} to be ${description}`, changed.event, () => (latest && done(latest) ? latest : undefined), timeoutMs);
  } catch (error) {
    // Says whether the run stood still on the service or its change never reached the extension.
    throw new Error(`${error instanceof Error ? error.message : String(error)}; the extension last saw ${latest ? `${latest.status} ${JSON.stringify(latest.actions)}` : 'nothing'}; ${await serviceSideOf(runId)}`);
  } finally {
    subscription.dispose();
    changed.dispose();
  }
}
