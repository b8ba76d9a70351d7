// Which plan each linked folder shows on its code, and the overlay built from it (lsp-core side; the features read
// it through PlanOverlaySource). Per folder linked to a workspace:
//  - the plan of a run pinned with `showPlanOnCode` for that workspace, until a run whose plan finished later appears;
//  - else the newest run (the watcher's and commands' runs, queued-from-the-editor ones included) whose plan finished.
// The plan JSON is fetched once per plan (the API client caches it); the mapping onto the code is redone whenever
// the code changes. An edit of a file of the mapped folders after the overlay was made marks it stale. The time the
// overlay was made is used rather than the configuration's upload time: both clocks are this machine's, so no skew
// with the service's clock can hide an edit (edits between the upload and the plan's arrival are not caught).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Run, ServiceClient, TerraformPlan } from '../api';
import { isApiError, relatedId } from '../api';
import type { Disposable, PlanOverlaySource } from '../features/host';
import type { ModuleFolderModel } from '../model';
import type { PlanBlockVerdict, PlanInstanceChange, PlanOverlay } from '../protocol';
import type { FolderLinks } from '../workspaces/folderLinks';
import type { Timers } from '../workspaces/timers';
import { toInstanceChange } from './changes';
import { mapPlanToCode } from './mapping';
import type { ModuleCode, PlanMapping } from './mapping';

export interface PlanOverlaysOptions {
  links: FolderLinks;
  models: { get(folder: string): ModuleFolderModel | undefined; all(): ModuleFolderModel[] };
  clientFor(hostname: string): ServiceClient | undefined;
  timers: Timers;
  log(message: string): void;
}

/** A plan as fetched and folded: everything the overlay needs besides the code. */
export interface FoldedPlan {
  hostname: string;
  workspaceId: string;
  run: Run;
  planId: string;
  changes: PlanInstanceChange[];
  drift: PlanInstanceChange[];
}

interface FolderState {
  plan?: FoldedPlan;
  /** Local time the current plan was put on the code. */
  madeAt?: number;
  stale: boolean;
  overlay?: PlanOverlay;
  overlayJson?: string;
  /** The module folders the overlay covers (for staleness and re-mapping). */
  covered: Set<string>;
  loadingPlanId?: string;
}

interface Pin {
  run: Run;
  /** Runs whose plan had finished when the pin was made: only a later one replaces the pin. */
  knownRunIds: Set<string>;
}

/** Statuses a run only reaches once its plan has finished. */
const afterPlanStatuses = new Set([
  'planned', 'planned_and_finished', 'planned_and_saved', 'cost_estimating', 'cost_estimated', 'policy_checking', 'policy_override',
  'policy_soft_failed', 'policy_checked', 'confirmed', 'post_plan_running', 'post_plan_completed', 'post_plan_awaiting_decision',
  'pre_apply_running', 'pre_apply_completed', 'apply_queued', 'applying', 'applied',
]);

export function planFinished(run: Run): boolean {
  return afterPlanStatuses.has(run.attributes.status) || Boolean(run.attributes['status-timestamps']?.['planned-at']);
}

export class PlanOverlays implements PlanOverlaySource {
  private readonly states = new Map<string, FolderState>();
  private readonly pins = new Map<string, Pin>();
  private readonly listeners = new Set<(folder: string) => void>();
  private readonly loads = new Set<Promise<void>>();
  private enabled = true;
  private disposed = false;
  private readonly subscription: Disposable;

  constructor(private readonly options: PlanOverlaysOptions) {
    this.subscription = options.links.onDidChange((change) => {
      if (change.kind === 'snapshot') this.evaluate(change.folder);
      else {
        this.evaluate(change.folder);
        this.remapCovering(change.folder);
      }
    });
  }

  // ---- PlanOverlaySource ----

  overlayFor(folder: string): PlanOverlay | undefined {
    return this.states.get(path.resolve(folder))?.overlay;
  }

  overlays(): PlanOverlay[] {
    return [...this.states.values()].flatMap((state) => (state.overlay ? [state.overlay] : []));
  }

  blocksIn(uri: string): Array<{ overlay: PlanOverlay; block: PlanBlockVerdict }> {
    return this.overlays().flatMap((overlay) => overlay.blocks.filter((block) => block.uri === uri).map((block) => ({ overlay, block })));
  }

  onDidChange(listener: (folder: string) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  // ---- core side ----

  /** `hcpTerraform.planOverlay.enabled`. Off: every overlay goes away and no plan is fetched. */
  setEnabled(enabled: boolean): void {
    if (this.enabled === enabled) return;
    this.enabled = enabled;
    if (!enabled) for (const folder of [...this.states.keys()]) this.clear(folder);
    else for (const model of this.options.models.all()) this.evaluate(model.folder);
  }

  get isEnabled(): boolean {
    return this.enabled;
  }

  /** A file was edited (typed in, or changed on disk): overlays covering its folder may now be out of date. */
  fileEdited(file: string): void {
    const folder = path.dirname(file);
    for (const [root, state] of this.states) {
      if (!state.overlay || state.stale || !state.covered.has(folder)) continue;
      state.stale = true;
      this.publish(root, state);
    }
  }

  /** Puts a run's plan on the folders linked to its workspace; resolves with those folders once their overlay is built. */
  async pin(hostname: string, run: Run): Promise<string[]> {
    const workspaceId = relatedId(run, 'workspace');
    if (!workspaceId) return [];
    const folders = this.foldersOf(hostname, workspaceId);
    const knownRunIds = new Set<string>();
    for (const folder of folders) for (const candidate of this.options.links.linkOf(folder)?.knowledge?.allRuns() ?? []) if (planFinished(candidate)) knownRunIds.add(candidate.id);
    this.pins.set(pinKey(hostname, workspaceId), { run, knownRunIds });
    for (const folder of folders) this.evaluate(folder);
    await this.settled();
    return folders.filter((folder) => this.states.get(folder)?.overlay?.runId === run.id).map((folder) => pathToFileURL(folder).href);
  }

  /** Resolves once every plan fetch started so far has ended (tests, the pin command). */
  async settled(): Promise<void> {
    while (this.loads.size > 0) await Promise.all([...this.loads]);
  }

  /** A run's changes mapped onto the code of the folder linked to its workspace (the Runs view's "Resource changes"). */
  async changesOfRun(hostname: string, run: Run): Promise<Array<PlanInstanceChange & { uri?: string; range?: PlanBlockVerdict['range'] }>> {
    const client = this.options.clientFor(hostname);
    const planId = relatedId(run, 'plan');
    const workspaceId = relatedId(run, 'workspace');
    if (!client || !planId) return [];
    const result = await client.planOutput.getPlanJson(planId);
    if (result.status !== 'finished' || !result.plan) return [];
    const folded = fold(result.plan);
    const folder = workspaceId ? this.foldersOf(hostname, workspaceId)[0] : undefined;
    const mapping = folder ? this.map(folder, folded.changes, folded.drift) : undefined;
    // What the run changes: the plan also lists the instances it leaves alone (no-op), which are not changes.
    return folded.changes.filter((change) => change.action !== 'no-op').map((change) => {
      const block = mapping?.blocks.find((candidate) => candidate.instances.includes(change));
      return block ? { ...change, uri: block.uri, range: block.range } : change;
    });
  }

  dispose(): void {
    this.disposed = true;
    this.subscription.dispose();
    this.listeners.clear();
  }

  // ---- choosing and fetching ----

  private foldersOf(hostname: string, workspaceId: string): string[] {
    return this.options.links.linkedFolders().filter((folder) => {
      const knowledge = this.options.links.linkOf(folder)?.knowledge;
      return knowledge?.workspaceId === workspaceId && knowledge.target.hostname === hostname;
    });
  }

  /** The run whose plan the folder should show now, if any. */
  private chooseRun(hostname: string, workspaceId: string, runs: readonly Run[]): Run | undefined {
    const finished = runs.filter(planFinished).sort((a, b) => (b.attributes['created-at'] ?? '').localeCompare(a.attributes['created-at'] ?? ''));
    const key = pinKey(hostname, workspaceId);
    const pin = this.pins.get(key);
    if (pin) {
      const newer = finished.find((run) => !pin.knownRunIds.has(run.id) && run.id !== pin.run.id);
      if (!newer) return pin.run;
      this.pins.delete(key); // a plan finished after the pin: the newest plan is what the code shows again
    }
    return finished[0];
  }

  private evaluate(folder: string): void {
    if (this.disposed) return;
    const resolved = path.resolve(folder);
    const knowledge = this.options.links.linkOf(resolved)?.knowledge;
    if (!this.enabled || !knowledge || knowledge.state.kind !== 'linked' || !knowledge.workspaceId) {
      this.clear(resolved);
      return;
    }
    const hostname = knowledge.target.hostname;
    const workspaceId = knowledge.workspaceId;
    const run = this.chooseRun(hostname, workspaceId, knowledge.allRuns());
    const planId = run ? relatedId(run, 'plan') : undefined;
    const state = this.stateOf(resolved);
    if (!run || !planId) return; // keep what is shown: a workspace without a finished plan shows nothing new
    if (state.plan?.planId === planId) {
      if (state.plan.run !== run) {
        state.plan = { ...state.plan, run }; // the run moved on (applied, discarded): the hover says so
        this.rebuild(resolved, state);
      }
      return;
    }
    if (state.loadingPlanId === planId) return;
    const client = this.options.clientFor(hostname);
    if (!client) return;
    state.loadingPlanId = planId;
    const load = client.planOutput
      .getPlanJson(planId)
      .then((result) => {
        if (this.disposed || state.loadingPlanId !== planId || !this.enabled) return;
        if (result.status !== 'finished' || !result.plan) return; // not yet: the run's next change asks again
        const folded = fold(result.plan);
        state.plan = { hostname, workspaceId, run, planId, ...folded };
        state.madeAt = this.options.timers.now();
        state.stale = false;
        this.rebuild(resolved, state);
      })
      .catch((error: unknown) => this.options.log(`Could not put plan ${planId} on the code: ${isApiError(error) || error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        if (state.loadingPlanId === planId) state.loadingPlanId = undefined;
        this.loads.delete(load);
      });
    this.loads.add(load);
  }

  // ---- building ----

  private remapCovering(folder: string): void {
    const resolved = path.resolve(folder);
    for (const [root, state] of this.states) if (state.plan && (root === resolved || state.covered.has(resolved))) this.rebuild(root, state);
  }

  private map(folder: string, changes: PlanInstanceChange[], drift: PlanInstanceChange[]): PlanMapping | undefined {
    const root = this.codeOf(folder);
    return root ? mapPlanToCode(root, (candidate) => this.codeOf(candidate), changes, drift) : undefined;
  }

  private codeOf(folder: string): ModuleCode | undefined {
    const model = this.options.models.get(folder);
    if (!model) return undefined;
    const moved = model.index.all().flatMap((contribution) => (contribution.kind === 'terraform' ? (contribution.moved ?? []) : []));
    return { folder: model.folder, addresses: model.index.addresses(), moved };
  }

  private rebuild(folder: string, state: FolderState): void {
    const plan = state.plan;
    if (!plan) return;
    const mapping = this.map(folder, plan.changes, plan.drift);
    if (!mapping) return;
    state.covered = new Set(mapping.folders);
    const overlay: PlanOverlay = {
      folderUri: pathToFileURL(folder).href,
      hostname: plan.hostname,
      workspaceId: plan.workspaceId,
      runId: plan.run.id,
      planId: plan.planId,
      stale: state.stale,
      blocks: mapping.blocks,
      unmatched: mapping.unmatched,
    };
    if (plan.run.attributes.message) overlay.runMessage = plan.run.attributes.message;
    const plannedAt = plan.run.attributes['status-timestamps']?.['planned-at'];
    if (plannedAt) overlay.plannedAt = plannedAt;
    overlay.runStatus = plan.run.attributes.status;
    if (plan.run.attributes['refresh-only']) overlay.refreshOnly = true;
    state.overlay = overlay;
    this.publish(folder, state);
  }

  private publish(folder: string, state: FolderState): void {
    if (state.overlay) state.overlay = { ...state.overlay, stale: state.stale };
    const json = state.overlay ? JSON.stringify(state.overlay) : undefined;
    if (json === state.overlayJson) return;
    state.overlayJson = json;
    for (const listener of [...this.listeners]) {
      try {
        listener(folder);
      } catch (error) {
        this.options.log(`A plan overlay listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  private clear(folder: string): void {
    const state = this.states.get(folder);
    if (!state) return;
    this.states.delete(folder);
    state.loadingPlanId = undefined;
    if (state.overlay) {
      state.overlay = undefined;
      state.plan = undefined;
      this.publish(folder, state);
    }
  }

  private stateOf(folder: string): FolderState {
    let state = this.states.get(folder);
    if (!state) {
      state = { stale: false, covered: new Set([folder]) };
      this.states.set(folder, state);
    }
    return state;
  }
}

/** The plan's resource changes and drift, folded into the protocol's instance changes. */
export function fold(plan: TerraformPlan): { changes: PlanInstanceChange[]; drift: PlanInstanceChange[] } {
  return {
    changes: (plan.resource_changes ?? []).map(toInstanceChange),
    drift: (plan.resource_drift ?? []).map(toInstanceChange),
  };
}

function pinKey(hostname: string, workspaceId: string): string {
  return `${hostname}\u0000${workspaceId}`;
}
