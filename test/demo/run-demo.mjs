// `npm run demo`: the whole product on the emulator, no account needed.
//   1. the service emulator with the demo seed (organization acme-demo, runs progressing in real time);
//   2. a real VS Code (code-server) with this extension installed, opened on a copy of test/fixtures/demo-app, with
//      hcpTerraform.address pointing at the emulator and the owner's token in a Terraform credentials file
//      (~/.terraform.d/credentials.tfrc.json of a throwaway HOME, as `terraform login` would write it).
// Open the printed URL in a browser. Ctrl+C stops everything.
//   --port N       code-server's port (default 8080; 0 = any)
//   --smoke FILE   start, load the workbench in headless Chromium, write a screenshot to FILE, stop
//   --screenshot FILE  start, take the headless tour of test/demo/tour.mjs (Runs view, a run's context menu, a log,
//                  a quick fix, plans on the code), write FILE-1-runs.png … FILE-5-plan-on-code.png, stop (CI runs this)
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startCodeServer } from '../e2e/codeServer.mjs';
import { startEmulatorProcess } from '../e2e/emulatorProcess.mjs';
import { installCodeServer } from '../e2e/installCodeServer.mjs';

const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const smokeScreenshot = argument('--smoke', undefined);
const tourScreenshot = argument('--screenshot', undefined);
const headless = smokeScreenshot !== undefined || tourScreenshot !== undefined;
const port = Number(argument('--port', headless ? '0' : '8080'));
const manifest = JSON.parse(readFileSync('package.json', 'utf8'));

async function main() {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hcp-demo-'));
  const folder = path.join(home, 'demo-app');
  cpSync(path.resolve('test/fixtures/demo-app'), folder, { recursive: true });
  const emulator = await startEmulatorProcess(home);
  const codeServer = await startCodeServer(installCodeServer(), {
    port,
    env: { HOME: home },
    // The folder's README says what to try; VS Code opens it on start.
    settings: { 'hcpTerraform.address': emulator.info.url, 'workbench.startupEditor': 'readme' },
    extensions: [{ folder: path.resolve('.'), id: `${manifest.publisher}.${manifest.name}-${manifest.version}` }],
  });
  const stop = () => {
    codeServer.stop();
    emulator.stop();
    rmSync(home, { recursive: true, force: true });
  };
  const url = `${codeServer.url}/?folder=${encodeURIComponent(folder)}`;
  if (headless) {
    try {
      if (smokeScreenshot) await smoke(url, smokeScreenshot);
      if (tourScreenshot) {
        const { tour, openFileAt } = await import('./tour.mjs');
        const lines = (file) => readFileSync(file, 'utf8').split('\n');
        const written = await tour(url, tourScreenshot, (page, name, lineStart) => openFileAt(page, name, lineStart, folder, lines), (name) => lines(path.join(folder, name)));
        console.log(`[demo] tour done; screenshots:\n  ${written.join('\n  ')}`);
      }
    } finally {
      stop();
    }
    return;
  }
  console.log(`\nHCP Terraform Runs demo\n  VS Code:  ${url}\n  emulator: ${emulator.info.url} (organization ${emulator.info.organization}; tokens in ${path.join(home, 'emulator.json')})\nCtrl+C stops both.`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => { stop(); process.exit(0); });
}

async function smoke(url, screenshot) {
  const { launchBrowser } = await import('../e2e/browser.mjs');
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 30_000 });
    await page.locator('.activitybar .action-item a[aria-label^="HCP Terraform"]').click({ timeout: 30_000 });
    await page.locator('[id="workbench.view.extension.hcpTerraform"]').waitFor({ state: 'visible', timeout: 30_000 });
    mkdirSync(path.dirname(screenshot), { recursive: true });
    await page.screenshot({ path: screenshot });
    console.log(`[demo] workbench loaded with the extension; screenshot: ${screenshot}`);
  } finally {
    await browser.close();
  }
}

main().catch((error) => {
  console.error(`[demo] ${error?.stack ?? error}`);
  process.exit(1);
});
