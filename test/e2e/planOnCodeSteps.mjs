// Plans on the code as a user sees them (Playwright): main.tf scrolled to its resource blocks, each with the server's
// verdict code lens and the extension's gutter icon, and the Runs view with a planned run's "Resource changes" open.
// Shared by the UI check (uiCheckDemo.mjs) and the demo's tour (test/demo/tour.mjs). Waits on the workbench's
// elements, bounded, never on a timer.
import { expand, row, runsPane, timeout } from './runsViewSteps.mjs';

/** A code lens that states a plan verdict (not the cloud block's run lens, which starts with the workspace name). */
const verdictLens = /\+ create|~ update|-\/\+ replace|- destroy|- delete|<= read|no changes|instances? change/;

export function verdictLenses(page) {
  return page.locator('.monaco-editor .codelens-decoration', { hasText: verdictLens });
}

/** Puts the cursor on a line (1-based) of the active editor with Ctrl+G, which scrolls it to the middle. */
export async function goToLine(page, line) {
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget .quick-input-box input');
  await input.waitFor({ state: 'visible', timeout });
  await input.fill(`:${line}`);
  await page.keyboard.press('Enter');
}

/** Waits for a verdict code lens in the visible part of the editor; returns the texts of those shown. */
export async function waitForVerdictLenses(page) {
  await verdictLenses(page).first().waitFor({ state: 'visible', timeout: 60_000 });
  return (await verdictLenses(page).allTextContents()).map((text) => text.replace(/\u00a0/g, ' ').trim());
}

/**
 * The gutter icons drawn from media/plan-*.svg: VS Code puts a decoration's gutter icon in the editor's margin as an
 * element whose CSS rule carries the image, so the computed background tells which icon it is (`create`, `update-stale`…).
 */
export async function planGutterIcons(page) {
  return page.locator('.monaco-editor .margin *').evaluateAll((elements) =>
    elements.map((element) => /plan-([a-z-]+?)-(?:dark|light)\.svg/.exec(getComputedStyle(element).backgroundImage)?.[1]).filter(Boolean),
  );
}

/** Waits (bounded, checked on each animation frame) until the margin shows a plan gutter icon; returns their kinds. */
export async function waitForPlanGutterIcons(page) {
  await page.waitForFunction(
    () => [...document.querySelectorAll('.monaco-editor .margin *')].some((element) => /plan-[a-z-]+-(dark|light)\.svg/.test(getComputedStyle(element).backgroundImage)),
    undefined,
    { timeout, polling: 'raf' },
  );
  return planGutterIcons(page);
}

/**
 * Expands a run, then its "Resource changes", and selects the first change, which opens its block in the editor.
 * Returns the change rows' texts (address and action).
 */
export async function openResourceChanges(page, runText) {
  await expand(page, runText, /^Resource changes$/);
  await expand(page, /^Resource changes$/);
  const change = row(page, /^(data\.)?[a-z0-9_]+\.[a-z0-9_]+/);
  await change.waitFor({ state: 'visible', timeout });
  const texts = await runsPane(page).locator('.monaco-list-row', { has: page.locator('.label-name', { hasText: /^(data\.)?[a-z0-9_]+\.[a-z0-9_]+/ }) }).allInnerTexts();
  await change.click();
  await page.locator('.editor-group-container.active .tab.active', { hasText: 'main.tf' }).waitFor({ state: 'visible', timeout });
  return texts.map((text) => text.replace(/\s+/g, ' ').trim());
}

/** Drags the sidebar's edge to `width` pixels, so the Runs view's rows show their descriptions in a picture. */
export async function widenSidebar(page, width) {
  const sidebar = await page.locator('.part.sidebar').boundingBox();
  if (!sidebar || sidebar.width >= width) return;
  const edge = sidebar.x + sidebar.width;
  const y = sidebar.y + sidebar.height / 2;
  await page.mouse.move(edge, y);
  await page.mouse.down();
  await page.mouse.move(sidebar.x + width, y, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction((min) => (document.querySelector('.part.sidebar')?.getBoundingClientRect().width ?? 0) >= min, width - 10, { timeout });
}

/**
 * main.tf (its `lines`, from disk) as the picture shows it: scrolled so its resource blocks fill the editor, with
 * their verdict lenses and gutter icons. Returns what is shown.
 */
export async function showResourceBlocks(page, lines) {
  const first = lines.findIndex((line) => line.startsWith('resource ')) + 1;
  await goToLine(page, Math.min(lines.length, first + 18));
  const lenses = await waitForVerdictLenses(page);
  const icons = await waitForPlanGutterIcons(page);
  return { lenses, icons };
}
