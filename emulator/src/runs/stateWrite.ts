// A finished remote apply writes the workspace's next state version, as the service does: serial + 1, the lineage
// kept (a new one for a workspace's first state), and the current state's instances with the run's changes made to
// them. The current state is whatever last wrote it (an apply, `state push`, `state mv`, an import), so none of
// that is undone by the next apply.
import { createHash, randomUUID } from 'node:crypto';
import type { Store } from '../store/store';
import type { TerraformState } from '../store/stateVersions';
import type { PlannedChange, RunRecord } from './model';
import { nextStateResources } from './nextStateResources';
import { stateInstances } from './stateInstances';
import { movedState } from './stateMoves';
import { typeOf } from '../store/valueType';
import { outputsReadingInstances } from './outputValues';

/**
 * Writes the next state version and returns it. `applied`: the changes carried out (default: the whole plan) and
 * whether the apply finished. An interrupted apply saves the instances it got to and leaves the outputs as they
 * were: Terraform evaluates them after the resources.
 */
export function writeStateAfterApply(store: Store, run: RunRecord, at: Date, applied: AppliedChanges = { changes: run.changes, complete: true }): TerraformState {
  const current = store.stateVersions.current(run.workspaceId);
  const state: TerraformState = {
    version: 4,
    terraform_version: run.engineVersion,
    serial: (current?.serial ?? 0) + 1,
    lineage: current?.lineage || randomUUID(),
    ...appliedState(store, run, applied),
    check_results: null,
  };
  const bytes = Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
  const md5 = createHash('md5').update(bytes).digest('hex');
  store.stateVersions.create(run.workspaceId, { serial: state.serial, lineage: state.lineage, md5, state: bytes, runId: run.id, now: at });
  return state;
}

export type StateOutputs = NonNullable<TerraformState['outputs']>;

/** The changes an apply carried out, and whether it finished. */
interface AppliedChanges {
  changes: readonly PlannedChange[];
  complete: boolean;
}

/**
 * What the apply leaves in the workspace's state, worked out from the run and the state before it (the same at the
 * apply's start as at its end), so the apply log can list the outputs the state will hold. `applied`: the changes
 * carried out (default: the whole plan) and whether the apply finished. A full destroy that finished leaves an empty
 * state (data sources go too); a targeted or interrupted one removes only what it did. An interrupted apply leaves the
 * outputs as they were: Terraform evaluates them after the resources.
 */
export function appliedState(store: Store, run: RunRecord, applied: AppliedChanges = { changes: run.changes, complete: true }): { resources: NonNullable<TerraformState['resources']>; outputs: StateOutputs } {
  const current = store.stateVersions.current(run.workspaceId);
  const previousOutputs = current?.state?.outputs ?? {};
  const emptied = run.isDestroy && !run.targetAddrs?.length && applied.complete;
  // The plan's moves are made first (an interrupted apply keeps them too: Terraform moved them before planning).
  const moved = movedState(current?.state, new Map((run.moves ?? []).map(({ from, to }) => [from, to])));
  const resources = emptied ? [] : nextStateResources(moved, stateInstances(moved), applied.changes, run.id);
  if (!applied.complete) return { resources, outputs: previousOutputs };
  const outputs = run.isDestroy ? {} : run.configuration ? appliedOutputs(store, run, resources, previousOutputs) : previousOutputs;
  return { resources, outputs };
}

/**
 * The configuration's outputs after the apply: the value the plan knew, else the value read from the resources
 * just written (`terraform_data.a.output`), else, when even that is unknown, the value the output had before.
 * A null output is left out, as Terraform removes a null root output from the state.
 */
function appliedOutputs(store: Store, run: RunRecord, resources: NonNullable<TerraformState['resources']>, previous: StateOutputs): StateOutputs {
  const written = stateInstances({ version: 4, resources } as TerraformState);
  const evaluated = new Map((outputsReadingInstances(store, run, (address) => written.get(address)) ?? []).map((output) => [output.name, output]));
  const outputs: StateOutputs = {};
  for (const planned of run.configuration?.outputs ?? []) {
    const value = planned.value !== undefined ? planned.value : evaluated.get(planned.name)?.value;
    const sensitive = planned.sensitive || evaluated.get(planned.name)?.sensitive === true;
    if (value === null) continue;
    if (value !== undefined) outputs[planned.name] = { value, type: typeOf(value), ...(sensitive ? { sensitive: true } : {}) };
    else if (previous[planned.name]) outputs[planned.name] = previous[planned.name]!;
  }
  return outputs;
}
