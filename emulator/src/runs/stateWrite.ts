// A finished remote apply writes the workspace's next state version, as the service does: serial + 1, the lineage
// kept (a new one for a workspace's first state), one resource per managed address with its instances.
import { createHash, randomUUID } from 'node:crypto';
import type { Store } from '../store/store';
import type { TerraformState } from '../store/stateVersions';
import type { RunRecord } from './model';
import { parseAddress } from './address';
import { appliedAttributes, generatedId } from './changeValues';
import { sensitiveAttributePaths, stateInstances, type StateInstance } from './stateInstances';
import { typeOf } from '../store/valueType';
import { outputsReadingInstances } from './outputValues';
import { encodeStateAttributes, sensitiveOnApply } from './terraformData';

export function writeStateAfterApply(store: Store, run: RunRecord, addresses: readonly string[], at: Date): void {
  const current = store.stateVersions.current(run.workspaceId);
  const state: TerraformState = {
    version: 4,
    terraform_version: run.engineVersion,
    serial: (current?.serial ?? 0) + 1,
    lineage: current?.lineage || randomUUID(),
    ...appliedState(store, run, addresses),
    check_results: null,
  };
  const bytes = Buffer.from(`${JSON.stringify(state, null, 2)}\n`, 'utf8');
  const md5 = createHash('md5').update(bytes).digest('hex');
  store.stateVersions.create(run.workspaceId, { serial: state.serial, lineage: state.lineage, md5, state: bytes, runId: run.id, now: at });
}

export type StateOutputs = NonNullable<TerraformState['outputs']>;

/**
 * What the apply leaves in the workspace's state, worked out from the run and the state before it (the same at the
 * apply's start as at its end), so the apply log can list the outputs the state will hold.
 */
export function appliedState(store: Store, run: RunRecord, addresses: readonly string[]): { resources: NonNullable<TerraformState['resources']>; outputs: StateOutputs } {
  const current = store.stateVersions.current(run.workspaceId);
  const previousOutputs = current?.state?.outputs ?? {};
  const resources = run.isDestroy ? [] : stateResources(run, addresses, stateInstances(current?.state));
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

/**
 * One resource per `module.net.aws_vpc.main` with its instances: the attributes this run applied for what it changed,
 * the previous state's for the rest.
 */
function stateResources(run: RunRecord, addresses: readonly string[], previous: ReadonlyMap<string, StateInstance>): NonNullable<TerraformState['resources']> {
  const applied = new Map(run.changes.filter((change) => change.action !== 'delete' && change.after).map((change) => [change.address, change]));
  const byResource = new Map<string, { module?: string; mode: string; type: string; name: string; provider: string; instances: unknown[] }>();
  for (const address of addresses) {
    const parsed = parseAddress(address);
    if (!parsed) continue;
    const { module, mode, type, name, key } = parsed;
    const resourceKey = `${module ?? ''}|${mode}|${type}|${name}`;
    let resource = byResource.get(resourceKey);
    if (!resource) {
      resource = { ...(module ? { module } : {}), mode, type, name, provider: providerOf(type), instances: [] };
      byResource.set(resourceKey, resource);
    }
    const change = applied.get(address);
    const attributes = change ? appliedAttributes(change, type, run.id) : (previous.get(address)?.attributes ?? { id: generatedId(address) });
    const sensitive = change ? sensitiveOnApply(type, change.sensitive ?? []) : (previous.get(address)?.sensitive ?? []);
    resource.instances.push({
      ...(key !== undefined ? { index_key: key } : {}),
      schema_version: 0,
      attributes: encodeStateAttributes(type, attributes),
      sensitive_attributes: sensitiveAttributePaths(sensitive),
    });
  }
  return [...byResource.values()];
}

function providerOf(type: string): string {
  if (type === 'terraform_data') return 'provider["terraform.io/builtin/terraform"]';
  return `provider["registry.terraform.io/hashicorp/${type.split('_')[0]}"]`;
}
