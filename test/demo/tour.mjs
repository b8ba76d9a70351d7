// `npm run demo -- --screenshot FILE`: a headless tour of the demo, one picture per stop, each taken only once what
// it shows is on screen (the steps wait on the workbench's elements, never on a timer):
//   FILE-1-runs.png          the Runs view: demo-app's runs in several states, beside the folder's README (what to try)
//   FILE-2-context-menu.png  the context menu of the run that needs confirmation (Apply, Discard, ...)
//   FILE-3-log.png           the plan log of that run, highlighted
//   FILE-4-quick-fix.png     a diagnostic in variables.tf with its quick fixes
//   FILE-5-plan-on-code.png  main.tf with the latest plan's verdicts on its resource blocks, and that run's resource changes
//   FILE-6-palette.png       the command palette's HCP Terraform commands
//   FILE-7-run-options.png   Queue Plan's run options step (debugging mode, no refresh, configuration generation)
//   FILE-8-run-variable.png  Queue Plan's run variable step refusing an unquoted string as it is typed
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser } from '../e2e/browser.mjs';
import { openFile } from '../e2e/uiCheckDemo.mjs';
import { editorText, expand, openContextMenu, openRunsView, row, timeout } from '../e2e/runsViewSteps.mjs';
import { openResourceChanges, showResourceBlocks, widenSidebar } from '../e2e/planOnCodeSteps.mjs';

const awaiting = 'Scale to three instances'; // the demo seed's run awaiting confirmation

/** folderFile(page, name, lineStart) opens a file of the folder at a line; readLines(name) reads one from disk. */
export async function tour(url, file, folderFile, readLines) {
  const base = file.replace(/\.png$/i, '');
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const written = [];
  const shoot = async (page, name) => {
    const target = `${base}-${name}.png`;
    await page.screenshot({ path: target });
    written.push(target);
  };
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.goto(url);
    await openRunsView(page);
    await expand(page, 'demo-app', awaiting);
    await row(page, 'Add monitoring toggle').waitFor({ state: 'visible', timeout });
    // The README VS Code opens on start is a webview, rendered in frames of its own after the workbench.
    // Its inner frame swaps in when loaded: the one shown is #active-frame.
    await page.frameLocator('iframe.webview.ready').first().frameLocator('iframe#active-frame').locator('h1').first().waitFor({ state: 'visible', timeout });
    await shoot(page, '1-runs');

    const labels = await openContextMenu(page, awaiting);
    if (!labels.some((label) => label.startsWith('Apply Run'))) throw new Error(`the context menu offers no Apply Run: ${labels.join(' | ')}`);
    await shoot(page, '2-context-menu');
    await page.keyboard.press('Escape');

    await expand(page, awaiting, /^Plan$/);
    await row(page, /^Plan$/).click();
    await page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: /Terraform|Plan:|No changes/ }).first().waitFor({ state: 'visible', timeout });
    if (!/Terraform|Plan:|No changes/.test(await editorText(page))) throw new Error('the plan log did not open');
    await shoot(page, '3-log');

    await folderFile(page, 'variables.tf', 'variable "environment"');
    await page.keyboard.press('Control+.');
    await page.locator('.action-widget .monaco-list-row', { hasText: 'Set workspace variable' }).first().waitFor({ state: 'visible', timeout });
    await shoot(page, '4-quick-fix');
    await page.keyboard.press('Escape');

    await openFile(page, 'main.tf');
    await showResourceBlocks(page, readLines('main.tf'));
    await widenSidebar(page, 460);
    await openResourceChanges(page, awaiting);
    await shoot(page, '5-plan-on-code');

    // The palette as a user finds the product there: its category.
    await page.keyboard.press('Control+Shift+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout });
    await input.pressSequentially('HCP Terraform');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'HCP Terraform: Apply Run' }).first().waitFor({ state: 'visible', timeout });
    await shoot(page, '6-palette');

    // Queue Plan through its steps to the run options, then a run variable the service would refuse.
    await input.fill('>HCP Terraform: Queue Plan');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'HCP Terraform: Queue Plan' }).first().click();
    const title = page.locator('.quick-input-widget .quick-input-title');
    const step = async (text) => {
      await title.filter({ hasText: text }).waitFor({ state: 'visible', timeout });
    };
    // (The palette asks which workspace only when more than demo-app is linked or pinned.)
    await title.filter({ hasText: /which workspace|what kind of run/ }).waitFor({ state: 'visible', timeout });
    if (/which workspace/.test(await title.innerText())) await page.locator('.quick-input-list .monaco-list-row', { hasText: 'demo-app' }).first().click();
    for (const text of ['what kind of run', 'message', 'target only', 'replace']) {
      await step(text);
      await page.keyboard.press('Enter');
    }
    await step('run options');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Debugging mode' }).first().click();
    await shoot(page, '7-run-options');
    await page.keyboard.press('Enter');
    await step('run variables');
    await input.pressSequentially('region = eu-west-1');
    await page.locator('.quick-input-widget .quick-input-message', { hasText: 'not an HCL literal' }).waitFor({ state: 'visible', timeout });
    await shoot(page, '8-run-variable');
    await page.keyboard.press('Escape');
    return written;
  } finally {
    await browser.close();
  }
}

/** Opens a file of the folder with Ctrl+P and puts the cursor on the line that starts with `lineStart`. */
export async function openFileAt(page, name, lineStart, folder, readLines) {
  await openFile(page, name);
  const line = readLines(path.join(folder, name)).findIndex((l) => l.startsWith(lineStart)) + 1;
  await page.keyboard.press('Control+G');
  await page.keyboard.type(`${line}:12`);
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').first().waitFor({ state: 'attached', timeout });
}
