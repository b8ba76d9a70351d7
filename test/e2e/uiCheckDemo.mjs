// What a user sees on the demo folder linked to the emulator: main.tf opens with the server's diagnostics.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checklist } from './uiCheck.mjs';
import { checkRunsView } from './uiCheckRuns.mjs';
import { row, sidebar } from './runsViewSteps.mjs';
import { checkPlanOnCode } from './uiCheckPlanOnCode.mjs';
import { checkViews } from './uiCheckViews.mjs';

const timeout = 30_000;

export async function checkDemo(page, { resultsDir, folder, emulator }) {
  const { passed, failures, check } = checklist();
  await page.waitForSelector('.monaco-workbench', { timeout });
  await check('main.tf opens from the command palette', async () => {
    await page.keyboard.press('Control+P');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout });
    await input.fill('main.tf');
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ state: 'visible', timeout });
    await page.keyboard.press('Enter');
    await page.locator('.monaco-editor .view-line').first().waitFor({ state: 'visible', timeout });
  });
  await check('the editor shows the server\'s diagnostics as squiggles', () =>
    page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').first().waitFor({ state: 'attached', timeout }),
  );
  await check('a code lens above the cloud block shows the workspace\'s current run', () =>
    page.locator('.monaco-editor .codelens-decoration', { hasText: 'demo-app:' }).first().waitFor({ state: 'visible', timeout }),
  );
  await check('the status bar shows demo-app and its current run for main.tf', () =>
    page.locator('.statusbar .statusbar-item', { hasText: 'demo-app:' }).first().waitFor({ state: 'visible', timeout }),
  );
  await check('the sidebar opened by itself on the linked folder and shows its workspace (token from the Terraform credentials file)', async () => {
    // The first linked folder opens the sidebar (a click on the container's icon now would close it again).
    await sidebar(page).waitFor({ state: 'visible', timeout });
    await row(page, 'demo-app').waitFor({ state: 'visible', timeout });
  });
  await check('the command palette offers Queue Plan…, Plan Local Changes and Toggle Plan on Code in the linked folder', () =>
    paletteOffers(page, ['HCP Terraform: Queue Plan…', 'HCP Terraform: Plan Local Changes', 'HCP Terraform: Toggle Plan on Code']),
  );
  const screenshot = path.join(resultsDir, 'demo-editor.png');
  await page.screenshot({ path: screenshot });
  await checkPlanOnCode(page, { resultsDir, folder, check });
  await check('the "Set workspace variable" quick fix asks for the value and sets it on the workspace', () =>
    setVariableFromQuickFix(page, folder, emulator),
  );
  await check('the "Delete workspace variable" quick fix asks a modal naming the variable; dismissed, the variable stays', () =>
    dismissDeleteFromQuickFix(page, folder, emulator, resultsDir),
  );
  await checkRunsView(page, { resultsDir, check });
  await checkViews(page, { resultsDir, emulator, check });
  return { ok: failures.length === 0, passed, failures, screenshot };
}

/** Each command is listed in the palette (its `when` clause holds); the palette is closed again with Escape. */
async function paletteOffers(page, titles) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  try {
    for (const title of titles) {
      await page.keyboard.press('F1');
      await input.waitFor({ state: 'visible', timeout });
      await input.fill(`>${title}`);
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ state: 'visible', timeout });
      await page.keyboard.press('Escape');
    }
  } finally {
    if (await input.isVisible()) await page.keyboard.press('Escape');
  }
}

/** Opens a file of the folder with Ctrl+P (the tour of the demo does the same). */
export async function openFile(page, name) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout });
  await input.fill(name);
  // The row Enter opens is the focused one: until the list has caught up with the typing, that is the last file
  // opened (seen: variables.tf opened again instead of main.tf).
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: name }).first().waitFor({ state: 'visible', timeout });
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: name }).first().waitFor({ state: 'visible', timeout });
  await page.locator('.monaco-editor .view-line').first().waitFor({ state: 'visible', timeout });
}

/** variables.tf, on `environment` (set nowhere): Ctrl+. → Set workspace variable → type a value → it is on the service. */
async function setVariableFromQuickFix(page, folder, emulator) {
  await openFile(page, 'variables.tf');
  const lines = readFileSync(path.join(folder, 'variables.tf'), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.startsWith('variable "environment"')) + 1;
  await page.keyboard.press('Control+G');
  await page.keyboard.type(`${line}:12`);
  await page.keyboard.press('Enter');
  await page.locator('.monaco-editor .squiggly-error, .monaco-editor .squiggly-warning').first().waitFor({ state: 'attached', timeout });
  await page.keyboard.press('Control+.');
  // Actions only: the list's group headers ("Quick Fix") are rows too, which the keyboard skips.
  const rows = page.locator('.action-widget .monaco-list-row.action');
  await rows.first().waitFor({ state: 'visible', timeout });
  const titles = await rows.allTextContents();
  const index = titles.findIndex((title) => title.includes('Set workspace variable "environment"'));
  if (index < 0) throw new Error(`no "Set workspace variable" quick fix among: ${titles.join(' | ')}`);
  // The action widget takes the keyboard only (a mouse click is blocked): move down to the row, then Enter.
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout });
  // The Problems panel lists the missing value until the server has set the variable and re-read the workspace.
  await page.keyboard.press('Control+Shift+M');
  const problem = page.locator('.markers-panel .monaco-list-row', { hasText: 'Variable "environment" has no value' });
  await problem.first().waitFor({ state: 'visible', timeout });
  await input.fill('staging');
  await page.keyboard.press('Enter');
  await problem.first().waitFor({ state: 'detached', timeout });
  const variable = await workspaceVariable(emulator, 'environment');
  if (variable?.attributes.value !== 'staging') throw new Error(`the workspace variable is ${JSON.stringify(variable?.attributes)}`);
}

/** One read of demo-app's variables on the emulator, as the owner. */
/** main.tf, on the workspace name (legacy_flag is not declared): Ctrl+. → Delete workspace variable → the modal; Escape. */
async function dismissDeleteFromQuickFix(page, folder, emulator, resultsDir) {
  await openFile(page, 'main.tf');
  const lines = readFileSync(path.join(folder, 'main.tf'), 'utf8').split('\n');
  const index0 = lines.findIndex((l) => l.includes('name = "demo-app"'));
  // On the workspace's name, where the undeclared-workspace-variable warning sits.
  const column = lines[index0].indexOf('"demo-app"') + 3;
  await page.keyboard.press('Control+G');
  await page.keyboard.type(`${index0 + 1}:${column}`);
  await page.keyboard.press('Enter');
  // The cursor is there (the status bar says so) and the warning is drawn before the quick fixes are asked for.
  await page.locator('.statusbar .statusbar-item', { hasText: `Ln ${index0 + 1}, Col ${column}` }).first().waitFor({ state: 'visible', timeout });
  await page.locator('.monaco-editor .squiggly-warning').first().waitFor({ state: 'attached', timeout });
  await page.keyboard.press('Control+.');
  const rows = page.locator('.action-widget .monaco-list-row.action');
  await rows.first().waitFor({ state: 'visible', timeout });
  const titles = await rows.allTextContents();
  const index = titles.findIndex((title) => title.includes('Delete workspace variable "legacy_flag"'));
  if (index < 0) throw new Error(`no "Delete workspace variable" quick fix among: ${titles.join(' | ')}`);
  for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const dialog = page.locator('.monaco-dialog-box', { hasText: 'Delete the variable "legacy_flag" of demo-app?' });
  await dialog.waitFor({ state: 'visible', timeout });
  await page.screenshot({ path: path.join(resultsDir, 'demo-delete-variable-modal.png') });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached', timeout });
  if (!(await workspaceVariable(emulator, 'legacy_flag'))) throw new Error('legacy_flag was deleted although the modal was dismissed');
}

async function workspaceVariable(emulator, key) {
  const url = `${emulator.url}/api/v2/vars?filter%5Borganization%5D%5Bname%5D=acme-demo&filter%5Bworkspace%5D%5Bname%5D=demo-app`;
  const body = await (await fetch(url, { headers: { Authorization: `Bearer ${emulator.tokens.owner}` } })).json();
  return body.data.find((variable) => variable.attributes.key === key);
}
