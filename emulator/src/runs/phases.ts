// The run state machine (notes §4.7), as a pure function: given where a run is and what applies to it, which
// state comes next. `undefined` means the run stays put — it is final, or paused until a user acts (apply,
// override, discard). The engine (engine.ts) owns time and side effects; this file owns only the order.
//
//   pending → [fetching → fetching_completed] → [pre_plan_running → pre_plan_completed] → queuing → plan_queued
//   → planning → planned → [post_plan_running → post_plan_completed] → [cost_estimating → cost_estimated]
//   → [policy_checking → policy_checked | policy_override | policy_soft_failed | errored]
//   → planned_and_finished (plan-only, or no changes) | planned_and_saved (saved plan) | confirmed (auto-apply)
//   | pause for confirmation → confirmed → [pre_apply_running → pre_apply_completed] → apply_queued → applying
//   → [post_apply_running → post_apply_completed] → applied

export type PolicyOutcome = 'none' | 'passed' | 'soft_failed' | 'hard_failed';

/** Everything about a run and its workspace that decides its path. */
export interface RunPath {
  /** Configuration comes from version control: the run fetches it first. */
  fetchesFromVcs: boolean;
  /** Run tasks per stage; `fails` = a mandatory task of that stage fails (the run errors). */
  prePlanTasks: StageTasks;
  postPlanTasks: StageTasks;
  preApplyTasks: StageTasks;
  postApplyTasks: StageTasks;
  planErrors: boolean;
  /** Known once planning ends. */
  hasChanges: boolean;
  costEstimation: boolean;
  policy: PolicyOutcome;
  planOnly: boolean;
  savePlan: boolean;
  allowEmptyApply: boolean;
  autoApply: boolean;
  /** A user overrode the soft-failed policy check. */
  policyOverridden: boolean;
  /** A user confirmed (apply action) the paused run. */
  confirmed: boolean;
}

export interface StageTasks {
  present: boolean;
  fails: boolean;
}

export const noTasks: StageTasks = { present: false, fails: false };

export function nextStatus(current: string, path: RunPath): string | undefined {
  switch (current) {
    case 'pending':
      if (path.fetchesFromVcs) return 'fetching';
      return afterFetch(path);
    case 'fetching':
      return 'fetching_completed';
    case 'fetching_completed':
      return afterFetch(path);
    case 'pre_plan_running':
      return path.prePlanTasks.fails ? 'errored' : 'pre_plan_completed';
    case 'pre_plan_completed':
      return 'queuing';
    case 'queuing':
      return 'plan_queued';
    case 'plan_queued':
      return 'planning';
    case 'planning':
      return path.planErrors ? 'errored' : 'planned';
    case 'planned':
      if (!path.hasChanges && !(path.allowEmptyApply && !path.planOnly)) return 'planned_and_finished';
      if (path.postPlanTasks.present) return 'post_plan_running';
      return afterPostPlan(path);
    case 'post_plan_running':
      return path.postPlanTasks.fails ? 'errored' : 'post_plan_completed';
    case 'post_plan_completed':
      return afterPostPlan(path);
    case 'cost_estimating':
      return 'cost_estimated';
    case 'cost_estimated':
      return afterCostEstimate(path);
    case 'policy_checking':
      return policyResult(path);
    case 'policy_override':
      return path.policyOverridden ? 'policy_checked' : undefined;
    case 'policy_checked':
      return decision(path);
    case 'planned_and_saved':
      return path.confirmed ? 'confirmed' : undefined;
    case 'confirmed':
      return path.preApplyTasks.present ? 'pre_apply_running' : 'apply_queued';
    case 'pre_apply_running':
      return path.preApplyTasks.fails ? 'errored' : 'pre_apply_completed';
    case 'pre_apply_completed':
      return 'apply_queued';
    case 'apply_queued':
      return 'applying';
    case 'applying':
      return path.postApplyTasks.present ? 'post_apply_running' : 'applied';
    case 'post_apply_running':
      // Post-apply tasks cannot undo an apply: a failure is reported on the task stage, the run still completes.
      return 'post_apply_completed';
    case 'post_apply_completed':
      return 'applied';
    default:
      // Final states, and anything this module does not know, go nowhere.
      return undefined;
  }
}

/** Whether the run sits in `status` waiting for a user to confirm it (the apply action's precondition). */
export function isPausedForConfirmation(status: string, path: RunPath): boolean {
  if (status === 'planned_and_saved') return !path.confirmed;
  const pauses = ['planned', 'post_plan_completed', 'cost_estimated', 'policy_checked'];
  return pauses.includes(status) && nextStatus(status, { ...path, confirmed: false }) === undefined;
}

function afterFetch(path: RunPath): string {
  return path.prePlanTasks.present ? 'pre_plan_running' : 'queuing';
}

function afterPostPlan(path: RunPath): string | undefined {
  if (path.costEstimation) return 'cost_estimating';
  return afterCostEstimate(path);
}

function afterCostEstimate(path: RunPath): string | undefined {
  if (path.policy !== 'none') return 'policy_checking';
  return decision(path);
}

function policyResult(path: RunPath): string | undefined {
  switch (path.policy) {
    case 'hard_failed':
      return 'errored';
    case 'soft_failed':
      // A plan-only run cannot be overridden into an apply: its soft failure is final.
      return path.planOnly ? 'policy_soft_failed' : 'policy_override';
    default:
      return 'policy_checked';
  }
}

/** Where a successfully planned and checked run goes; undefined = it pauses for confirmation where it is. */
function decision(path: RunPath): string | undefined {
  if (path.planOnly) return 'planned_and_finished';
  if (path.savePlan) return 'planned_and_saved';
  if (path.autoApply || path.confirmed) return 'confirmed';
  return undefined;
}

/**
 * How long a run stays in each state before moving on, at speed 1 (realistic seconds, so the demo looks alive).
 * States not listed (paused or final ones) have no timer: a user's action moves them on at once (`policy_override`
 * becomes `policy_checked` within the override call, actions.ts overridePolicy).
 */
export const realisticStateDurationsMs: Readonly<Record<string, number>> = {
  pending: 1000,
  fetching: 2000,
  fetching_completed: 500,
  pre_plan_running: 3000,
  pre_plan_completed: 500,
  queuing: 1000,
  plan_queued: 1500,
  planning: 6000,
  planned: 1000,
  post_plan_running: 3000,
  post_plan_completed: 500,
  cost_estimating: 2000,
  cost_estimated: 500,
  policy_checking: 2500,
  policy_checked: 500,
  confirmed: 1000,
  pre_apply_running: 3000,
  pre_apply_completed: 500,
  apply_queued: 1500,
  applying: 8000,
  post_apply_running: 3000,
  post_apply_completed: 500,
};

/** After a normal cancel, how long the interrupted process takes to stop by itself (it finishes the operation in flight). */
export const realisticInterruptStopMs: Readonly<Record<string, number>> = {
  planning: 2000,
  // An apply waits for the resource operation in flight (say, a database instance) before it can stop.
  applying: 20000,
};

/** The cool-off after a normal cancel before force-cancel is allowed. */
export const forceCancelCoolOffMs = 10000;
