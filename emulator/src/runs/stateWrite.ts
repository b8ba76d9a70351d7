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
import { typeOf } from '../store/valueType';
import { outputsReadingInstances } from './outputValues';

/**
 * Writes the next state version and returns it. `applied`: the changes carried out (default: the whole plan) and
 * whether the apply finished. An interrupted apply saves the instances it got to and leaves the outputs as they
 * were: Terraform evaluates them after the resources.
 */
export function writeStateAfterApply(store: Store, run: RunRecord, at: Date, applied: { changes: readonly PlannedChange[]; complete: boolean } = { changes: run.changes, complete: true }): TerraformState {
  const current = store.stateVersions.current(run.workspaceId);
  const previousOutputs = current?.state?.outputs ?? {};
  // A full destroy that finished leaves an empty state (data sources go too); a targeted or interrupted one removes
  // only what it did.
  const emptied = run.isDestroy && !run.targetAddrs?.length && applied.complete;
  const resources = emptied ? [] : nextStateResources(current?.state, stateInstances(current?.state), applied.changes, run.id);
  const finishedOutputs = () => (run.isDestroy ? {} : run.configuration ? appliedOutputs(store, run, resources, previousOutputs) : previousOutputs);
  const state: TerraformState = {
    version: 4,
    terraform_version: run.engineVersion,
    serial: (current?.serial ?? 0) + 1,
    lineage: current?.lineage || randomUUID(),
    outputs: applied.complete ? finishedOutputs() : previousOutputs,
    resources,
    check_results: null,
  };
  const bytes = Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
  const md5 = createHash('md5').update(bytes).digest('hex');
  store.stateVersions.create(run.workspaceId, { serial: state.serial, lineage: state.lineage, md5, state: bytes, runId: run.id, now: at });
  return state;
}

type StateOutputs = NonNullable<TerraformState['outputs']>;

/**
 * The configuration's outputs after the apply: the value the plan knew, else the value read from the resources
 * just written (`terraform_data.a.output`), else, when even that is unknown, the value the output had before.
 */
function appliedOutputs(store: Store, run: RunRecord, resources: NonNullable<TerraformState['resources']>, previous: StateOutputs): StateOutputs {
  const written = stateInstances({ version: 4, resources } as TerraformState);
  const evaluated = new Map((outputsReadingInstances(store, run, (address) => written.get(address)) ?? []).map((output) => [output.name, output]));
  const outputs: StateOutputs = {};
  for (const planned of run.configuration?.outputs ?? []) {
    const value = planned.value ?? evaluated.get(planned.name)?.value;
    const sensitive = planned.sensitive || evaluated.get(planned.name)?.sensitive === true;
    if (value !== undefined) outputs[planned.name] = { value, type: typeOf(value), ...(sensitive ? { sensitive: true } : {}) };
    else if (previous[planned.name]) outputs[planned.name] = previous[planned.name]!;
  }
  return outputs;
}
