// One entry of a plan's resource_changes (Terraform's JSON plan) → the protocol's PlanInstanceChange: the actions
// folded into one verb, the reason in words, and the top-level attributes that change. A sensitive value (by either
// marker, or any part of it) never leaves this function: the attribute is listed with `sensitive: true` only.
import type { ResourceChange } from '../api';
import type { PlanChangeAction, PlanInstanceChange } from '../protocol';

/** Terraform's action lists → one verb: `["delete","create"]` and `["create","delete"]` are both a replace. */
export function foldActions(actions: readonly string[]): PlanChangeAction {
  const has = (name: string) => actions.includes(name);
  if (has('delete') && has('create')) return 'replace';
  if (has('create')) return 'create';
  if (has('delete')) return 'delete';
  if (has('update')) return 'update';
  if (has('read')) return 'read';
  return 'no-op'; // `no-op`, and `forget` (leaves the state without destroying anything)
}

const reasons: Record<string, string> = {
  replace_by_request: 'requested',
  replace_because_cannot_update: 'cannot update',
  replace_because_tainted: 'tainted',
  replace_by_triggers: 'triggers changed',
  delete_because_no_resource_config: 'no longer in the configuration',
  delete_because_no_module: 'its module is gone',
  delete_because_wrong_repetition: 'count / for_each changed',
  delete_because_count_index: 'beyond count',
  delete_because_each_key: 'key no longer in for_each',
  delete_because_no_move_target: 'moved to an address that does not exist',
  read_because_config_unknown: 'configuration known only after apply',
  read_because_dependency_pending: 'depends on pending changes',
  read_because_check_nested: 'read by a check block',
};

export function describeReason(reason: string | null | undefined): string | undefined {
  if (!reason) return undefined;
  return reasons[reason] ?? reason.replace(/_/g, ' ');
}

export function toInstanceChange(change: ResourceChange): PlanInstanceChange {
  const action = foldActions(change.change.actions);
  const result: PlanInstanceChange = { address: change.address, action, attributes: action === 'no-op' || action === 'delete' ? [] : changedAttributes(change) };
  const reason = describeReason(change.action_reason);
  if (reason) result.reason = reason;
  return result;
}

type Attribute = PlanInstanceChange['attributes'][number];

function changedAttributes(change: ResourceChange): Attribute[] {
  const { before, after, after_unknown: unknown, before_sensitive: beforeSensitive, after_sensitive: afterSensitive } = change.change;
  const beforeObject = asObject(before);
  const afterObject = asObject(after);
  const names = new Set([...Object.keys(beforeObject), ...Object.keys(afterObject), ...Object.keys(asObject(unknown))]);
  const attributes: Attribute[] = [];
  for (const name of [...names].sort()) {
    const sensitive = marked(beforeSensitive, name) || marked(afterSensitive, name);
    const unknownAfter = marked(unknown, name);
    const hadBefore = Object.hasOwn(beforeObject, name);
    const hasAfter = Object.hasOwn(afterObject, name);
    const same = !unknownAfter && hadBefore === hasAfter && JSON.stringify(beforeObject[name]) === JSON.stringify(afterObject[name]);
    if (same) continue;
    const attribute: Attribute = { name };
    if (sensitive) attribute.sensitive = true;
    else {
      if (hadBefore && beforeObject[name] !== null) attribute.before = beforeObject[name];
      if (!unknownAfter && hasAfter) attribute.after = afterObject[name];
    }
    if (unknownAfter) attribute.unknownAfter = true;
    attributes.push(attribute);
  }
  return attributes;
}

function asObject(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Whether a marker (true for the whole value, or an object mirroring it) marks any part of attribute `name`. */
function marked(marker: unknown, name: string): boolean {
  if (marker === true) return true;
  const object = asObject(marker);
  return Object.hasOwn(object, name) && containsTrue(object[name], 0);
}

function containsTrue(value: unknown, depth: number): boolean {
  if (value === true) return true;
  if (depth > 64 || value === null || typeof value !== 'object') return false;
  return Object.values(value as Record<string, unknown>).some((inner) => containsTrue(inner, depth + 1));
}
