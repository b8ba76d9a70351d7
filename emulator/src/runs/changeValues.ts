// Each planned change's attributes before and after, for a plan that followed the configuration: "before" is the
// instance as the workspace's current state has it, "after" what the configuration evaluates to. The plan JSON,
// the structured log and the state an apply writes all read them, so they always tell the same story.
import { createHash } from 'node:crypto';
import type { DeclaredConfiguration, DeclaredInstance } from '../engine/configuration';
import type { PlannedChange } from './model';
import type { StateInstance } from './stateInstances';
import { computeOnApply, computedAfterApply } from './terraformData';

export function withValues(changes: readonly PlannedChange[], declared: DeclaredConfiguration, prior: ReadonlyMap<string, StateInstance>): PlannedChange[] {
  const instances = new Map<string, DeclaredInstance>(declared.instances.map((instance) => [instance.address, instance]));
  return changes.map((change) => {
    const instance = instances.get(change.address);
    const before = change.action === 'create' ? null : { id: generatedId(change.address), ...prior.get(change.address)?.attributes };
    if (change.action === 'delete' || !instance) return { ...change, before, after: null, afterUnknown: [], sensitive: prior.get(change.address)?.sensitive ?? [] };
    // An update keeps the instance's id; a create or a replacement gets a new one from the provider.
    const keepsId = change.action === 'update' && before !== null;
    const after = { ...instance.values, ...(keepsId ? { id: before.id } : {}) };
    const afterUnknown = [...new Set([...(keepsId ? [] : ['id']), ...instance.unknown, ...computedAfterApply(instance.type)])];
    return { ...change, before, after, afterUnknown, sensitive: instance.sensitive };
  });
}

/** What the "provider" returns for a value known only after apply: stable per address and attribute. */
export function generatedId(address: string, attribute = 'id'): string {
  return `emulated-${createHash('sha1').update(`${address}|${attribute}`).digest('hex').slice(0, 12)}`;
}

/** The attributes an applied change leaves in the state: its planned values, the unknown ones now generated. */
export function appliedAttributes(change: PlannedChange, type: string): Record<string, unknown> {
  const attributes: Record<string, unknown> = { ...(change.after ?? {}) };
  const computed = new Set(computedAfterApply(type));
  for (const name of change.afterUnknown ?? []) if (!computed.has(name)) attributes[name] = generatedId(change.address, name);
  if (attributes.id === undefined) attributes.id = generatedId(change.address);
  return computeOnApply(type, attributes);
}
