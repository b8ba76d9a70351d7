// The resource instances of a state file by address, with their attributes: what a plan compares the configuration
// with ("before"), whether the state came from a remote apply or from `terraform state push`.
import type { TerraformState } from '../store/stateVersions';
import { decodeStateAttributes } from './terraformData';

export interface StateInstance {
  attributes: Record<string, unknown>;
  /** Top-level attribute names the state marks sensitive. */
  sensitive: string[];
}

export function stateInstances(state: TerraformState | undefined): Map<string, StateInstance> {
  const instances = new Map<string, StateInstance>();
  for (const resource of state?.resources ?? []) {
    if (resource.mode !== 'managed' || !resource.type || !resource.name) continue;
    for (const raw of resource.instances ?? []) {
      const instance = (raw ?? {}) as { index_key?: unknown; attributes?: unknown; sensitive_attributes?: unknown };
      const address = instanceAddress(resource, instance);
      const stored = instance.attributes && typeof instance.attributes === 'object' ? (instance.attributes as Record<string, unknown>) : {};
      const attributes = decodeStateAttributes(resource.type, stored);
      instances.set(address, { attributes, sensitive: sensitivePaths(instance.sensitive_attributes) });
    }
  }
  return instances;
}

/** A managed resource instance's address from the state's parts: `module.m[0].type.name["key"]`. */
export function instanceAddress(resource: { module?: string; type?: string; name?: string }, instance: { index_key?: unknown }): string {
  const base = `${resource.module ? `${resource.module}.` : ''}${resource.type}.${resource.name}`;
  const key = instance.index_key;
  return key === undefined || key === null ? base : `${base}[${typeof key === 'number' ? key : JSON.stringify(String(key))}]`;
}

/** `[[{type: "get_attr", value: "password"}]]` → `["password"]` (top-level names only). */
function sensitivePaths(paths: unknown): string[] {
  if (!Array.isArray(paths)) return [];
  return paths.flatMap((path) => {
    const first = Array.isArray(path) ? (path[0] as { type?: unknown; value?: unknown } | undefined) : undefined;
    return first?.type === 'get_attr' && typeof first.value === 'string' ? [first.value] : [];
  });
}

/** The inverse of `sensitivePaths`, as the state file writes it. */
export function sensitiveAttributePaths(names: readonly string[]): Array<Array<{ type: 'get_attr'; value: string }>> {
  return names.map((value) => [{ type: 'get_attr', value }]);
}
