// The run lists' filters and searches (spec §4.2 query table, notes §4.9). Query names arrive with brackets
// already decoded by the pipeline, whether the client percent-encoded them or not.
import { invalidParameter } from '../http/errors';
import type { Store } from '../store/store';
import type { RunRecord } from './model';
import { operationOf } from './serialize';
import { inStatusGroup, statusGroups } from './statuses';

/** The six operations of spec §2.3: the workspace list shows plan-only runs only when asked for all of them. */
export const allOperations: readonly string[] = ['plan_only', 'plan_and_apply', 'save_plan', 'refresh_only', 'destroy', 'empty_apply'];

export type RunListScope = 'workspace' | 'organization';

export interface RunListContext {
  store: Store;
  scope: RunListScope;
  now: Date;
  /** Workspace lists: when the workspace was created (the default timeframe starts there). */
  workspaceCreatedAt?: Date;
}

type Predicate = (run: RunRecord) => boolean;

export function runListPredicate(query: URLSearchParams, ctx: RunListContext): Predicate {
  const predicates: Predicate[] = [];
  const list = (name: string) => {
    const raw = query.get(name);
    if (raw === null) return undefined;
    return raw.split(',').map((item) => item.trim()).filter((item) => item.length > 0);
  };

  const operations = list('filter[operation]');
  if (operations) predicates.push((run) => operations.includes(operationOf(run)));
  if (ctx.scope === 'workspace' && !allOperations.every((op) => operations?.includes(op))) {
    predicates.push((run) => !run.planOnly);
  }

  const statuses = list('filter[status]');
  if (statuses) predicates.push((run) => statuses.includes(run.status));

  // Every emulated run executes remotely, outside any agent pool: naming pools matches nothing.
  const pools = list('filter[agent_pool_names]');
  if (pools && pools.length > 0) predicates.push(() => false);

  const workspaceNames = ctx.scope === 'organization' ? list('filter[workspace_names]') : undefined;
  if (workspaceNames) predicates.push((run) => workspaceNames.includes(ctx.store.workspace(run.workspaceId)?.name ?? ''));

  const sources = list('filter[source]');
  if (sources) predicates.push((run) => sources.includes(run.source));

  const group = query.get('filter[status_group]');
  if (group !== null) {
    if (!statusGroups.includes(group)) {
      throw invalidParameter(`filter[status_group] must be one of ${statusGroups.join(', ')} (a single group).`, 'filter[status_group]');
    }
    predicates.push((run) => inStatusGroup(run.status, group));
  }

  predicates.push(timeframePredicate(query.get('filter[timeframe]'), ctx));
  predicates.push(searchPredicate(query, ctx.store));
  return (run) => predicates.every((predicate) => predicate(run));
}

function timeframePredicate(raw: string | null, ctx: RunListContext): Predicate {
  const pastYear = (run: RunRecord) => run.createdAt.getTime() >= ctx.now.getTime() - 365 * 24 * 3600 * 1000;
  if (raw === null || raw === '') {
    // Omitted: the workspace list goes back to the workspace's creation; the organization list one year.
    if (ctx.scope === 'organization') return pastYear;
    const since = ctx.workspaceCreatedAt?.getTime() ?? Number.NEGATIVE_INFINITY;
    return (run) => run.createdAt.getTime() >= since;
  }
  if (raw === 'year') return pastYear;
  if (/^\d{4}$/.test(raw)) {
    const year = Number(raw);
    return (run) => run.createdAt.getUTCFullYear() === year;
  }
  throw invalidParameter('filter[timeframe] must be a year such as 2025, or "year" for the past twelve months.', 'filter[timeframe]');
}

function searchPredicate(query: URLSearchParams, store: Store): Predicate {
  const contains = (haystack: string | null | undefined, needle: string) =>
    typeof haystack === 'string' && haystack.toLowerCase().includes(needle.toLowerCase());
  const ingressOf = (run: RunRecord) => store.configurationVersion(run.configurationVersionId)?.ingress ?? null;
  const user = query.get('search[user]');
  const commit = query.get('search[commit]');
  if (user !== null || commit !== null) {
    // search[basic] is ignored when either of these is present (spec §4.2).
    return (run) => {
      const ingress = ingressOf(run);
      if (user !== null && !contains(ingress?.senderUsername, user)) return false;
      if (commit !== null && !contains(ingress?.commitSha, commit)) return false;
      return true;
    };
  }
  const basic = query.get('search[basic]');
  if (basic === null || basic === '') return () => true;
  return (run) => {
    const ingress = ingressOf(run);
    const creator = store.users.get(run.createdByUserId)?.username;
    return [ingress?.senderUsername, creator, ingress?.commitSha, run.id, run.message].some((field) => contains(field, basic));
  };
}
