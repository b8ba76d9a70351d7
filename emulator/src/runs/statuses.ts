// Groups of run statuses the rules refer to (spec §2.3, §3; notes §4.4, §4.6). Sets of strings, not an enum:
// a status this file does not list simply belongs to none of the groups.

/** Terminal states (notes §4.6 "Final states", plus `force_canceled` which the spec lists). */
export const finalStatuses: ReadonlySet<string> = new Set([
  'applied',
  'planned_and_finished',
  'policy_soft_failed',
  'discarded',
  'errored',
  'canceled',
  'force_canceled',
]);

/** The spec's `discardable` status group (filter[status_group]=discardable). */
export const discardableGroup: ReadonlySet<string> = new Set([
  'planned',
  'planned_and_saved',
  'cost_estimated',
  'policy_checked',
  'policy_override',
  'post_plan_running',
  'post_plan_completed',
]);

/** States a run can wait in for a user's confirmation (notes §4.4 is-confirmable). */
export const confirmableStatuses: ReadonlySet<string> = new Set([
  'planned',
  'cost_estimated',
  'policy_checked',
  'post_plan_completed',
  'planned_and_saved',
]);

/** Cancel interrupts only these (spec §4.2 cancel, §7: 409 otherwise). */
export const interruptibleStatuses: ReadonlySet<string> = new Set(['planning', 'applying']);

export function isFinal(status: string): boolean {
  return finalStatuses.has(status);
}

/** `filter[status_group]`: final, non_final (running, waiting, queued or pending), discardable. */
export function inStatusGroup(status: string, group: string): boolean {
  switch (group) {
    case 'final':
      return isFinal(status);
    case 'non_final':
      return !isFinal(status);
    case 'discardable':
      return discardableGroup.has(status);
    default:
      return false;
  }
}

export const statusGroups: readonly string[] = ['non_final', 'final', 'discardable'];

/**
 * The `status-timestamps` key for reaching a state: `planned_and_finished` → `planned-and-finished-at`. The one
 * irregular name is the service's `fetched-at` for `fetching_completed`.
 */
export function timestampKey(status: string): string {
  if (status === 'fetching_completed') return 'fetched-at';
  return `${status.replace(/_/g, '-')}-at`;
}

/** Second precision with an explicit offset, as the service writes status timestamps (notes §1.10). */
export function statusTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
