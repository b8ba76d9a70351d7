// Plans on the code as a user sees them on the demo folder: main.tf's resource blocks carry the latest plan's verdict
// as a code lens (`+ create`, `-/+ replace`…) and a gutter icon, and the run that needs confirmation lists its
// resource changes in the Runs view. Screenshot: test-results/plan-on-code.png.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openResourceChanges, showResourceBlocks, widenSidebar } from './planOnCodeSteps.mjs';
import { openRunsView, row } from './runsViewSteps.mjs';

const awaiting = 'Scale to three instances'; // the demo seed's run awaiting confirmation on demo-app: its plan finished

export async function checkPlanOnCode(page, { resultsDir, folder, check }) {
  await check('main.tf\'s resource blocks show the plan\'s verdicts as code lenses and gutter icons', async () => {
    const { lenses, icons } = await showResourceBlocks(page, readFileSync(path.join(folder, 'main.tf'), 'utf8').split('\n'));
    if (lenses.length === 0) throw new Error('no verdict lens');
    if (icons.length === 0) throw new Error('no plan gutter icon');
  });
  await check('a planned run lists its Resource changes in the Runs view, each selecting its block', async () => {
    await openRunsView(page);
    await widenSidebar(page, 460);
    const changes = await openResourceChanges(page, awaiting);
    if (!changes.some((text) => /\+ create|~ update|-\/\+ replace|- delete/.test(text))) throw new Error(`the changes read: ${changes.join(' | ')}`);
    await page.screenshot({ path: path.join(resultsDir, 'plan-on-code.png') });
    // Collapsed again, as the checks that follow expect the run.
    await row(page, awaiting).click();
  });
}
