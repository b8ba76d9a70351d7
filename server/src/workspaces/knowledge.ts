// What the server knows about one linked workspace (host + organization + name): its id, variables, recent runs and
// its organization's feature set. Mutable inside; `version` bumps on every change so snapshots are rebuilt only then.
import type { FeatureSet, Run, Variable } from '../api';
import type { FeatureSetSummary, SnapshotVariable, WorkspaceRuns, WorkspaceState } from '../features/host';
import { runSignature, snapshotRun } from './runSummary';

export interface KnowledgeTarget {
  hostname: string;
  organization: string;
  name: string;
}

export function knowledgeKey(target: KnowledgeTarget): string {
  return `${target.hostname}\u0000${target.organization}\u0000${target.name}`;
}

/** Keeps the newest runs only: enough for "current / awaiting confirmation / active". */
const keptRuns = 50;

export class WorkspaceKnowledge {
  state: WorkspaceState = { kind: 'loading' };
  workspaceId: string | undefined;
  variables: SnapshotVariable[] | undefined;
  featureSet: FeatureSetSummary | null | undefined;
  currentRunId: string | undefined;
  runsKnown = false;
  version = 0;
  private readonly runsById = new Map<string, Run>();
  private cachedRuns: { version: number; runs: WorkspaceRuns } | undefined;

  constructor(readonly target: KnowledgeTarget) {}

  get key(): string {
    return knowledgeKey(this.target);
  }

  changed(): void {
    this.version++;
  }

  /**
   * Stores runs as last read; returns whether anything a snapshot shows changed (a run's status or actions, a new
   * run, or the first complete list), so an unchanged poll does not make features recompute anything.
   */
  recordRuns(runs: readonly Run[], complete: boolean): boolean {
    let changed = complete && !this.runsKnown;
    for (const run of runs) {
      const previous = this.runsById.get(run.id);
      if (!previous || runSignature(previous) !== runSignature(run)) changed = true;
      this.runsById.delete(run.id); // re-insert: Map order = most recently seen last
      this.runsById.set(run.id, run);
    }
    while (this.runsById.size > keptRuns) this.runsById.delete(this.runsById.keys().next().value as string);
    if (complete) this.runsKnown = true;
    if (changed) this.changed();
    return changed;
  }

  run(runId: string): Run | undefined {
    return this.runsById.get(runId);
  }

  /** Every run kept (the newest ones the watcher and commands read), in no particular order. */
  allRuns(): Run[] {
    return [...this.runsById.values()];
  }

  hasRun(runId: string): boolean {
    return this.runsById.has(runId);
  }

  runs(): WorkspaceRuns | undefined {
    if (!this.runsKnown && this.currentRunId === undefined) return undefined;
    if (this.cachedRuns?.version === this.version) return this.cachedRuns.runs;
    const newestFirst = [...this.runsById.values()].sort((a, b) => (b.attributes['created-at'] ?? '').localeCompare(a.attributes['created-at'] ?? ''));
    const result: WorkspaceRuns = {};
    const current = this.currentRunId ? this.runsById.get(this.currentRunId) : undefined;
    if (current) result.current = snapshotRun(current);
    // A run that can be confirmed first; else one paused that can only be discarded (a policy override), but not a
    // pending run waiting for the workspace: that one is queued, not awaiting anyone.
    const awaiting =
      newestFirst.find((run) => run.attributes.actions?.['is-confirmable'] === true) ??
      newestFirst.find((run) => run.attributes.actions?.['is-discardable'] === true && run.attributes.status !== 'pending');
    if (awaiting) result.awaitingConfirmation = snapshotRun(awaiting);
    const active = newestFirst.find((run) => run.attributes.actions?.['is-cancelable'] === true);
    if (active) result.active = snapshotRun(active);
    this.cachedRuns = { version: this.version, runs: result };
    return result;
  }
}

/** A workspace variable as features may see it: a sensitive value never leaves this function. */
export function snapshotVariable(variable: Variable): SnapshotVariable {
  const a = variable.attributes;
  const sensitive = a.sensitive === true;
  const result: SnapshotVariable = { id: variable.id, key: a.key, category: a.category, hcl: a.hcl === true, sensitive };
  if (!sensitive && typeof a.value === 'string') result.value = a.value;
  if (a.description) result.description = a.description;
  return result;
}

export function summarizeFeatureSet(featureSet: FeatureSet | undefined): FeatureSetSummary | null {
  if (!featureSet) return null;
  const flags: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(featureSet.attributes)) if (typeof value === 'boolean') flags[name] = value;
  const summary: FeatureSetSummary = { flags };
  if (featureSet.attributes.name) summary.name = featureSet.attributes.name;
  if (featureSet.attributes.identifier) summary.identifier = featureSet.attributes.identifier;
  return summary;
}
