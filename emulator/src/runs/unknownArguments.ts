// After a configuration-driven apply: for each argument of an instance it wrote that the emulator could not
// evaluate, the argument's fingerprint and the value the apply put in the state. A later plan reads the state for
// everything else; for these it asks whether the code and the state are still what this apply left
// (engine/instanceChange.ts). State written any other way (push, mv, import) matches no record, as it should.
import type { UnknownArgumentRecord } from '../engine/instanceChange';
import type { PlannedChange, RunRecord } from './model';
import type { RunRecords } from './records';
import type { StateInstance } from './stateInstances';

/** `changes`: those the apply carried out (an interrupted one did only some of the plan's). */
export function recordUnknownArguments(records: RunRecords, run: RunRecord, written: ReadonlyMap<string, StateInstance>, changes: readonly PlannedChange[] = run.changes): void {
  // A record follows its instance to the address a `moved` block gave it.
  const renames = new Map((run.moves ?? []).map(({ from, to }) => [from, to]));
  const previous = [...(records.unknownArguments.get(run.workspaceId) ?? [])].map(([address, record]) => [renames.get(address) ?? address, record] as const);
  const kept = new Map(previous.filter(([address]) => written.has(address)));
  const changed = new Set(changes.filter((change) => change.action !== 'delete').map((change) => change.address));
  for (const instance of run.configuration?.instances ?? []) {
    const state = written.get(instance.address);
    if (!changed.has(instance.address) || !state) continue;
    const recorded: Record<string, UnknownArgumentRecord> = {};
    for (const argument of instance.unknown) recorded[argument] = { fingerprint: instance.unknownFingerprints[argument]!, written: state.attributes[argument] };
    kept.set(instance.address, recorded);
  }
  records.unknownArguments.set(run.workspaceId, kept);
}
