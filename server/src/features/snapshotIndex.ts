// Per-snapshot lookups by name, built once per snapshot object (snapshots are immutable: the core publishes a new
// object on every change), so completion, hover and diagnostics never scan 2,000 workspace variables per request.
import type { SnapshotVariable, WorkspaceSnapshot } from './host';

export const envVariablePrefix = 'TF_VAR_';

export interface SnapshotIndex {
  /** The linked workspace, or undefined when the snapshot does not know it (not linked, signed out, loading...). */
  workspace?: { id: string; name: string; organization: string; hostname: string };
  /** True when the workspace's variables are known (so "no value" means no value, not "still loading"). */
  variablesKnown: boolean;
  /** `engine` workspace variables by key. */
  engineByKey: ReadonlyMap<string, SnapshotVariable>;
  /** `env` workspace variables named TF_VAR_<name>, by <name>. */
  envByVariableName: ReadonlyMap<string, SnapshotVariable>;
}

const emptyIndex: SnapshotIndex = { variablesKnown: false, engineByKey: new Map(), envByVariableName: new Map() };
const cache = new WeakMap<WorkspaceSnapshot, SnapshotIndex>();

export function indexSnapshot(snapshot: WorkspaceSnapshot | undefined): SnapshotIndex {
  if (!snapshot) return emptyIndex;
  let index = cache.get(snapshot);
  if (!index) {
    index = buildIndex(snapshot);
    cache.set(snapshot, index);
  }
  return index;
}

function buildIndex(snapshot: WorkspaceSnapshot): SnapshotIndex {
  const workspace = snapshot.workspace.kind === 'linked' ? snapshot.workspace.workspace : undefined;
  const engineByKey = new Map<string, SnapshotVariable>();
  const envByVariableName = new Map<string, SnapshotVariable>();
  for (const variable of snapshot.variables ?? []) {
    if (variable.category === 'engine') engineByKey.set(variable.key, variable);
    else if (variable.category === 'env' && variable.key.startsWith(envVariablePrefix) && variable.key.length > envVariablePrefix.length) {
      envByVariableName.set(variable.key.slice(envVariablePrefix.length), variable);
    }
  }
  return { workspace, variablesKnown: workspace !== undefined && snapshot.variables !== undefined, engineByKey, envByVariableName };
}
