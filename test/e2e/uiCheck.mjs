// What a user sees: the activity-bar container, its four views with their welcome text, and a screenshot
// (test-results/, ignored by git) that a person can look at. Selectors as measured on VS Code 1.100.
import path from 'node:path';
import { checkDemo } from './uiCheckDemo.mjs';

const containerTitle = 'HCP Terraform';
const viewNames = ['Runs', 'Change Requests', 'Variables', 'Organization'];
const timeout = 30_000;

/** Runs named checks, collecting what passed and what failed (with the first line of the reason). */
export function checklist() {
  const passed = [];
  const failures = [];
  const check = async (name, action) => {
    try {
      await action();
      passed.push(name);
    } catch (error) {
      failures.push(`${name}: ${String(error?.message ?? error).split('\n')[0]}`);
    }
  };
  return { passed, failures, check };
}

async function checkSidebar(page, { resultsDir }) {
  const { passed, failures, check } = checklist();
  await page.waitForSelector('.monaco-workbench', { timeout });
  const container = page.locator(`.activitybar .action-item a[aria-label^="${containerTitle}"]`);
  await check(`the activity bar shows "${containerTitle}"`, () => container.waitFor({ state: 'visible', timeout }));
  await check('clicking it opens the container with its four views', async () => {
    await container.click();
    const sidebar = page.locator('[id="workbench.view.extension.hcpTerraform"]');
    await sidebar.waitFor({ state: 'visible', timeout });
    for (const name of viewNames) {
      await sidebar.locator('.pane-header', { hasText: name }).first().waitFor({ state: 'visible', timeout });
    }
  });
  await check('the Runs view tells the user to sign in, instead of an empty pane', () =>
    page.locator('.welcome-view-content', { hasText: 'Sign in to HCP Terraform' }).first().waitFor({ state: 'visible', timeout }),
  );
  const screenshot = path.join(resultsDir, 'sidebar.png');
  await page.screenshot({ path: screenshot });
  return { ok: failures.length === 0, passed, failures, screenshot };
}

/** The checks of each e2e scenario, by name (see run-code-server.mjs). */
export const uiChecks = {
  basics: checkSidebar,
  demo: checkDemo,
};
