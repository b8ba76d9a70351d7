// Turns the service's run documents into the plain data the client (RunSummary) and the features (SnapshotRun) use.
import type { Run } from '../api';
import { forceCancelAvailableAt, isForceCancelable, relatedId, runStatusLabel } from '../api';
import type { SnapshotRun } from '../features/host';
import type { RunSummary } from '../protocol';

export function runActions(run: Run): RunSummary['actions'] {
  const actions = run.attributes.actions;
  return {
    isCancelable: actions?.['is-cancelable'] === true,
    isConfirmable: actions?.['is-confirmable'] === true,
    isDiscardable: actions?.['is-discardable'] === true,
    isForceCancelable: isForceCancelable(run),
  };
}

/** When the run entered its status: the status-timestamps key for it (`planned` → `planned-at`), if present. */
function statusChangedAt(run: Run): string | undefined {
  const timestamps = run.attributes['status-timestamps'] ?? {};
  const key = `${run.attributes.status.replace(/_/g, '-')}-at`;
  return timestamps[key] ?? undefined;
}

export function summarizeRun(run: Run): RunSummary {
  const a = run.attributes;
  const summary: RunSummary = {
    id: run.id,
    status: a.status,
    statusLabel: runStatusLabel(a.status),
    actions: runActions(run),
  };
  const optional: Partial<RunSummary> = {
    workspaceId: relatedId(run, 'workspace'),
    message: a.message ?? undefined,
    source: a.source ?? undefined,
    createdAt: a['created-at'] ?? undefined,
    statusChangedAt: statusChangedAt(run),
    hasChanges: a['has-changes'] ?? undefined,
    isDestroy: a['is-destroy'] ?? undefined,
    planOnly: a['plan-only'] ?? undefined,
    refreshOnly: a['refresh-only'] ?? undefined,
    savePlan: a['save-plan'] ?? undefined,
    targetAddrs: a['target-addrs'] ?? undefined,
    replaceAddrs: a['replace-addrs'] ?? undefined,
    forceCancelAvailableAt: forceCancelAvailableAt(run),
    configurationVersionId: relatedId(run, 'configuration-version'),
    planId: relatedId(run, 'plan'),
    applyId: relatedId(run, 'apply'),
    costEstimateId: relatedId(run, 'cost-estimate'),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) (summary as unknown as Record<string, unknown>)[key] = value;
  return summary;
}

export function snapshotRun(run: Run): SnapshotRun {
  const summary = summarizeRun(run);
  const result: SnapshotRun = { id: run.id, status: summary.status, actions: summary.actions };
  if (summary.createdAt) result.createdAt = summary.createdAt;
  if (summary.statusChangedAt) result.statusChangedAt = summary.statusChangedAt;
  if (summary.message) result.message = summary.message;
  if (summary.isDestroy !== undefined) result.isDestroy = summary.isDestroy;
  if (summary.planOnly !== undefined) result.planOnly = summary.planOnly;
  if (summary.refreshOnly !== undefined) result.refreshOnly = summary.refreshOnly;
  if (summary.forceCancelAvailableAt) result.forceCancelAvailableAt = summary.forceCancelAvailableAt;
  return result;
}

/** What makes a run "changed" for the watcher: its status and what can be done with it. */
export function runSignature(run: Run): string {
  const actions = runActions(run);
  return [
    run.attributes.status,
    actions.isCancelable,
    actions.isConfirmable,
    actions.isDiscardable,
    actions.isForceCancelable,
    run.attributes['has-changes'] ?? '',
  ].join('|');
}
