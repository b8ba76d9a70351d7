import { prompts } from '../../userPrompts';
import type { RunsParams } from '../../../../server/src/protocol';

/** The spec's filters for run lists (§4.2): one status group, operations, sources. Empty = no filter. */
export interface RunFilters {
  statusGroup?: string;
  operations?: string[];
  sources?: string[];
}

const allOperations = ['plan_only', 'plan_and_apply', 'save_plan', 'refresh_only', 'destroy', 'empty_apply'];
const statusGroups = [
  { value: 'non_final', label: 'Active', detail: 'running, needing confirmation, queued or pending' },
  { value: 'final', label: 'Finished', detail: 'in a final state' },
  { value: 'discardable', label: 'Discardable', detail: 'planned and waiting: can be discarded' },
];
const operations = [
  { value: 'plan_and_apply', label: 'Plan and apply' },
  { value: 'plan_only', label: 'Plan only' },
  { value: 'save_plan', label: 'Save plan' },
  { value: 'refresh_only', label: 'Refresh only' },
  { value: 'destroy', label: 'Destroy' },
  { value: 'empty_apply', label: 'Empty apply' },
];
const sources = [
  { value: 'svc-ui', label: 'Web UI' },
  { value: 'svc-api', label: 'API' },
  { value: 'svc-configuration-version', label: 'Version control' },
];

export function isFiltered(filters: RunFilters): boolean {
  return Boolean(filters.statusGroup || filters.operations?.length || filters.sources?.length);
}

/**
 * The list request's filters. Without an operation filter every operation is named, because the service leaves
 * plan-only runs out of a workspace's list otherwise (spec §4.2), and the view shows them.
 */
export function filterParams(filters: RunFilters): Pick<RunsParams, 'statusGroup' | 'operations' | 'sources'> {
  return {
    operations: filters.operations?.length ? filters.operations : allOperations,
    ...(filters.statusGroup ? { statusGroup: filters.statusGroup } : {}),
    ...(filters.sources?.length ? { sources: filters.sources } : {}),
  };
}

/** "Showing active runs · operation: Destroy · source: Web UI", for the view's message. */
export function describeFilters(filters: RunFilters): string | undefined {
  if (!isFiltered(filters)) return undefined;
  const parts: string[] = [];
  const group = statusGroups.find((g) => g.value === filters.statusGroup);
  if (filters.statusGroup) parts.push(`status: ${group?.label ?? filters.statusGroup}`);
  if (filters.operations?.length) parts.push(`operation: ${filters.operations.map((o) => operations.find((x) => x.value === o)?.label ?? o).join(', ')}`);
  if (filters.sources?.length) parts.push(`source: ${filters.sources.map((o) => sources.find((x) => x.value === o)?.label ?? o).join(', ')}`);
  return `Filtered by ${parts.join(' · ')}`;
}

/** Asks which filter to change, then its values; undefined when the user cancelled (nothing changes). */
export async function pickFilters(current: RunFilters): Promise<RunFilters | undefined> {
  const which = await prompts.quickPick(
    [
      { label: 'Status', id: 'status', description: current.statusGroup ?? 'any' },
      { label: 'Operation', id: 'operation', description: current.operations?.join(', ') ?? 'any' },
      { label: 'Source', id: 'source', description: current.sources?.join(', ') ?? 'any' },
    ],
    { title: 'Filter runs by', placeHolder: 'Choose what to filter on' },
  );
  if (!which) return undefined;
  if (which.id === 'status') {
    const picked = await prompts.quickPick(
      [{ label: 'Any status', value: undefined as string | undefined }, ...statusGroups.map((g) => ({ label: g.label, description: g.detail, value: g.value as string | undefined }))],
      { title: 'Show runs whose status is' },
    );
    if (!picked) return undefined;
    return { ...current, statusGroup: picked.value };
  }
  const choices = which.id === 'operation' ? operations : sources;
  const selected = which.id === 'operation' ? current.operations : current.sources;
  const picked = await prompts.quickPickMany(
    choices.map((c) => ({ label: c.label, value: c.value, picked: selected?.includes(c.value) ?? false })),
    { title: `Show runs whose ${which.id} is (none selected = any)` },
  );
  if (!picked) return undefined;
  const values = picked.map((p) => p.value);
  return which.id === 'operation' ? { ...current, operations: values.length ? values : undefined } : { ...current, sources: values.length ? values : undefined };
}
