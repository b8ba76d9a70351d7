// What an apply leaves behind in the workspace, whether it finished or was interrupted part way: the addresses it
// manages, the arguments each changed instance was applied with (a later plan compares against them), and the
// next state version.
import type { Store } from '../store/store';
import { applyToState } from './changes';
import type { PlannedChange, RunRecord } from './model';
import type { RunRecords } from './records';
import { writeStateAfterApply } from './stateWrite';

export interface AppliedChanges {
  store: Store;
  records: RunRecords;
  run: RunRecord;
  /** The changes carried out: all of the plan's, or, after an interrupt, those that completed. */
  changes: PlannedChange[];
  /** Whether the apply finished: only then does it write the configuration's outputs (or a destroy's empty state). */
  complete: boolean;
  at: Date;
}

export function recordAppliedChanges({ store, records, run, changes, complete, at }: AppliedChanges): void {
  const managed = applyToState(records.managedResources.get(run.workspaceId) ?? [], changes);
  records.managedResources.set(run.workspaceId, managed);
  if (run.configuration) rememberApplied(records, run, changes);
  writeStateAfterApply(store, run, managed, at, { changes, complete });
}

/** After a configuration-driven apply: each changed instance's arguments as applied (a later plan compares). */
function rememberApplied(records: RunRecords, run: RunRecord, changes: PlannedChange[]): void {
  const applied = new Map(records.appliedInstances.get(run.workspaceId) ?? []);
  const changed = new Map(changes.map((change) => [change.address, change.action]));
  for (const instance of run.configuration?.instances ?? []) {
    const action = changed.get(instance.address);
    if (action === 'create' || action === 'update' || action === 'replace') applied.set(instance.address, { fingerprint: instance.fingerprint, ...(instance.replaceTrigger !== undefined ? { replaceTrigger: instance.replaceTrigger } : {}) });
  }
  for (const [address, action] of changed) if (action === 'delete') applied.delete(address);
  records.appliedInstances.set(run.workspaceId, applied);
}
