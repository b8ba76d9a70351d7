// The extension's activation inside a real VS Code (#13: activation ≤ 100 ms). Each launch is a fresh code-server
// (VS Code 1.100, the e2e runner's, cached in .cache/) and a fresh Chromium page on a small folder holding .tf files,
// so the extension activates at startup (workspaceContains) as it does for a user. Two readings per launch:
//   - VS Code's own: the Running Extensions editor (Developer: Show Running Extensions) shows "Startup Activation:
//     N ms" = code loading (reading, compiling and evaluating dist/client.js) + the activate() call until it hands
//     control back. VS Code exposes these times to no extension API, so they are read from its UI.
//   - the extension's own (client/src/activationTiming.ts): module evaluation and activate()'s synchronous part,
//     from its "activated in N ms" line, and the language server's start (not part of activation) from its "language
//     server started" line, read from the output channel's log file as the extension host writes it.
// The extension is installed as a user's would be (in the extensions folder, not as a development host).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { summary } from './client';

export interface ActivationLaunch {
  /** VS Code's figure: code loading + activate() call (its "Startup Activation"). */
  vscodeActivationMs?: number;
  /** The extension's figures (see ActivationTiming in client/src/activationTiming.ts). */
  own?: { moduleEvaluationMs: number; activateMs: number; activationMs: number; serverStartMs?: number };
}

export type ActivationResult = { launches: ActivationLaunch[]; vscodeActivationMs: Stats; ownActivationMs: Stats; moduleEvaluationMs: Stats; activateMs: Stats; serverStartMs: Stats } | { notMeasured: string };
type Stats = { p50: number; max: number; n: number };

const timeoutMs = 120_000;
const extensionRoot = path.resolve('.');

export async function activationScenario(launchCount = 3): Promise<ActivationResult> {
  // The e2e modules are JavaScript (the runner runs without tsx); imported here only when the bench gets this far.
  const { codeServerBin } = (await e2eModule('installCodeServer.mjs')) as { codeServerBin: string };
  const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(codeServerBin)) return { notMeasured: `code-server is not installed in .cache/ (node test/e2e/installCodeServer.mjs installs it, ~300 MB)` };
  if (!existsSync(chromium)) return { notMeasured: `Chromium is missing at ${chromium} (apt-get install -y chromium)` };
  const launches: ActivationLaunch[] = [];
  // What users run: the production bundle (minified, as the .vsix ships it); dist/ is rebuilt for development after.
  build('--production');
  try {
    for (let i = 0; i < launchCount; i++) {
      const launch = await launchOnce(codeServerBin);
      console.log(`  activation, launch ${i + 1}/${launchCount}: ${JSON.stringify(launch)}`);
      launches.push(launch);
    }
  } finally {
    build();
  }
  const stats = (values: Array<number | undefined>): Stats => {
    const present = values.filter((value): value is number => value !== undefined);
    return { p50: summary(present).p50, max: present.length ? Math.max(...present) : NaN, n: present.length };
  };
  return {
    launches,
    vscodeActivationMs: stats(launches.map((l) => l.vscodeActivationMs)),
    ownActivationMs: stats(launches.map((l) => l.own?.activationMs)),
    moduleEvaluationMs: stats(launches.map((l) => l.own?.moduleEvaluationMs)),
    activateMs: stats(launches.map((l) => l.own?.activateMs)),
    serverStartMs: stats(launches.map((l) => l.own?.serverStartMs)),
  };
}

/** The e2e runner's JavaScript modules (untyped: the runner runs without a compiler), by their file in test/e2e/. */
function e2eModule(file: string): Promise<unknown> {
  return import(pathToFileURL(path.resolve('test/e2e', file)).href);
}

type StartCodeServer = (
  bin: string,
  options: { env?: Record<string, string>; extensions?: Array<{ folder: string; id: string }> },
) => Promise<{ url: string; userDataDir: string; stop(): void }>;

function build(...flags: string[]): void {
  execFileSync(process.execPath, ['esbuild.mjs', ...flags], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function launchOnce(codeServerBin: string): Promise<ActivationLaunch> {
  const { startCodeServer } = (await e2eModule('codeServer.mjs')) as { startCodeServer: StartCodeServer };
  const { launchBrowser } = (await e2eModule('browser.mjs')) as { launchBrowser: () => Promise<{ context: BrowserContext; close(): Promise<void> }> };
  // A throwaway HOME (no real credentials read) and a copy of the small e2e folder (main.tf, terraform.tfvars).
  const home = mkdtempSync(path.join(os.tmpdir(), 'hcp-bench-activation-'));
  const folder = path.join(home, 'e2e-workspace');
  cpSync(path.resolve('test/fixtures/e2e-workspace'), folder, { recursive: true });
  // Installed as a user's extension (not a development host): the worktree, whose package.json points at dist/.
  const server = await startCodeServer(codeServerBin, { env: { HOME: home }, extensions: [{ folder: extensionRoot, id: extensionFolderName() }] });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
    const vscodeActivationMs = await readRunningExtensions(page);
    const logs = path.join(server.userDataDir, 'logs');
    const own = parseOwnLine(await waitForLogLine(logs, /activated in [\d.]+ ms.*/));
    const serverLine = await waitForLogLine(logs, /language server started ([\d.]+) ms after activation began/);
    if (own) own.serverStartMs = Number(/([\d.]+) ms/.exec(serverLine)?.[1]);
    return { vscodeActivationMs, own };
  } finally {
    await browser.close();
    server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

/** <publisher>.<name>-<version>: the folder name VS Code expects in its extensions folder. */
function extensionFolderName(): string {
  const { publisher, name, version } = JSON.parse(readFileSync('package.json', 'utf8'));
  return `${publisher}.${name}-${version}`;
}

/** The extension's line (client/src/activationTiming.ts describeActivation) back into figures. */
export function parseOwnLine(line: string): ActivationLaunch['own'] {
  const match = /activated in ([\d.]+) ms \(module evaluation ([\d.]+) ms, activate\(\) ([\d.]+) ms/.exec(line);
  if (!match) return undefined;
  return { activationMs: Number(match[1]), moduleEvaluationMs: Number(match[2]), activateMs: Number(match[3]) };
}

/** The first line matching `pattern` in any log file under `root`: read now, then on each change (bounded). */
async function waitForLogLine(root: string, pattern: RegExp): Promise<string> {
  const find = () => {
    for (const file of filesUnder(root)) {
      const match = pattern.exec(readFileSync(file, 'utf8'));
      if (match) return match[0];
    }
    return undefined;
  };
  return new Promise((resolve, reject) => {
    const watcher = watch(root, { recursive: true }, () => {
      const line = find();
      if (line) done(() => resolve(line));
    });
    const timer = setTimeout(() => done(() => reject(new Error(`no line matching ${pattern} in the logs within ${timeoutMs / 1000} s`))), timeoutMs);
    const done = (outcome: () => void) => {
      clearTimeout(timer);
      watcher.close();
      outcome();
    };
    const line = find();
    if (line) done(() => resolve(line));
  });
}

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

/** Opens Developer: Show Running Extensions and reads this extension's "Startup Activation: N ms". */
async function readRunningExtensions(page: Page): Promise<number | undefined> {
  await page.waitForSelector('.monaco-workbench', { timeout: timeoutMs });
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('>Developer: Show Running Extensions');
  await page.locator('.quick-input-list .monaco-list-row[aria-label*="Show Running Extensions"]').first().waitFor({ state: 'visible', timeout: 30_000 });
  await page.keyboard.press('Enter');
  const row = page.locator('.runtime-extensions-editor .monaco-list-row', { has: page.locator('.name', { hasText: 'HCP Terraform Runs' }) }).first();
  const time = row.locator('.activation-time');
  await time.filter({ hasText: /Activation: \d+ms/ }).waitFor({ state: 'visible', timeout: 30_000 }).catch(async (error) => {
    // What the editor showed instead, for whoever reads the error.
    mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/bench-running-extensions.png' });
    throw error;
  });
  const text = (await time.textContent()) ?? '';
  const match = /Activation: (\d+(?:\.\d+)?)ms/.exec(text);
  return match ? Number(match[1]) : undefined;
}
