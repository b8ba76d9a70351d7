// The runs module's public face. The emulator's index.ts creates one RunsModule next to its Store and calls
// registerRunRoutes; the seed calls createRun / seedRun to put runs in place.
import type { Clock } from '../clock';
import type { ConfigurationVersion } from '../store/model';
import type { Store } from '../store/store';
import { RunEngine } from './engine';

export { RunEngine, defaultRunMessage, type CreateRunInput } from './engine';
export { registerRunRoutes } from './routes';
export { seedRun, type SeedRunOptions } from './seeding';
export {
  applyRun,
  cancelRun,
  discardRun,
  forceCancelRun,
  forceExecuteRun,
  overridePolicy,
  isConfirmable,
  isDiscardable,
  isForceCancelable,
} from './actions';
export { realisticStateDurationsMs, forceCancelCoolOffMs, realisticInterruptStopMs } from './phases';
export type { RunRecord, PlannedChange } from './model';

/**
 * Creates the runs engine for a store and hooks it into the store's lifecycle: reset drops every run (the seed
 * then re-creates its own), deleting a workspace drops its runs, and an upload to a version with auto-queue-runs
 * queues a run as the service does.
 */
export function createRunEngine(store: Store, clock: Clock): RunEngine {
  const engine = new RunEngine(store, clock);
  engines.set(store, engine);
  store.resetHooks.push(() => engine.reset());
  store.workspaceDeleteHooks.push((workspaceId) => engine.deleteWorkspace(workspaceId));
  store.uploadHooks.push((version) => autoQueueRun(engine, version));
  return engine;
}

const engines = new WeakMap<Store, RunEngine>();

/**
 * The runs engine created for `store` by createRunEngine, so the seed (which receives only the store) can create
 * runs. Create the engine before seeding. Throws when none was created: runs cannot be seeded without one.
 */
export function runEngineOf(store: Store): RunEngine {
  const engine = engines.get(store);
  if (!engine) throw new Error('No runs engine for this store: call createRunEngine(store, clock) before seeding runs.');
  return engine;
}

function autoQueueRun(engine: RunEngine, version: ConfigurationVersion): void {
  if (!version.autoQueueRuns) return;
  const workspace = engine.store.workspace(version.workspaceId);
  if (!workspace) return;
  // The upload URL carries no identity; the run is attributed to the organization's first owner.
  const owner = engine.store.ownersTeam(workspace.organization)?.memberIds[0];
  if (!owner) return;
  engine.createRun({
    workspaceId: workspace.id,
    configurationVersionId: version.id,
    createdByUserId: owner,
    queuerMayApply: true,
    source: 'svc-configuration-version',
    planOnly: version.speculative,
    message: 'Triggered via API upload',
  });
}
