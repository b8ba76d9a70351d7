// The minute-by-minute variable refresh keeps what did not change: an unchanged variable stays the same object
// (features cache parsed HCL values per object) and an unchanged list stays the same array, so a refresh that finds
// nothing new makes no new snapshot and re-diagnoses nothing.
import type { SnapshotVariable } from '../features/host';

export function mergeVariables(previous: readonly SnapshotVariable[] | undefined, fresh: SnapshotVariable[]): SnapshotVariable[] {
  if (!previous) return fresh;
  const byId = new Map(previous.map((variable) => [variable.id, variable]));
  let same = previous.length === fresh.length;
  const merged = fresh.map((variable, index) => {
    const known = byId.get(variable.id);
    const kept = known && sameVariable(known, variable) ? known : variable;
    if (kept !== previous[index]) same = false;
    return kept;
  });
  return same ? (previous as SnapshotVariable[]) : merged;
}

function sameVariable(a: SnapshotVariable, b: SnapshotVariable): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof SnapshotVariable>;
  for (const key of keys) if (a[key] !== b[key]) return false;
  return true;
}
