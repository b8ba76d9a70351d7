/**
 * The run states the client knows how to describe. For display only: a status not in this list is shown as the
 * service sent it (humanised), never rejected — the service owns the list and adds to it.
 */

export const knownRunStatuses = [
  'pending', 'fetching', 'fetching_completed', 'pre_plan_running', 'pre_plan_completed', 'queuing', 'plan_queued',
  'planning', 'planned', 'cost_estimating', 'cost_estimated', 'policy_checking', 'policy_override',
  'policy_soft_failed', 'policy_checked', 'confirmed', 'post_plan_running', 'post_plan_completed',
  'planned_and_finished', 'planned_and_saved', 'apply_queued', 'applying', 'applied', 'discarded', 'errored',
  'canceled', 'force_canceled',
  // Listed by the service's OpenAPI description or go-tfe, not by the spec (notes §4.6).
  'pre_plan_awaiting_decision', 'post_plan_awaiting_decision', 'pre_apply_running', 'pre_apply_completed',
  'queuing_apply', 'post_apply_running', 'post_apply_completed', 'tf_policy_checked', 'tf_policy_override',
  'assessing', 'assessed',
] as const;

export type KnownRunStatus = (typeof knownRunStatuses)[number];

/** Terminal states: nothing more will happen to the run (spec §3 and notes §4.6). */
export const finalRunStatuses: readonly string[] = [
  'applied', 'planned_and_finished', 'policy_soft_failed', 'discarded', 'errored', 'canceled', 'force_canceled',
];

/** Members of the spec's `discardable` status group. */
export const discardableRunStatuses: readonly string[] = [
  'planned', 'planned_and_saved', 'cost_estimated', 'policy_checked', 'policy_override', 'post_plan_running',
  'post_plan_completed',
];

const labels: Partial<Record<KnownRunStatus, string>> = {
  fetching_completed: 'Fetched',
  plan_queued: 'Plan queued',
  policy_override: 'Policy override needed',
  policy_soft_failed: 'Policy soft failed',
  planned_and_finished: 'Planned and finished',
  planned_and_saved: 'Planned and saved',
  apply_queued: 'Apply queued',
  force_canceled: 'Force canceled',
};

export function isKnownRunStatus(status: string): status is KnownRunStatus {
  return (knownRunStatuses as readonly string[]).includes(status);
}

export function isFinalRunStatus(status: string): boolean {
  return finalRunStatuses.includes(status);
}

/** A label for any status: `plan_queued` → "Plan queued"; an unknown `warp_drive_engaged` → "Warp drive engaged". */
export function runStatusLabel(status: string): string {
  const known = isKnownRunStatus(status) ? labels[status] : undefined;
  if (known) return known;
  const words = status.replace(/[_-]+/g, ' ').trim();
  return words.length > 0 ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown';
}
