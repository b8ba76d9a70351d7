// What a user does with the Runs view, step by step, in the real workbench (Playwright). Shared by the UI check
// (uiCheckRuns.mjs) and the demo's screenshot tour (test/demo/tour.mjs), so the tour shows exactly what is tested.
// Every step waits for what it needs to be on screen (bounded), never on a timer.

export const timeout = 30_000;

const sidebarSelector = '[id="workbench.view.extension.hcpTerraform"]';

export function sidebar(page) {
  return page.locator(sidebarSelector);
}

/** The Runs view's pane (its body holds the tree). */
export function runsPane(page) {
  return sidebar(page).locator('.pane', { has: page.locator('.pane-header', { hasText: 'Runs' }) }).first();
}

/** Opens the HCP Terraform container (unless it is already open) and waits for the Runs tree to have rows. */
export async function openRunsView(page) {
  await page.waitForSelector('.monaco-workbench', { timeout });
  if (!(await sidebar(page).isVisible())) {
    await page.locator('.activitybar .action-item a[aria-label^="HCP Terraform"]').click({ timeout });
  }
  await sidebar(page).waitFor({ state: 'visible', timeout });
  await runsPane(page).locator('.monaco-list-row').first().waitFor({ state: 'visible', timeout });
}

/** A row of the Runs tree whose text (label and description) contains `text` (a RegExp matches the label alone). */
export function row(page, text) {
  if (text instanceof RegExp) return runsPane(page).locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: text }) }).first();
  return runsPane(page).locator('.monaco-list-row', { hasText: text }).first();
}

/** Expands a collapsed row (a workspace or a run) and waits for one of its children to show. */
export async function expand(page, text, childText) {
  const target = row(page, text);
  await target.waitFor({ state: 'visible', timeout });
  if ((await target.getAttribute('aria-expanded')) !== 'true') await target.click();
  if (childText) await row(page, childText).waitFor({ state: 'visible', timeout });
}

/**
 * Right-clicks a row and returns the context menu's item labels once it is open. A row the tree re-renders under
 * the click (its run changed that moment) opens no menu: the click is given again, as a user would, within the bound.
 */
export async function openContextMenu(page, text) {
  const menu = page.locator('.context-view .monaco-menu');
  const deadline = Date.now() + timeout;
  for (;;) {
    await row(page, text).click({ button: 'right', timeout });
    try {
      await menu.waitFor({ state: 'visible', timeout: Math.min(5_000, Math.max(1, deadline - Date.now())) });
      break;
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await page.keyboard.press('Escape');
    }
  }
  const items = menu.locator('.action-item:not(.disabled) .action-label');
  await items.first().waitFor({ state: 'visible', timeout });
  return (await items.allTextContents()).map((label) => label.trim()).filter(Boolean);
}

/** Picks an entry of the open context menu. */
export async function chooseMenuItem(page, label) {
  await page.locator('.context-view .monaco-menu .action-item .action-label', { hasText: label }).first().click();
}

/** Answers the open modal dialog with the button labelled `label`. */
export async function answerDialog(page, label) {
  const button = page.locator('.monaco-dialog-box .dialog-buttons .monaco-button', { hasText: label }).first();
  await button.waitFor({ state: 'visible', timeout });
  await button.click();
}

/** Leaves an optional input box (a comment) empty. */
export async function skipInputBox(page) {
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout });
  await page.keyboard.press('Enter');
}

/** The text of the active editor, as rendered (non-breaking spaces as spaces). */
export async function editorText(page) {
  const lines = await page.locator('.editor-group-container.active .monaco-editor .view-line').allTextContents();
  return lines.map((line) => line.replace(/\u00a0/g, ' ')).join('\n');
}
