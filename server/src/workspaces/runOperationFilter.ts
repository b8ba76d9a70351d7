// A workspace's run list leaves plan_only runs out unless filter[operation] names all six operations (spec §4.2):
// asking for `plan_only` (the Runs view's "Plan only" filter) would list none. Such a filter is sent as every
// operation, and the page is narrowed here to the operations asked for. Organization lists have no such rule.
import { allRunOperations, type Run } from '../api';

export interface OperationQuery {
  /** What to send as filter[operation]. */
  operations: string[] | undefined;
  /** Keeps the runs of the operations asked for; undefined when the service's answer needs no narrowing. */
  keep?: (run: Run) => boolean;
}

export function workspaceOperationQuery(requested: string[] | undefined): OperationQuery {
  if (!requested?.length || !requested.includes('plan_only')) return { operations: requested };
  if (allRunOperations.every((operation) => requested.includes(operation))) return { operations: requested };
  const wanted = new Set(requested);
  return { operations: [...allRunOperations], keep: (run) => wanted.has(operationOf(run)) };
}

/** The run's operation (spec §2.3), from the flags the service sends; the first that holds, as the service ranks them. */
export function operationOf(run: Run): string {
  const a = run.attributes;
  if (a['plan-only']) return 'plan_only';
  if (a['save-plan']) return 'save_plan';
  if (a['refresh-only']) return 'refresh_only';
  if (a['is-destroy']) return 'destroy';
  if (a['allow-empty-apply']) return 'empty_apply';
  return 'plan_and_apply';
}
