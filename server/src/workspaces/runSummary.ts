// Turns the service's run documents into the plain data the client (RunSummary) and the features (SnapshotRun) use.
import type { Run } from '../api';
import { forceCancelAvailableAt, isForceCancelable, relatedId, runStatusLabel } from '../api';
import type { AnyResource } from '../api/schemas/jsonapi';
import { findIncluded } from '../api/schemas/jsonapi';
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

/** The caller's rights on the run (`permissions`), only the members the service sent. */
function runPermissions(run: Run): RunSummary['permissions'] {
  const p = run.attributes.permissions;
  if (!p) return undefined;
  const pairs = [['can-apply', 'canApply'], ['can-cancel', 'canCancel'], ['can-discard', 'canDiscard'], ['can-force-execute', 'canForceExecute'], ['can-force-cancel', 'canForceCancel']] as const;
  const result: NonNullable<RunSummary['permissions']> = {};
  for (const [wire, name] of pairs) if (typeof p[wire] === 'boolean') result[name] = p[wire] as boolean;
  return result;
}

/**
 * Force-execute (spec §3) moves a `pending` run that waits behind another: the service's own flag when it sends one
 * (`actions.is-force-executable`), else pending with the permission.
 */
function forceExecutable(run: Run): boolean {
  const flag = (run.attributes.actions as Record<string, unknown> | null | undefined)?.['is-force-executable'];
  if (typeof flag === 'boolean') return flag;
  return run.attributes.status === 'pending' && run.attributes.permissions?.['can-force-execute'] !== false;
}

/** Counts from an included plan (additions, changes, destructions) — the apply's once it ran. */
function includedCounts(run: Run, included: readonly AnyResource[]): Partial<RunSummary> {
  const phase = (name: string) => {
    const data = run.relationships?.[name]?.data;
    return data && !Array.isArray(data) ? findIncluded(included, data) : undefined;
  };
  const apply = phase('apply');
  const plan = phase('plan');
  const counts: Partial<RunSummary> = {};
  const applied = apply && typeof apply.attributes?.['resource-additions'] === 'number' && apply.attributes?.status !== 'unreachable' && apply.attributes?.status !== 'pending';
  const source = applied ? apply : plan;
  for (const [wire, name] of [['resource-additions', 'resourceAdditions'], ['resource-changes', 'resourceChanges'], ['resource-destructions', 'resourceDestructions']] as const) {
    const value = source?.attributes?.[wire];
    if (typeof value === 'number') counts[name] = value;
  }
  return counts;
}

function createdBy(run: Run, included: readonly AnyResource[]): string | undefined {
  const data = run.relationships?.['created-by']?.data;
  const user = data && !Array.isArray(data) ? findIncluded(included, data) : undefined;
  const name = user?.attributes?.username;
  return typeof name === 'string' ? name : undefined;
}

function statusTimestamps(run: Run): Record<string, string> | undefined {
  const stamps = run.attributes['status-timestamps'];
  if (!stamps) return undefined;
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries(stamps)) if (typeof value === 'string') result[key] = value;
  return Object.keys(result).length > 0 ? result : undefined;
}

/** `included`: the documents that came with the run (`include=plan,apply,created_by`), for counts and who queued it. */
export function summarizeRun(run: Run, included: readonly AnyResource[] = []): RunSummary {
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
    autoApply: a['auto-apply'] ?? undefined,
    allowEmptyApply: a['allow-empty-apply'] ?? undefined,
    allowConfigGeneration: a['allow-config-generation'] ?? undefined,
    debuggingMode: a['debugging-mode'] ?? undefined,
    refresh: a.refresh ?? undefined,
    targetAddrs: a['target-addrs'] ?? undefined,
    replaceAddrs: a['replace-addrs'] ?? undefined,
    variableKeys: a.variables?.length ? a.variables.map((variable) => variable.key) : undefined,
    forceCancelAvailableAt: forceCancelAvailableAt(run),
    permissions: runPermissions(run),
    isForceExecutable: forceExecutable(run),
    createdBy: createdBy(run, included),
    terraformVersion: a['terraform-version'] ?? undefined,
    statusTimestamps: statusTimestamps(run),
    ...includedCounts(run, included),
    configurationVersionId: relatedId(run, 'configuration-version'),
    planId: relatedId(run, 'plan'),
    applyId: relatedId(run, 'apply'),
    costEstimateId: relatedId(run, 'cost-estimate'),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) (summary as unknown as Record<string, unknown>)[key] = value;
  return summary;
}

/**
 * A run as features see it. Its `actions` are what the caller may do with it: the run's flags, less what the
 * caller's permissions on it forbid (a member's token sees a run confirmable, yet may not apply it; offering Apply
 * then only led to a vague refusal).
 */
export function snapshotRun(run: Run): SnapshotRun {
  const summary = summarizeRun(run);
  const may = summary.permissions ?? {};
  const actions = {
    ...summary.actions,
    isConfirmable: summary.actions.isConfirmable && may.canApply !== false,
    isDiscardable: summary.actions.isDiscardable && may.canDiscard !== false,
    isCancelable: summary.actions.isCancelable && may.canCancel !== false,
    isForceCancelable: summary.actions.isForceCancelable && may.canForceCancel !== false,
  };
  const result: SnapshotRun = { id: run.id, status: summary.status, actions };
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
