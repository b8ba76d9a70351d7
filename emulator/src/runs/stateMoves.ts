// The state with the plan's `moved` renames made to it, as Terraform makes them before it plans: each moved
// instance leaves its old resource (which goes when it has none left) and joins the resource at its new address
// (created, with the same provider, when the state has none), its attributes untouched. The plan diffs the
// configuration against this state, and the apply writes it, so the new address is what the state holds after.
import type { TerraformState } from '../store/stateVersions';
import { parseAddress } from './address';
import { isResourceOf } from './nextStateResources';
import { instanceAddress } from './stateInstances';

type StateResource = NonNullable<TerraformState['resources']>[number];

/** `renames`: old instance address → new (engine/refactoring.ts movedAddresses). */
export function movedState<State extends TerraformState | undefined>(state: State, renames: ReadonlyMap<string, string>): State {
  if (!state || renames.size === 0) return state;
  const resources: StateResource[] = (state.resources ?? []).map((resource) => ({ ...resource, instances: [...(resource.instances ?? [])] }));
  const arriving: Array<{ to: string; instance: Record<string, unknown>; provider?: string }> = [];
  for (const resource of resources) {
    if (resource.mode !== 'managed' || !resource.type || !resource.name) continue;
    resource.instances = resource.instances!.filter((raw) => {
      const instance = (raw ?? {}) as Record<string, unknown>;
      const to = renames.get(instanceAddress(resource, instance));
      if (to === undefined) return true;
      arriving.push({ to, instance, ...(resource.provider ? { provider: resource.provider } : {}) });
      return false;
    });
  }
  for (const { to, instance, provider } of arriving) {
    const address = parseAddress(to);
    if (!address) continue;
    let resource = resources.find((candidate) => isResourceOf(candidate, address));
    if (!resource) {
      resource = { ...(address.module ? { module: address.module } : {}), mode: 'managed', type: address.type, name: address.name, ...(provider ? { provider } : {}), instances: [] };
      resources.push(resource);
    }
    const { index_key: _old, ...rest } = instance;
    resource.instances!.push({ ...(address.key !== undefined ? { index_key: address.key } : {}), ...rest });
  }
  return { ...state, resources: resources.filter((resource) => (resource.instances?.length ?? 0) > 0) };
}
