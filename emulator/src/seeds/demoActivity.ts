// Keeps the demo alive: a "push to main" on staging-api every few (demo) minutes uploads the next release's
// configuration and queues a VCS-triggered run that updates the API and auto-applies, so someone watching the demo
// always has a run moving. Real-time clocks only: tests drive a manual
// clock and count runs, so they must never see a run nobody asked for.
import type { Clock } from '../clock';
import { runEngineOf } from '../runs';
import type { Store } from '../store/store';
import { addConfigurationVersion } from './builders';
import { filesOf, stagingApiFiles } from './configurations';
import { seedId } from './ids';

export const demoPushIntervalMs = 3 * 60_000;

export function scheduleDemoActivity(store: Store, clock: Clock): void {
  let release = 5;
  const push = () => {
    const workspace = store.workspaceByName('acme-demo', 'staging-api');
    if (!workspace) return; // reset to another seed, or the workspace was removed: stop pushing
    const name = `2.${release++}.0`;
    const version = addConfigurationVersion(store, workspace, `release-${name}`, { source: 'github', files: filesOf(stagingApiFiles(name)), createdAt: store.now() });
    runEngineOf(store).createRun({
      workspaceId: workspace.id,
      createdByUserId: seedId('user', 'olivia-owner'),
      queuerMayApply: true,
      configurationVersionId: version.id,
      message: `Release ${name}`,
      source: 'svc-configuration-version',
    });
    clock.schedule(clock.progressDelay(demoPushIntervalMs), push);
  };
  clock.schedule(clock.progressDelay(demoPushIntervalMs), push);
}
