// The Change Requests, Variables and Organization views as a user sees them on the demo (#10): each opened from its
// header with real rows from the emulator, and one create action done through the UI (Create Variable from the
// command palette, answered in its quick picks and input boxes) that reaches the emulator and shows in the view.
// Screenshots in test-results/. Every step waits for what it needs (bounded), never on a timer.
import path from 'node:path';
import { sidebar, timeout } from './runsViewSteps.mjs';

function pane(page, name) {
  return sidebar(page).locator('.pane', { has: page.locator('.pane-header', { hasText: name }) }).first();
}

function paneRow(page, name, text) {
  return pane(page, name).locator('.monaco-list-row', { hasText: text }).first();
}

/** Expands one view and collapses the others, so its rows have the room. */
async function openOnly(page, name) {
  if (!(await sidebar(page).isVisible())) await page.locator('.activitybar .action-item a[aria-label^="HCP Terraform"]').click({ timeout });
  await sidebar(page).waitFor({ state: 'visible', timeout });
  for (const other of ['Runs', 'Change Requests', 'Variables', 'Organization']) {
    const header = pane(page, other).locator('.pane-header').first();
    const expanded = (await header.getAttribute('aria-expanded')) === 'true';
    if ((other === name) !== expanded) await header.click();
  }
}

async function shoot(page, resultsDir, name, screenshots) {
  const file = path.join(resultsDir, name);
  await page.screenshot({ path: file });
  screenshots.push(file);
}

export async function checkViews(page, { resultsDir, emulator, check }) {
  const screenshots = [];
  await check('the Change Requests view (beta) lists demo-app\'s open change requests and an Archived group', async () => {
    await openOnly(page, 'Change Requests');
    await pane(page, 'Change Requests').locator('.pane-header', { hasText: 'Beta' }).waitFor({ state: 'visible', timeout });
    await paneRow(page, 'Change Requests', 'demo-app').waitFor({ state: 'visible', timeout });
    await paneRow(page, 'Change Requests', /Archived \(\d+\)/).waitFor({ state: 'visible', timeout });
    await shoot(page, resultsDir, 'views-change-requests.png', screenshots);
  });
  await check('selecting a change request opens it as markdown with its rendered preview beside it', async () => {
    // The demo seed's newest open change request on demo-app (emulator/src/seeds/demo.ts), by olivia-owner.
    await paneRow(page, 'Change Requests', 'Make replica_count a number').filter({ hasText: 'olivia-owner' }).click();
    await page.locator('.tabs-container .tab', { hasText: /^Preview / }).first().waitFor({ state: 'visible', timeout });
    // The tab shows before the preview draws: the webview renders in frames of its own ~1-2 s later, and a screenshot
    // taken at the tab showed an empty pane. Wait for the rendered markdown in the shown webview's inner frame (it swaps
    // in as #active-frame once loaded): the heading without the source's `\_` escape, and the message's text.
    const preview = page.locator('iframe.webview.ready').filter({ visible: true }).contentFrame().locator('iframe#active-frame').contentFrame();
    await preview.locator('h1', { hasText: 'Make replica_count a number' }).waitFor({ state: 'visible', timeout });
    await preview.locator('p', { hasText: 'in terraform.tfvars does not convert to a' }).waitFor({ state: 'visible', timeout });
    await shoot(page, resultsDir, 'views-change-request-preview.png', screenshots);
  });
  await check('the Variables view shows demo-app\'s variables, sensitive ones as "sensitive", undeclared ones marked', async () => {
    await openOnly(page, 'Variables');
    await paneRow(page, 'Variables', 'legacy_flag').filter({ hasText: 'not declared in code' }).waitFor({ state: 'visible', timeout });
    await paneRow(page, 'Variables', 'AWS_SECRET_ACCESS_KEY').filter({ hasText: 'sensitive' }).waitFor({ state: 'visible', timeout });
    const text = await pane(page, 'Variables').innerText();
    if (text.includes('demo-secret-access-key-never-shown')) throw new Error('a sensitive value is on screen');
    await shoot(page, resultsDir, 'views-variables.png', screenshots);
  });
  await check('Create Variable from the command palette reaches the emulator and shows in the Variables view', async () => {
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout });
    await input.fill('>HCP Terraform: Create Variable');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Create Variable' }).first().waitFor({ state: 'visible', timeout });
    await page.keyboard.press('Enter');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    await rows.filter({ hasText: /Terraform variable|demo-app/ }).first().waitFor({ state: 'visible', timeout });
    if (await rows.filter({ hasText: 'demo-app' }).count()) {
      await rows.filter({ hasText: 'demo-app' }).first().click();
      await rows.filter({ hasText: 'Terraform variable' }).first().waitFor({ state: 'visible', timeout });
    }
    await rows.filter({ hasText: 'Terraform variable' }).first().click();
    await page.locator('.quick-input-message', { hasText: /^Key$/ }).or(page.locator('.quick-input-widget .quick-input-box input[placeholder="instance_count"]')).first().waitFor({ state: 'visible', timeout });
    await input.fill('ui_owner');
    await page.keyboard.press('Enter');
    await rows.filter({ hasText: 'Sensitive' }).first().waitFor({ state: 'visible', timeout });
    await shoot(page, resultsDir, 'views-create-variable.png', screenshots);
    await page.keyboard.press('Enter'); // no options
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Value of "ui_owner"' }).waitFor({ state: 'visible', timeout });
    await input.fill('platform-team');
    await page.keyboard.press('Enter');
    await page.locator('.quick-input-message', { hasText: 'Description of "ui_owner"' }).waitFor({ state: 'visible', timeout });
    await input.fill('Set through the UI check');
    await page.keyboard.press('Enter');
    await paneRow(page, 'Variables', 'ui_owner').waitFor({ state: 'visible', timeout });
    const url = `${emulator.url}/api/v2/vars?filter%5Borganization%5D%5Bname%5D=acme-demo&filter%5Bworkspace%5D%5Bname%5D=demo-app`;
    const body = await (await fetch(url, { headers: { Authorization: `Bearer ${emulator.tokens.team}` } })).json();
    const created = body.data.find((variable) => variable.attributes.key === 'ui_owner');
    if (created?.attributes.value !== 'platform-team') throw new Error(`the emulator has ${JSON.stringify(created?.attributes)}`);
  });
  await check('the Organization view shows the host, acme-demo, its plan and its features', async () => {
    await openOnly(page, 'Organization');
    await paneRow(page, 'Organization', 'acme-demo').waitFor({ state: 'visible', timeout });
    await paneRow(page, 'Organization', 'Premium').waitFor({ state: 'visible', timeout });
    await paneRow(page, 'Organization', 'Organization token').waitFor({ state: 'visible', timeout });
    await shoot(page, resultsDir, 'views-organization.png', screenshots);
  });
  return screenshots;
}
