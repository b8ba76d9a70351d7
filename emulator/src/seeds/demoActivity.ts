// Keeps the demo alive: a "push to main" on staging-api every few (demo) minutes queues a VCS-triggered run that
// auto-applies, so someone watching the demo always has a run moving. Real-time clocks only: tests drive a manual
// clock and count runs, so they must never see a run nobody asked for.
import type { Clock } from '../clock';
import { runEngineOf } from '../runs';
import type { Store } from '../store/store';
import { seedId } from './ids';

export const demoPushIntervalMs = 3 * 60_000;

export function scheduleDemoActivity(store: Store, clock: Clock): void {
  let release = 5;
  const push = () => {
    const workspace = store.workspaceByName('acme-demo', 'staging-api');
    if (!workspace) return; // reset to another seed, or the workspace was removed: stop pushing
    runEngineOf(store).createRun({
      workspaceId: workspace.id,
      createdByUserId: seedId('user', 'olivia-owner'),
      queuerMayApply: true,
      message: `Release 2.${release++}.0`,
      source: 'svc-configuration-version',
    });
    clock.schedule(clock.progressDelay(demoPushIntervalMs), push);
  };
  clock.schedule(clock.progressDelay(demoPushIntervalMs), push);
}
