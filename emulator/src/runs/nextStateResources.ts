// The resources of the state an apply writes: the current state's, as they are (data sources, providers, private
// data and dependencies included), with the run's changes made to them: a deleted instance goes (and its resource
// when it has none left, as Terraform prunes it), a created, updated or replaced one gets the attributes applied.
import type { TerraformState } from '../store/stateVersions';
import { parseAddress, type ResourceAddress } from './address';
import { appliedAttributes, generatedId } from './changeValues';
import type { PlannedChange } from './model';
import { sensitiveAttributePaths, type StateInstance } from './stateInstances';
import { encodeStateAttributes, sensitiveOnApply } from './terraformData';

type StateResource = NonNullable<TerraformState['resources']>[number];
type RawInstance = { index_key?: unknown } & Record<string, unknown>;

export function nextStateResources(current: TerraformState | undefined, previous: ReadonlyMap<string, StateInstance>, changes: readonly PlannedChange[], runId: string): StateResource[] {
  const resources: StateResource[] = (current?.resources ?? []).map((resource) => ({ ...resource, instances: [...(resource.instances ?? [])] }));
  for (const change of changes) {
    const address = parseAddress(change.address);
    if (!address) continue;
    let resource = resources.find((candidate) => isResourceOf(candidate, address));
    const index = resource?.instances?.findIndex((instance) => sameKey((instance as RawInstance | null)?.index_key, address.key)) ?? -1;
    // A forgotten instance leaves the state as a destroyed one does (the object itself is left alone).
    if (change.action === 'delete' || change.action === 'forget') {
      if (index >= 0) resource!.instances!.splice(index, 1);
      continue;
    }
    if (!resource) {
      resource = { ...(address.module ? { module: address.module } : {}), mode: address.mode, type: address.type, name: address.name, provider: providerOf(address.type), instances: [] };
      resources.push(resource);
    }
    const written = writtenInstance(change, address, previous.get(change.address), runId);
    if (index >= 0) resource.instances![index] = written;
    else resource.instances!.push(written);
  }
  return resources.filter((resource) => (resource.instances?.length ?? 0) > 0);
}

/**
 * The instance as the apply leaves it: its planned values with the unknown ones generated; a change planned
 * without values (a plan that did not follow the configuration) keeps the attributes the state had, or the id its
 * address gives.
 */
function writtenInstance(change: PlannedChange, address: ResourceAddress, previous: StateInstance | undefined, runId: string): RawInstance {
  const attributes = change.after ? appliedAttributes(change, address.type, runId) : (previous?.attributes ?? { id: generatedId(change.address) });
  const sensitive = change.after ? sensitiveOnApply(address.type, change.sensitive ?? []) : (previous?.sensitive ?? []);
  return {
    ...(address.key !== undefined ? { index_key: address.key } : {}),
    schema_version: 0,
    attributes: encodeStateAttributes(address.type, attributes),
    sensitive_attributes: sensitiveAttributePaths(sensitive),
  };
}

export function isResourceOf(resource: StateResource, address: ResourceAddress): boolean {
  return (resource.module ?? undefined) === address.module && (resource.mode ?? 'managed') === address.mode && resource.type === address.type && resource.name === address.name;
}

/** An instance without a key is `index_key` absent (or null); keys are compared as the state writes them. */
function sameKey(stored: unknown, key: string | number | undefined): boolean {
  return stored === undefined || stored === null ? key === undefined : stored === key;
}

function providerOf(type: string): string {
  if (type === 'terraform_data') return 'provider["terraform.io/builtin/terraform"]';
  return `provider["registry.terraform.io/hashicorp/${type.split('_')[0]}"]`;
}
