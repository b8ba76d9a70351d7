import { prompts } from '../../userPrompts';
import type { RunsParams } from '../../../../server/src/protocol';
import { currentFilterLabels, operationChoices, sourceChoices, statusGroupChoices } from './runFilterLabels';

/** The spec's filters for run lists (§4.2): one status group, operations, sources. Empty = no filter. */
export interface RunFilters {
  statusGroup?: string;
  operations?: string[];
  sources?: string[];
}

const allOperations = ['plan_only', 'plan_and_apply', 'save_plan', 'refresh_only', 'destroy', 'empty_apply'];

export function isFiltered(filters: RunFilters): boolean {
  return Boolean(filters.statusGroup || filters.operations?.length || filters.sources?.length);
}

/**
 * The list request's filters. Without an operation filter every operation is named, because the service leaves
 * plan-only runs out of a workspace's list otherwise (spec §4.2), and the view shows them. A "Plan only" filter is
 * sent as picked: the server asks the service for every operation and keeps the plan-only runs
 * (server/src/workspaces/runOperationFilter.ts), since filter[operation]=plan_only alone lists none.
 */
export function filterParams(filters: RunFilters): Pick<RunsParams, 'statusGroup' | 'operations' | 'sources'> {
  return {
    operations: filters.operations?.length ? filters.operations : allOperations,
    ...(filters.statusGroup ? { statusGroup: filters.statusGroup } : {}),
    ...(filters.sources?.length ? { sources: filters.sources } : {}),
  };
}

export { describeFilters } from './runFilterLabels';

/** Asks which filter to change, then its values; undefined when the user cancelled (nothing changes). */
export async function pickFilters(current: RunFilters): Promise<RunFilters | undefined> {
  const now = currentFilterLabels(current);
  const which = await prompts.quickPick(
    [
      { label: 'Status', id: 'status', description: now.status },
      { label: 'Operation', id: 'operation', description: now.operation },
      { label: 'Source', id: 'source', description: now.source },
    ],
    { title: 'Filter runs by', placeHolder: 'Choose what to filter on' },
  );
  if (!which) return undefined;
  if (which.id === 'status') {
    const picked = await prompts.quickPick(
      [{ label: 'Any status', value: undefined as string | undefined }, ...statusGroupChoices.map((g) => ({ label: g.label, description: g.detail, value: g.value as string | undefined }))],
      { title: 'Show runs whose status is' },
    );
    if (!picked) return undefined;
    return { ...current, statusGroup: picked.value };
  }
  const choices = which.id === 'operation' ? operationChoices : sourceChoices;
  const selected = which.id === 'operation' ? current.operations : current.sources;
  const picked = await prompts.quickPickMany(
    choices.map((c) => ({ label: c.label, value: c.value, picked: selected?.includes(c.value) ?? false })),
    { title: `Show runs whose ${which.id} is (none selected = any)` },
  );
  if (!picked) return undefined;
  const values = picked.map((p) => p.value);
  return which.id === 'operation' ? { ...current, operations: values.length ? values : undefined } : { ...current, sources: values.length ? values : undefined };
}
