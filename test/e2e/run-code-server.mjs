// End-to-end run inside a real VS Code (code-server 4.100.3 = VS Code 1.100.3) on this machine:
//   1. the mocha suite in the extension host (test/e2e/suite, built to out/ by `node esbuild.mjs --tests`);
//   2. a Playwright check of what a user sees: the "HCP Terraform" container, its four views, a screenshot.
// Exit code 0 only when both pass. Each part gets a fresh code-server, torn down whatever happens.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { format } from 'node:util';
import path from 'node:path';
import { launchBrowser } from './browser.mjs';
import { startCodeServer } from './codeServer.mjs';
import { installCodeServer } from './installCodeServer.mjs';
import { checkSidebar } from './uiCheck.mjs';

const extensionRoot = path.resolve('.');
const suiteIndex = path.resolve('out/test/e2e/suite/index.js');
const resultsDir = path.resolve('test-results');
const suiteTimeoutMs = 180_000;
const suiteStartMarker = 'e2e: suite starting';

function workbenchUrl(serverUrl, folder, payload) {
  const { host } = new URL(serverUrl);
  const remote = (p) => `vscode-remote://${host}${p}`; // file:/// URIs silently run nothing in code-server
  const entries = Object.entries(payload).map(([key, value]) => [key, remote(value)]);
  return `${serverUrl}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(entries))}`;
}

async function withCodeServer(bin, use) {
  const server = await startCodeServer(bin);
  const browser = await launchBrowser();
  try {
    return await use(server, browser);
  } finally {
    await browser.close();
    server.stop();
  }
}

async function runSuite(bin, folder) {
  return withCodeServer(bin, async (server, browser) => {
    const page = await browser.context.newPage();
    let finish;
    const exitCode = new Promise((resolve) => (finish = resolve));
    // The workbench hands the extension host's console and the suite's result to these two page functions.
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
    await page.goto(workbenchUrl(server.url, folder, { extensionDevelopmentPath: extensionRoot, extensionTestsPath: suiteIndex }));
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
    return code;
  });
}

async function runUiCheck(bin, folder) {
  return withCodeServer(bin, async (server, browser) => {
    const page = await browser.context.newPage();
    await page.goto(workbenchUrl(server.url, folder, { extensionDevelopmentPath: extensionRoot }));
    return checkSidebar(page, resultsDir);
  });
}

async function main() {
  const bin = installCodeServer();
  mkdirSync(resultsDir, { recursive: true });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'hcp-e2e-workspace-'));
  cpSync(path.resolve('test/fixtures/e2e-workspace'), folder, { recursive: true });
  try {
    console.log('[e2e] extension-host suite (VS Code 1.100 via code-server)');
    const suiteCode = await runSuite(bin, folder);
    console.log('[e2e] user-interface check (Playwright, Chromium)');
    const ui = await runUiCheck(bin, folder).catch((error) => ({ ok: false, failures: [String(error?.message ?? error)] }));
    for (const line of ui.passed ?? []) console.log(`  ✔ ${line}`);
    for (const line of ui.failures) console.log(`  ✖ ${line}`);
    console.log(`ui: ${(ui.passed ?? []).length} passed, ${ui.failures.length} failed`);
    if (ui.screenshot) console.log(`[e2e] screenshot: ${path.relative(process.cwd(), ui.screenshot)}`);
    const ok = suiteCode === 0 && ui.ok;
    console.log(ok ? '[e2e] PASSED' : `[e2e] FAILED (suite exit ${suiteCode}, ui ${ui.ok ? 'ok' : 'failed'})`);
    return ok ? 0 : 1;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[e2e] ${error?.stack ?? error}`);
    process.exit(1);
  },
);
