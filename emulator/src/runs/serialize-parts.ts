// Plans, applies, cost estimates, policy checks and task stages as JSON:API resources (notes §5).
// The log-read-url is absolute and unauthenticated, like the service's blob-storage URLs.
import { isoMillis, relationship } from '../http/jsonapi';
import type {
  ApplyRecord,
  CostEstimateRecord,
  LogRecord,
  PlanRecord,
  PolicyCheckRecord,
  TaskStageRecord,
} from './model';

/** Where logs are served (outside /api/v2: no token, a secret in the path). */
export const logPathPrefix = '/_archivist/v1/object/';

export function logReadUrl(origin: string, log: LogRecord): string {
  return `${origin}${logPathPrefix}${log.secret}`;
}

const executionDetails = { mode: 'remote' };

export function serializePlan(plan: PlanRecord, origin: string): Record<string, unknown> {
  const self = `/api/v2/plans/${plan.id}`;
  return {
    id: plan.id,
    type: 'plans',
    attributes: {
      status: plan.status,
      'status-timestamps': { ...plan.statusTimestamps },
      'has-changes': plan.hasChanges,
      'resource-additions': plan.resourceAdditions,
      'resource-changes': plan.resourceChanges,
      'resource-destructions': plan.resourceDestructions,
      'resource-imports': plan.resourceImports,
      'generated-configuration': false,
      'structured-run-output-enabled': plan.structuredRunOutput ?? false,
      'execution-details': executionDetails,
      'log-read-url': logReadUrl(origin, plan.log),
    },
    relationships: {
      run: relationship('runs', plan.runId, `/api/v2/runs/${plan.runId}`),
      'state-versions': { data: [] },
    },
    links: { self, 'json-output': `${self}/json-output` },
  };
}

export function serializeApply(apply: ApplyRecord, origin: string): Record<string, unknown> {
  return {
    id: apply.id,
    type: 'applies',
    attributes: {
      status: apply.status,
      'status-timestamps': { ...apply.statusTimestamps },
      'resource-additions': apply.resourceAdditions,
      'resource-changes': apply.resourceChanges,
      'resource-destructions': apply.resourceDestructions,
      'resource-imports': apply.resourceImports,
      'execution-details': executionDetails,
      'log-read-url': logReadUrl(origin, apply.log),
    },
    relationships: {
      run: relationship('runs', apply.runId, `/api/v2/runs/${apply.runId}`),
      'state-versions': { data: [] },
    },
    links: { self: `/api/v2/applies/${apply.id}` },
  };
}

export function serializeCostEstimate(estimate: CostEstimateRecord): Record<string, unknown> {
  const finished = estimate.status === 'finished';
  return {
    id: estimate.id,
    type: 'cost-estimates',
    attributes: {
      status: estimate.status,
      'status-timestamps': { ...estimate.statusTimestamps },
      'error-message': estimate.errorMessage,
      // Decimal strings, and only once finished (notes §5.3).
      'prior-monthly-cost': finished ? estimate.priorMonthlyCost : null,
      'proposed-monthly-cost': finished ? estimate.proposedMonthlyCost : null,
      'delta-monthly-cost': finished ? estimate.deltaMonthlyCost : null,
      'matched-resources-count': finished ? estimate.matchedResourcesCount : null,
      'unmatched-resources-count': finished ? estimate.unmatchedResourcesCount : null,
      'resources-count': finished ? (estimate.matchedResourcesCount ?? 0) + (estimate.unmatchedResourcesCount ?? 0) : null,
    },
    links: { self: `/api/v2/cost-estimates/${estimate.id}` },
  };
}

export function serializePolicyCheck(check: PolicyCheckRecord, canOverride: boolean): Record<string, unknown> {
  const self = `/api/v2/policy-checks/${check.id}`;
  const overridable = check.status === 'soft_failed';
  return {
    id: check.id,
    type: 'policy-checks',
    attributes: {
      status: check.status,
      'status-timestamps': { ...check.statusTimestamps },
      scope: 'organization',
      result: {
        result: check.softFailed + check.hardFailed === 0,
        passed: check.passed,
        'total-failed': check.advisoryFailed + check.softFailed + check.hardFailed,
        'hard-failed': check.hardFailed,
        'soft-failed': check.softFailed,
        'advisory-failed': check.advisoryFailed,
        'duration-ms': 0,
      },
      actions: { 'is-overridable': overridable },
      permissions: { 'can-override': canOverride },
    },
    relationships: { run: relationship('runs', check.runId) },
    links: { self, output: `${self}/output` },
  };
}

export function policyCheckOutput(check: PolicyCheckRecord): string {
  const lines = check.policies.map(
    (p) => `${p.passed ? 'PASS' : 'FAIL'} - ${p.name} (${p.enforcement})`,
  );
  return `${lines.join('\n')}\n`;
}

export function serializeTaskStage(stage: TaskStageRecord): Record<string, unknown> {
  return {
    id: stage.id,
    type: 'task-stages',
    attributes: {
      stage: stage.stage,
      status: stage.status,
      'status-timestamps': { ...stage.statusTimestamps },
      'created-at': isoMillis(stage.createdAt),
      'updated-at': isoMillis(stage.createdAt),
      results: stage.results.map((r) => ({ 'task-name': r.name, enforcement: r.enforcement, passed: r.passed })),
    },
    relationships: { run: relationship('runs', stage.runId) },
    links: { self: `/api/v2/task-stages/${stage.id}` },
  };
}
