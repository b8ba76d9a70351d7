// End-to-end runs inside a real VS Code (code-server 4.100.3 = VS Code 1.100.3) on this machine. Each scenario gets
// a throwaway HOME (so no real ~/.terraform.d credentials leak in), a copy of its fixture folder and a fresh
// code-server, torn down whatever happens:
//   basics  the extension on a plain folder, signed out;
//   demo    the emulator (demo seed, runs sped up) as hcpTerraform.address, its owner's token in the HOME's Terraform
//           credentials file, on test/fixtures/demo-app.
// In each: the mocha suite in the extension host (test/e2e/suite/<scenario>.*.test.ts), then a Playwright check of
// what a user sees, with a screenshot in test-results/. Exit code 0 only when all pass.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { format } from 'node:util';
import { launchBrowser } from './browser.mjs';
import { startCodeServer } from './codeServer.mjs';
import { startEmulatorProcess } from './emulatorProcess.mjs';
import { installCodeServer } from './installCodeServer.mjs';
import { uiChecks } from './uiCheck.mjs';

const extensionRoot = path.resolve('.');
const suiteIndex = path.resolve('out/test/e2e/suite/index.js');
const resultsDir = path.resolve('test-results');
const suiteTimeoutMs = 180_000;
const suiteStartMarker = 'e2e: suite starting';

const scenarios = [
  { name: 'basics', fixture: 'test/fixtures/e2e-workspace', openFile: undefined },
  { name: 'demo', fixture: 'test/fixtures/demo-app', emulatorSpeed: 20, openFile: 'main.tf' },
];

function workbenchUrl(serverUrl, folder, payload) {
  const { host } = new URL(serverUrl);
  const remote = (p) => `vscode-remote://${host}${p}`; // file:/// URIs silently run nothing in code-server
  const entries = Object.entries(payload).map(([key, value]) => [key, remote(value)]);
  return `${serverUrl}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(entries))}`;
}

/** Sets up a scenario's HOME, folder and emulator, runs `use`, and removes all of it afterwards. */
async function withScenario(scenario, use) {
  const home = mkdtempSync(path.join(os.tmpdir(), `hcp-e2e-${scenario.name}-`));
  const folder = path.join(home, path.basename(scenario.fixture));
  cpSync(path.resolve(scenario.fixture), folder, { recursive: true });
  const emulator = scenario.emulatorSpeed ? await startEmulatorProcess(home, { speed: scenario.emulatorSpeed }) : undefined;
  try {
    return await use({
      folder,
      emulator: emulator?.info,
      settings: emulator ? { 'hcpTerraform.address': emulator.info.url } : {},
      env: { HOME: home, HCP_E2E_SCENARIO: scenario.name, ...(emulator ? { HCP_E2E_EMULATOR_INFO: emulator.infoFile } : {}) },
    });
  } finally {
    emulator?.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

async function withCodeServer(bin, setup, use) {
  const server = await startCodeServer(bin, { settings: setup.settings, env: setup.env });
  const browser = await launchBrowser();
  try {
    return await use(server, browser);
  } finally {
    await browser.close();
    server.stop();
  }
}

async function runSuite(bin, setup) {
  return withCodeServer(bin, setup, async (server, browser) => {
    const page = await browser.context.newPage();
    let finish;
    const exitCode = new Promise((resolve) => (finish = resolve));
    // The workbench's own chatter comes first; print from the suite's start marker on, and everything if it never starts.
    const before = [];
    let started = false;
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      if (!started && line.includes(suiteStartMarker)) started = true;
      else if (started) process.stdout.write(`${line}\n`);
      else before.push(`[${type}] ${line}`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish(code));
    await page.goto(workbenchUrl(server.url, setup.folder, { extensionDevelopmentPath: extensionRoot, extensionTestsPath: suiteIndex }));
    let timer;
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => {
        console.error(`[e2e] the suite did not finish within ${suiteTimeoutMs / 1000} s`);
        resolve(1);
      }, suiteTimeoutMs);
    });
    const code = await Promise.race([exitCode, timeout]);
    clearTimeout(timer);
    if (!started) console.log(`[e2e] the suite never started; the workbench said:\n${before.join('\n')}`);
    // A failure keeps the workbench's logs (the extension's output channels, the language server's trace) for reading
    // afterwards: the temporary folders that hold them go when the suite ends. HCP_E2E_KEEP_LOGS=1 keeps them anyway.
    if (code !== 0 || process.env.HCP_E2E_KEEP_LOGS === '1') keepLogs(server.userDataDir, setup.env.HCP_E2E_SCENARIO);
    return code;
  });
}

function keepLogs(userDataDir, scenarioName) {
  const logs = path.join(userDataDir, 'logs');
  const kept = path.join(resultsDir, 'e2e-logs', scenarioName);
  try {
    rmSync(kept, { recursive: true, force: true });
    cpSync(logs, kept, { recursive: true });
    console.log(`[e2e] the workbench's logs are kept in ${path.relative(process.cwd(), kept)}`);
  } catch (error) {
    console.log(`[e2e] could not keep the workbench's logs (${error?.message ?? error})`);
  }
}

async function runUiCheck(bin, setup, scenario) {
  return withCodeServer(bin, setup, async (server, browser) => {
    const page = await browser.context.newPage();
    await page.goto(workbenchUrl(server.url, setup.folder, { extensionDevelopmentPath: extensionRoot }));
    return uiChecks[scenario.name](page, { resultsDir, folder: setup.folder, emulator: setup.emulator });
  });
}

async function runScenario(bin, scenario) {
  // HCP_E2E_UI_ONLY=1 skips the extension-host suite (for working on the Playwright checks); never set in CI.
  const uiOnly = process.env.HCP_E2E_UI_ONLY === '1' && !process.env.CI;
  console.log(`[e2e] ${scenario.name}: extension-host suite (VS Code 1.100 via code-server)${uiOnly ? ' skipped (HCP_E2E_UI_ONLY)' : ''}`);
  const suiteCode = uiOnly ? 0 : await withScenario(scenario, (setup) => runSuite(bin, setup));
  console.log(`[e2e] ${scenario.name}: user-interface check (Playwright, Chromium)`);
  const ui = await withScenario(scenario, (setup) => runUiCheck(bin, setup, scenario)).catch((error) => ({
    ok: false,
    passed: [],
    failures: [String(error?.message ?? error)],
  }));
  for (const line of ui.passed) console.log(`  ✔ ${line}`);
  for (const line of ui.failures) console.log(`  ✖ ${line}`);
  console.log(`ui: ${ui.passed.length} passed, ${ui.failures.length} failed`);
  if (ui.screenshot) console.log(`[e2e] screenshot: ${path.relative(process.cwd(), ui.screenshot)}`);
  return suiteCode === 0 && ui.ok;
}

async function main() {
  const bin = installCodeServer();
  mkdirSync(resultsDir, { recursive: true });
  const only = process.argv.slice(2);
  const outcomes = [];
  for (const scenario of scenarios.filter((s) => only.length === 0 || only.includes(s.name))) {
    outcomes.push([scenario.name, await runScenario(bin, scenario)]);
  }
  const failed = outcomes.filter(([, ok]) => !ok).map(([name]) => name);
  console.log(failed.length === 0 ? '[e2e] PASSED' : `[e2e] FAILED: ${failed.join(', ')}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[e2e] ${error?.stack ?? error}`);
    process.exit(1);
  },
);
