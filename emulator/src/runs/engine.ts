// Drives runs through the state machine (phases.ts) on the emulator's clock, one active run per workspace:
// a run that needs the workspace waits in `pending` until the run ahead of it is done, holds the workspace
// (workspace.lockedBy / currentRunId) while it plans and applies, and lets the next one go when it ends.
// Plan-only runs never wait or lock; saved-plan runs plan freely and queue for the workspace once confirmed, and are
// discarded when another run applies first (savedPlans.ts).
import type { Clock, ScheduledTask } from '../clock';
import { newId, randomBase62 } from '../store/ids';
import type { Workspace } from '../store/model';
import type { Store } from '../store/store';
import { applyEntryEffects } from './effects';
import type { LogRecord, RunRecord, RunVariable, TaskStageRecord } from './model';
import { nextStatus, noTasks, realisticStateDurationsMs, type PolicyOutcome, type RunPath, type StageTasks } from './phases';
import { RunRecords } from './records';
import { discardIfOutdated, outdateSavedPlans } from './savedPlans';
import { isFinal, statusTimestamp, timestampKey } from './statuses';

/** The spec's default run message (spec §4.2: "a fixed text that says the run was queued manually via the API"). */
export const defaultRunMessage = 'Queued manually via the Terraform Enterprise API';

/** Everything a new run is made from; the route validates a request body into this. */
export interface CreateRunInput {
  workspaceId: string;
  createdByUserId: string;
  /** Whether the queuer may apply runs on the workspace: auto-apply needs it (notes §4.7). */
  queuerMayApply: boolean;
  /** Default: the workspace's most recently used configuration version. */
  configurationVersionId?: string;
  message?: string;
  /** Wire value; default `svc-api`. */
  source?: string;
  isDestroy?: boolean;
  refresh?: boolean;
  refreshOnly?: boolean;
  /** Default: the configuration version's `speculative` flag. */
  planOnly?: boolean;
  savePlan?: boolean;
  /** Default: the workspace's auto-apply setting. */
  autoApply?: boolean;
  allowEmptyApply?: boolean;
  allowConfigGeneration?: boolean;
  debuggingMode?: boolean;
  targetAddrs?: string[];
  replaceAddrs?: string[];
  variables?: RunVariable[];
  engineVersion?: string;
}

export class RunEngine {
  readonly records = new RunRecords();
  /** Workspace id → the run holding it. */
  private readonly holders = new Map<string, string>();
  private readonly timers = new Map<string, ScheduledTask>();

  constructor(
    readonly store: Store,
    readonly clock: Clock,
  ) {}

  run(id: string): RunRecord | undefined {
    return this.records.runs.get(id);
  }

  /** Creates a run as POST /runs does and sets it going. Throws a plain Error for references that do not exist. */
  createRun(input: CreateRunInput, createdAt: Date = this.clock.now()): RunRecord {
    const workspace = this.store.workspace(input.workspaceId);
    if (!workspace) throw new Error(`No workspace ${input.workspaceId}.`);
    const versionId = input.configurationVersionId ?? workspace.latestConfigurationVersionId;
    const version = versionId ? this.store.configurationVersion(versionId) : undefined;
    if (!version) throw new Error(`Workspace ${workspace.name} has no configuration version to run.`);
    const planOnly = input.planOnly ?? version.speculative;
    const run: RunRecord = {
      id: newId('run'),
      workspaceId: workspace.id,
      organization: workspace.organization,
      status: 'pending',
      statusTimestamps: { 'plan-queueable-at': statusTimestamp(createdAt) },
      createdAt,
      updatedAt: createdAt,
      message: input.message ?? defaultRunMessage,
      source: input.source ?? 'svc-api',
      triggerReason: 'manual',
      isDestroy: input.isDestroy ?? false,
      refresh: input.refresh ?? true,
      refreshOnly: input.refreshOnly ?? false,
      planOnly,
      savePlan: input.savePlan ?? false,
      autoApply: (input.autoApply ?? workspace.autoApply) && input.queuerMayApply && !planOnly,
      allowEmptyApply: input.allowEmptyApply ?? false,
      allowConfigGeneration: input.allowConfigGeneration ?? false,
      debuggingMode: input.debuggingMode ?? false,
      targetAddrs: input.targetAddrs ?? null,
      replaceAddrs: input.replaceAddrs ?? null,
      variables: input.variables ?? [],
      engineVersion: input.engineVersion ?? workspace.terraformVersion,
      configurationVersionId: version.id,
      createdByUserId: input.createdByUserId,
      confirmedByUserId: null,
      canceledByUserId: null,
      comments: [],
      planId: newId('plan'),
      applyId: newId('apply'),
      costEstimateId: null,
      policyCheckIds: [],
      taskStageIds: [],
      planFailed: false,
      hasChanges: false,
      changes: [],
      canceledAt: null,
      forceCancelAvailableAt: null,
      policyOverridden: false,
      confirmRequested: false,
      queuedAt: createdAt.getTime(),
    };
    this.createParts(run, workspace, createdAt);
    this.records.runs.set(run.id, run);
    // "Most recently used" (spec §4.2): running a version makes it the workspace's default for the next run.
    workspace.latestConfigurationVersionId = version.id;
    this.kick(run);
    return run;
  }

  /** The path rules for this run right now (features and workspace settings are read live). */
  pathOf(run: RunRecord): RunPath {
    const workspace = this.store.workspace(run.workspaceId);
    const version = this.store.configurationVersion(run.configurationVersionId);
    const has = (feature: string) => this.store.hasFeature(run.organization, feature);
    const tasks = (stage: string): StageTasks => {
      if (!workspace || !has('run-tasks')) return noTasks;
      const of = workspace.runTasks.filter((t) => t.stage === stage);
      return { present: of.length > 0, fails: of.some((t) => t.enforcement === 'mandatory' && !t.passes) };
    };
    return {
      fetchesFromVcs: version?.ingress != null,
      prePlanTasks: tasks('pre_plan'),
      postPlanTasks: tasks('post_plan'),
      preApplyTasks: tasks('pre_apply'),
      postApplyTasks: tasks('post_apply'),
      planErrors: run.planFailed || (workspace?.planOutcome.errors ?? false),
      hasChanges: run.hasChanges,
      costEstimation: run.costEstimateId !== null,
      policy: policyOutcome(workspace, has('policy-enforcement')),
      planOnly: run.planOnly,
      savePlan: run.savePlan,
      allowEmptyApply: run.allowEmptyApply,
      autoApply: run.autoApply,
      policyOverridden: run.policyOverridden,
      confirmed: run.confirmRequested,
    };
  }

  /** The run holding the workspace, if any. */
  holderOf(workspaceId: string): RunRecord | undefined {
    const id = this.holders.get(workspaceId);
    return id ? this.records.runs.get(id) : undefined;
  }

  /** Moves a run to `status` at `at` (clock time), with every side effect, and schedules what follows. */
  transition(run: RunRecord, status: string, at: Date = this.clock.now()): void {
    this.cancelTimer(run.id);
    run.status = status;
    run.statusTimestamps[timestampKey(status)] = statusTimestamp(at);
    run.updatedAt = at;
    if (status === 'canceled' || status === 'force_canceled') run.canceledAt = at;
    applyEntryEffects(run, status, {
      store: this.store,
      records: this.records,
      atMs: at.getTime(),
      expectedMs: this.clock.progressDelay(realisticStateDurationsMs[status] ?? 0),
    });
    // The new state outdates the workspace's saved plans: the service discards them rather than let one undo this apply.
    if (status === 'applied') outdateSavedPlans(this, run, at);
    if (isFinal(status)) {
      this.release(run);
      return;
    }
    if (discardIfOutdated(this, run, at)) return;
    this.scheduleNext(run);
  }

  /** Call when something outside the runs module changed a workspace (e.g. a user unlocked it). */
  workspaceChanged(workspaceId: string): void {
    this.startNextWaiting(workspaceId);
  }

  /** The workspace was deleted: its runs stop where they are (no clock task of theirs fires) and are forgotten. */
  deleteWorkspace(workspaceId: string): void {
    for (const run of this.records.runsOfWorkspace(workspaceId)) this.cancelTimer(run.id);
    this.holders.delete(workspaceId);
    this.records.deleteWorkspace(workspaceId);
  }

  /** Drops all runs and timers (emulator reset). */
  reset(): void {
    for (const timer of this.timers.values()) timer.cancel();
    this.timers.clear();
    this.holders.clear();
    this.records.clear();
  }

  /** Schedules a run's next step, or nothing when it is paused, final, or waiting for its workspace. */
  scheduleNext(run: RunRecord): void {
    this.cancelTimer(run.id);
    if (isFinal(run.status) || this.isWaitingForWorkspace(run)) return;
    const upcoming = nextStatus(run.status, this.pathOf(run));
    if (upcoming === undefined) return;
    // A saved plan is saved the moment its checks are done: no reader (the CLI waits for it) sees a gap between.
    if (upcoming === 'planned_and_saved') return void this.transition(run, upcoming);
    const delay = this.clock.progressDelay(realisticStateDurationsMs[run.status] ?? 1000);
    this.schedule(run, delay, () => {
      const next = nextStatus(run.status, this.pathOf(run));
      if (next !== undefined) this.transition(run, next);
    });
  }

  /** A task on the clock tied to the run: one at a time, canceled by the next transition. */
  schedule(run: RunRecord, delayMs: number, task: () => void): void {
    this.cancelTimer(run.id);
    this.timers.set(
      run.id,
      this.clock.schedule(delayMs, () => {
        this.timers.delete(run.id);
        task();
      }),
    );
  }

  cancelTimer(runId: string): void {
    this.timers.get(runId)?.cancel();
    this.timers.delete(runId);
  }

  /** Whether the run must hold its workspace before it can go on from its current state. */
  needsWorkspace(run: RunRecord): boolean {
    if (run.planOnly) return false;
    if (run.savePlan) return run.confirmRequested;
    return true;
  }

  isWaitingForWorkspace(run: RunRecord): boolean {
    const waitingState = run.status === 'pending' || (run.savePlan && run.status === 'confirmed');
    return waitingState && this.needsWorkspace(run) && this.holders.get(run.workspaceId) !== run.id;
  }

  /** Makes `run` the workspace's holder and starts it (force-execute uses this to jump the queue). */
  takeWorkspace(run: RunRecord): void {
    const workspace = this.store.workspace(run.workspaceId);
    this.holders.set(run.workspaceId, run.id);
    if (workspace) {
      workspace.lockedBy = { type: 'runs', id: run.id };
      workspace.currentRunId = run.id;
    }
    this.scheduleNext(run);
  }

  /** A new or newly confirmed run: start it now if it need not wait, else let the workspace queue decide. */
  kick(run: RunRecord): void {
    if (this.needsWorkspace(run) && this.holders.get(run.workspaceId) !== run.id) {
      run.queuedAt = Math.max(run.queuedAt, run.updatedAt.getTime());
      this.startNextWaiting(run.workspaceId);
      return;
    }
    this.scheduleNext(run);
  }

  private release(run: RunRecord): void {
    if (this.holders.get(run.workspaceId) !== run.id) return;
    this.holders.delete(run.workspaceId);
    const workspace = this.store.workspace(run.workspaceId);
    if (workspace?.lockedBy?.type === 'runs' && workspace.lockedBy.id === run.id) workspace.lockedBy = null;
    this.startNextWaiting(run.workspaceId);
  }

  private startNextWaiting(workspaceId: string): void {
    if (this.holders.has(workspaceId)) return;
    const workspace = this.store.workspace(workspaceId);
    if (!workspace) return;
    const waiting = [...this.records.runs.values()]
      .filter((run) => run.workspaceId === workspaceId && this.isWaitingForWorkspace(run))
      .sort((a, b) => a.queuedAt - b.queuedAt || a.createdAt.getTime() - b.createdAt.getTime());
    if (workspace.lockedBy?.type === 'users') {
      // A workspace a user locked keeps its runs pending until it is unlocked (workspaceChanged). The first in
      // line is already its current run, pending: that is how Terraform CLI knows to say "Waiting for the
      // manually locked workspace to be unlocked..." (internal/cloud/backend_common.go waitForRun).
      const current = workspace.currentRunId ? this.records.runs.get(workspace.currentRunId) : undefined;
      if (waiting[0] && (!current || isFinal(current.status) || current.status === 'pending')) workspace.currentRunId = waiting[0].id;
      return;
    }
    if (waiting[0]) this.takeWorkspace(waiting[0]);
  }

  private createParts(run: RunRecord, workspace: Workspace, at: Date): void {
    const log = (): LogRecord => ({ secret: randomBase62(32), lines: [], startedAtMs: null, expectedMs: 0, complete: false });
    const pending = { 'pending-at': statusTimestamp(at) };
    this.records.plans.set(run.planId, {
      id: run.planId,
      runId: run.id,
      status: 'pending',
      statusTimestamps: { ...pending },
      hasChanges: false,
      resourceAdditions: null,
      resourceChanges: null,
      resourceDestructions: null,
      resourceImports: null,
      log: log(),
    });
    this.records.applies.set(run.applyId, {
      id: run.applyId,
      runId: run.id,
      status: 'pending',
      statusTimestamps: { ...pending },
      resourceAdditions: null,
      resourceChanges: null,
      resourceDestructions: null,
      resourceImports: null,
      log: log(),
      operations: [],
    });
    const has = (feature: string) => this.store.hasFeature(workspace.organization, feature);
    // A refresh-only run proposes no resource changes, so there is nothing to price: it gets no estimate (one left
    // pending would keep Terraform CLI waiting on "Waiting for cost estimate to complete..." before its apply).
    if (has('cost-estimation') && !run.refreshOnly) {
      run.costEstimateId = newId('ce');
      this.records.costEstimates.set(run.costEstimateId, {
        id: run.costEstimateId,
        runId: run.id,
        status: 'pending',
        statusTimestamps: { ...pending },
        errorMessage: null,
        priorMonthlyCost: null,
        proposedMonthlyCost: null,
        deltaMonthlyCost: null,
        matchedResourcesCount: null,
        unmatchedResourcesCount: null,
      });
    }
    if (has('policy-enforcement') && workspace.policySets.length > 0) {
      const id = newId('polchk');
      run.policyCheckIds.push(id);
      this.records.policyChecks.set(id, {
        id,
        runId: run.id,
        status: 'pending',
        statusTimestamps: { ...pending },
        passed: workspace.policySets.filter((p) => p.passes).length,
        advisoryFailed: workspace.policySets.filter((p) => !p.passes && p.enforcement === 'advisory').length,
        softFailed: workspace.policySets.filter((p) => !p.passes && p.enforcement === 'soft-mandatory').length,
        hardFailed: workspace.policySets.filter((p) => !p.passes && p.enforcement === 'hard-mandatory').length,
        policies: workspace.policySets.map((p) => ({ name: p.name, enforcement: p.enforcement, passed: p.passes })),
      });
    }
    if (has('run-tasks')) {
      for (const stage of ['pre_plan', 'post_plan', 'pre_apply', 'post_apply']) {
        const tasks = workspace.runTasks.filter((t) => t.stage === stage);
        if (tasks.length === 0) continue;
        const record: TaskStageRecord = {
          id: newId('ts'),
          runId: run.id,
          stage,
          status: 'pending',
          statusTimestamps: { ...pending },
          results: tasks.map((t) => ({ name: t.name, enforcement: t.enforcement, passed: t.passes })),
          createdAt: at,
        };
        run.taskStageIds.push(record.id);
        this.records.taskStages.set(record.id, record);
      }
    }
  }
}

function policyOutcome(workspace: Workspace | undefined, enforced: boolean): PolicyOutcome {
  if (!workspace || !enforced || workspace.policySets.length === 0) return 'none';
  const failing = workspace.policySets.filter((p) => !p.passes);
  if (failing.some((p) => p.enforcement === 'hard-mandatory')) return 'hard_failed';
  if (failing.some((p) => p.enforcement === 'soft-mandatory')) return 'soft_failed';
  return 'passed';
}
