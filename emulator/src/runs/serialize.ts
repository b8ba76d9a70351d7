// Runs as JSON:API resources (spec §2.3, notes §4.3–4.5). `actions` say what the run's state allows,
// `permissions` what this caller may do; both must agree with what the action endpoints accept.
import { isoMillis, relationship } from '../http/jsonapi';
import type { Caller } from '../store/caller';
import { workspacePermissions } from '../store/permissions';
import type { Store } from '../store/store';
import { isCancelable, isConfirmable, isDiscardable, isForceCancelable } from './actions';
import type { RunEngine } from './engine';
import type { RunRecord } from './model';

/** The run operation (spec §2.3 "Run operations"), as `filter[operation]` matches it. */
export function operationOf(run: RunRecord): string {
  if (run.planOnly) return 'plan_only';
  if (run.savePlan) return 'save_plan';
  if (run.refreshOnly) return 'refresh_only';
  if (run.isDestroy) return 'destroy';
  if (run.allowEmptyApply) return 'empty_apply';
  return 'plan_and_apply';
}

export function serializeRun(engine: RunEngine, caller: Caller, run: RunRecord): Record<string, unknown> {
  const store: Store = engine.store;
  const workspace = store.workspace(run.workspaceId);
  const allowed = workspace ? workspacePermissions(store, caller, workspace) : undefined;
  const self = `/api/v2/runs/${run.id}`;
  const forceCancelable = isForceCancelable(engine, run);
  const attributes: Record<string, unknown> = {
    actions: {
      'is-cancelable': isCancelable(run),
      'is-confirmable': isConfirmable(engine, run),
      'is-discardable': isDiscardable(engine, run),
      'is-force-cancelable': forceCancelable,
    },
    permissions: {
      'can-apply': allowed?.canApply ?? false,
      'can-cancel': allowed?.canApply ?? false,
      'can-comment': allowed?.canQueueRun ?? false,
      'can-discard': allowed?.canApply ?? false,
      'can-force-execute': allowed?.canApply ?? false,
      'can-force-cancel': allowed?.canAdmin ?? false,
      'can-override-policy-check': allowed?.canAdmin ?? false,
    },
    'allow-config-generation': run.allowConfigGeneration,
    'allow-empty-apply': run.allowEmptyApply,
    'auto-apply': run.autoApply,
    'canceled-at': run.canceledAt ? isoMillis(run.canceledAt) : null,
    'created-at': isoMillis(run.createdAt),
    'updated-at': isoMillis(run.updatedAt),
    'debugging-mode': run.debuggingMode,
    'has-changes': run.hasChanges,
    'is-destroy': run.isDestroy,
    // The spec names this as a run attribute; the service also carries it in `actions` (notes §4.4).
    'is-force-cancelable': forceCancelable,
    message: run.message,
    'plan-only': run.planOnly,
    refresh: run.refresh,
    'refresh-only': run.refreshOnly,
    'replace-addrs': run.replaceAddrs,
    'save-plan': run.savePlan,
    source: run.source,
    status: run.status,
    'status-timestamps': { ...run.statusTimestamps },
    'target-addrs': run.targetAddrs,
    'trigger-reason': run.triggerReason,
    'engine-version': run.engineVersion,
    'terraform-version': run.engineVersion,
    variables: run.variables.map((v) => ({ key: v.key, value: v.value })),
    'position-in-queue': positionInQueue(engine, run),
  };
  if (run.forceCancelAvailableAt) {
    // Present only after a normal cancel. The spec spells it with underscores, the service with dashes: send both.
    attributes['force-cancel-available-at'] = isoMillis(run.forceCancelAvailableAt);
    attributes['force_cancel_available_at'] = isoMillis(run.forceCancelAvailableAt);
  }
  const related = (name: string) => `${self}/${name}`;
  return {
    id: run.id,
    type: 'runs',
    attributes,
    relationships: {
      workspace: { data: { id: run.workspaceId, type: 'workspaces' } },
      plan: relationship('plans', run.planId, related('plan')),
      apply: relationship('applies', run.applyId, related('apply')),
      'cost-estimate': relationship('cost-estimates', run.costEstimateId, related('cost-estimate')),
      'configuration-version': relationship('configuration-versions', run.configurationVersionId, related('configuration-version')),
      'created-by': relationship('users', run.createdByUserId, related('created-by')),
      'confirmed-by': relationship('users', run.confirmedByUserId, related('confirmed-by')),
      'canceled-by': relationship('users', run.canceledByUserId, related('canceled-by')),
      'policy-checks': { data: run.policyCheckIds.map((id) => ({ id, type: 'policy-checks' })), links: { related: related('policy-checks') } },
      'task-stages': { data: run.taskStageIds.map((id) => ({ id, type: 'task-stages' })), links: { related: related('task-stages') } },
      comments: { data: [], links: { related: related('comments') } },
      'run-events': { data: [], links: { related: related('run-events') } },
    },
    links: { self },
  };
}

/** How many runs are ahead of this one in its workspace's queue (0 once it runs or never waits). */
function positionInQueue(engine: RunEngine, run: RunRecord): number {
  if (!engine.isWaitingForWorkspace(run)) return 0;
  const ahead = engine.records
    .runsOfWorkspace(run.workspaceId)
    .filter((other) => other.id !== run.id && engine.isWaitingForWorkspace(other) && other.queuedAt <= run.queuedAt);
  return ahead.length + (engine.holderOf(run.workspaceId) ? 1 : 0);
}
