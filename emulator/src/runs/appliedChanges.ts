// What an apply leaves behind in the workspace, whether it finished or was interrupted part way: the next state
// version (the current one with the changes carried out), and for the arguments the emulator could not evaluate,
// what the apply wrote for them (a later plan compares against it).
import type { Store } from '../store/store';
import type { PlannedChange, RunRecord } from './model';
import type { RunRecords } from './records';
import { stateInstances } from './stateInstances';
import { writeStateAfterApply } from './stateWrite';
import { recordUnknownArguments } from './unknownArguments';

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
  const written = writeStateAfterApply(store, run, at, { changes, complete });
  if (run.configuration) recordUnknownArguments(records, run, stateInstances(written), changes);
}
