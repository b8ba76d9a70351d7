// Everything the runs module keeps, in one place, so reset and lookups have a single owner.
import type {
  ApplyRecord,
  CostEstimateRecord,
  PlanRecord,
  PolicyCheckRecord,
  RunRecord,
  TaskStageRecord,
} from './model';
import type { UnknownArgumentRecord } from '../engine/instanceChange';

export class RunRecords {
  readonly runs = new Map<string, RunRecord>();
  readonly plans = new Map<string, PlanRecord>();
  readonly applies = new Map<string, ApplyRecord>();
  readonly costEstimates = new Map<string, CostEstimateRecord>();
  readonly policyChecks = new Map<string, PolicyCheckRecord>();
  readonly taskStages = new Map<string, TaskStageRecord>();
  /**
   * Workspace id → address → what the apply that wrote the instance recorded of each argument the emulator could
   * not evaluate (unknownArguments.ts). Everything else a plan needs is in the workspace's current state version.
   */
  readonly unknownArguments = new Map<string, Map<string, Record<string, UnknownArgumentRecord>>>();

  clear(): void {
    this.runs.clear();
    this.plans.clear();
    this.applies.clear();
    this.costEstimates.clear();
    this.policyChecks.clear();
    this.taskStages.clear();
    this.unknownArguments.clear();
  }

  /** Drops a deleted workspace's runs with every part of them (so their ids and log URLs 404) and what its applies recorded. */
  deleteWorkspace(workspaceId: string): void {
    for (const run of this.runsOfWorkspace(workspaceId)) {
      this.plans.delete(run.planId);
      this.applies.delete(run.applyId);
      if (run.costEstimateId) this.costEstimates.delete(run.costEstimateId);
      for (const id of run.policyCheckIds) this.policyChecks.delete(id);
      for (const id of run.taskStageIds) this.taskStages.delete(id);
      this.runs.delete(run.id);
    }
    this.unknownArguments.delete(workspaceId);
  }

  plan(run: RunRecord): PlanRecord {
    return this.plans.get(run.planId)!;
  }

  apply(run: RunRecord): ApplyRecord {
    return this.applies.get(run.applyId)!;
  }

  costEstimate(run: RunRecord): CostEstimateRecord | undefined {
    return run.costEstimateId ? this.costEstimates.get(run.costEstimateId) : undefined;
  }

  policyCheck(run: RunRecord): PolicyCheckRecord | undefined {
    const id = run.policyCheckIds[0];
    return id ? this.policyChecks.get(id) : undefined;
  }

  taskStage(run: RunRecord, stage: string): TaskStageRecord | undefined {
    for (const id of run.taskStageIds) {
      const record = this.taskStages.get(id);
      if (record?.stage === stage) return record;
    }
    return undefined;
  }

  /** Runs of a workspace, newest first (the service's list order). */
  runsOfWorkspace(workspaceId: string): RunRecord[] {
    return newestFirst([...this.runs.values()].filter((run) => run.workspaceId === workspaceId));
  }

  runsOfOrganization(organization: string): RunRecord[] {
    return newestFirst([...this.runs.values()].filter((run) => run.organization === organization));
  }

  /** Finds which log a blob secret belongs to. */
  logBySecret(secret: string): { kind: 'plan'; record: PlanRecord } | { kind: 'apply'; record: ApplyRecord } | undefined {
    for (const record of this.plans.values()) if (record.log.secret === secret) return { kind: 'plan', record };
    for (const record of this.applies.values()) if (record.log.secret === secret) return { kind: 'apply', record };
    return undefined;
  }
}

/** Newest first; runs created in the same millisecond keep creation order reversed (the map's insertion order). */
function newestFirst(runs: RunRecord[]): RunRecord[] {
  return runs
    .map((run, index) => ({ run, index }))
    .sort((a, b) => b.run.createdAt.getTime() - a.run.createdAt.getTime() || b.index - a.index)
    .map(({ run }) => run);
}
