// The run filters' values as people read them: "Plan only", not the `plan_only` the service takes. Used by the
// view's message and the "Filter runs by" picker. No `vscode` import, so it is unit-tested with node:test.
import type { RunFilters } from './runFilters';

export interface FilterChoice {
  value: string;
  label: string;
  detail?: string;
}

export const statusGroupChoices: readonly FilterChoice[] = [
  { value: 'non_final', label: 'Active', detail: 'running, needing confirmation, queued or pending' },
  { value: 'final', label: 'Finished', detail: 'in a final state' },
  { value: 'discardable', label: 'Discardable', detail: 'planned and waiting: can be discarded' },
];
export const operationChoices: readonly FilterChoice[] = [
  { value: 'plan_and_apply', label: 'Plan and apply' },
  { value: 'plan_only', label: 'Plan only' },
  { value: 'save_plan', label: 'Save plan' },
  { value: 'refresh_only', label: 'Refresh only' },
  { value: 'destroy', label: 'Destroy' },
  { value: 'empty_apply', label: 'Empty apply' },
];
export const sourceChoices: readonly FilterChoice[] = [
  { value: 'svc-ui', label: 'Web UI' },
  { value: 'svc-api', label: 'API' },
  { value: 'svc-configuration-version', label: 'Version control' },
];

/** "Plan only, Destroy"; a value without a label (a newer service's) is shown as it is. */
export function labelsOf(values: readonly string[], choices: readonly FilterChoice[]): string {
  return values.map((value) => choices.find((choice) => choice.value === value)?.label ?? value).join(', ');
}

/** What each filter is set to now, for the picker's descriptions; "any" when it is not set. */
export function currentFilterLabels(filters: RunFilters): { status: string; operation: string; source: string } {
  return {
    status: filters.statusGroup ? labelsOf([filters.statusGroup], statusGroupChoices) : 'any',
    operation: filters.operations?.length ? labelsOf(filters.operations, operationChoices) : 'any',
    source: filters.sources?.length ? labelsOf(filters.sources, sourceChoices) : 'any',
  };
}

/** "Filtered by status: Active · operation: Destroy · source: Web UI", for the view's message; undefined when unfiltered. */
export function describeFilters(filters: RunFilters): string | undefined {
  const parts: string[] = [];
  if (filters.statusGroup) parts.push(`status: ${labelsOf([filters.statusGroup], statusGroupChoices)}`);
  if (filters.operations?.length) parts.push(`operation: ${labelsOf(filters.operations, operationChoices)}`);
  if (filters.sources?.length) parts.push(`source: ${labelsOf(filters.sources, sourceChoices)}`);
  return parts.length ? `Filtered by ${parts.join(' · ')}` : undefined;
}
