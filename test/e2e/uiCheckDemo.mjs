// What a user sees on the demo folder linked to the emulator: main.tf opens with the server's diagnostics.
import path from 'node:path';
import { checklist } from './uiCheck.mjs';

const timeout = 30_000;

export async function checkDemo(page, { resultsDir }) {
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
  await check('the sidebar knows the user is signed in (token from the Terraform credentials file)', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="HCP Terraform"]').click({ timeout });
    await page.locator('.welcome-view-content', { hasText: 'Signed in.' }).first().waitFor({ state: 'visible', timeout });
  });
  const screenshot = path.join(resultsDir, 'demo-editor.png');
  await page.screenshot({ path: screenshot });
  return { ok: failures.length === 0, passed, failures, screenshot };
}
