// What else changes when a run enters a state: its plan, apply, cost estimate, policy check and task stages
// follow the run (notes §4.7 "Sub-resource statuses"), the plan's changes are worked out when planning starts,
// and the workspace's next state version is written when an apply finishes (or, interrupted, stops).
import { runWorkspaceName } from './runWorkspaceName';
import type { Store } from '../store/store';
import { countChanges, declaredResourceAddresses, isTargeted, plannedChanges } from './changes';
import { readConfiguration } from '../engine/configuration';
import { configuredChanges, variableValues } from '../engine/plan';
import { checkConfiguration } from './configurationCheck';
import { planFindings } from './planFindings';
import type { ConfigurationFinding } from './configurationCheck';
import { recordAppliedChanges } from './appliedChanges';
import { endInterruption } from './interruption';
import { applyLogLines, planLogLines } from './logs';
import { appliedState } from './stateWrite';
import { generatedId, withValues } from './changeValues';
import { changesOutputs, plannedOutputs } from './plannedOutputs';
import { outputsReadingInstances } from './outputValues';
import { stateInstances } from './stateInstances';
import { movedState } from './stateMoves';
import { impliedMoveStatements, movedAddresses } from '../engine/refactoring';
import { structuredApplyLines, structuredPlanLines } from './structuredLogs';
import type { LogRecord, PlannedChange, RunRecord } from './model';
import { isFinal, statusTimestamp } from './statuses';
import type { RunRecords } from './records';

export interface EffectContext {
  store: Store;
  records: RunRecords;
  /** Clock ms of the transition, and how long the state is expected to last in clock ms (for log reveal). */
  atMs: number;
  expectedMs: number;
}

export function applyEntryEffects(run: RunRecord, status: string, ctx: EffectContext): void {
  const { records } = ctx;
  const at = new Date(ctx.atMs);
  const stamp = statusTimestamp(at);
  const plan = records.plan(run);
  const apply = records.apply(run);
  const stage = (name: string) => records.taskStage(run, name);
  switch (status) {
    case 'pre_plan_running':
    case 'post_plan_running':
    case 'pre_apply_running':
    case 'post_apply_running':
      setStatus(stage(status.replace('_running', '')), 'running', 'running-at', stamp);
      break;
    case 'pre_plan_completed':
    case 'post_plan_completed':
    case 'pre_apply_completed':
    case 'post_apply_completed': {
      const record = stage(status.replace('_completed', ''));
      setStatus(record, record?.results.every((r) => r.passed || r.enforcement !== 'mandatory') ? 'passed' : 'failed', 'completed-at', stamp);
      break;
    }
    case 'plan_queued':
      setStatus(plan, 'queued', 'queued-at', stamp);
      break;
    case 'planning':
      startPlan(run, ctx);
      setStatus(plan, 'running', 'started-at', stamp);
      break;
    case 'planned': {
      const counts = countChanges(run.changes);
      Object.assign(plan, {
        hasChanges: run.hasChanges,
        resourceAdditions: counts.additions,
        resourceChanges: counts.changes,
        resourceDestructions: counts.destructions,
        resourceImports: 0,
      });
      setStatus(plan, 'finished', 'finished-at', stamp);
      plan.log.complete = true;
      break;
    }
    case 'cost_estimating':
      setStatus(records.costEstimate(run), 'queued', 'queued-at', stamp);
      break;
    case 'cost_estimated':
      finishCostEstimate(run, ctx, stamp);
      break;
    case 'policy_checking':
      setStatus(records.policyCheck(run), 'queued', 'queued-at', stamp);
      break;
    case 'policy_override':
    case 'policy_soft_failed':
      setStatus(records.policyCheck(run), 'soft_failed', 'soft-failed-at', stamp);
      break;
    case 'policy_checked': {
      const check = records.policyCheck(run);
      if (check && check.status !== 'overridden') setStatus(check, 'passed', 'passed-at', stamp);
      break;
    }
    case 'apply_queued':
      setStatus(apply, 'queued', 'queued-at', stamp);
      break;
    case 'applying':
      startApply(run, ctx);
      setStatus(apply, 'running', 'started-at', stamp);
      break;
    case 'applied': {
      const counts = countChanges(run.changes);
      Object.assign(apply, { resourceAdditions: counts.additions, resourceChanges: counts.changes, resourceDestructions: counts.destructions, resourceImports: 0 });
      setStatus(apply, 'finished', 'finished-at', stamp);
      apply.log.complete = true;
      recordAppliedChanges({ store: ctx.store, records, run, changes: run.changes, complete: true, at });
      break;
    }
    case 'errored':
      failRunningParts(run, ctx, stamp);
      break;
    case 'canceled':
    case 'force_canceled':
      // A force-cancel (actions.ts stamps force-canceled-at first) kills the process rather than let it stop.
      endInterruption(run, ctx.store, records, status === 'force_canceled' || 'force-canceled-at' in run.statusTimestamps, at);
      break;
  }
  if (isFinal(status)) closeOutstandingParts(run, status, ctx, stamp);
}

function startPlan(run: RunRecord, ctx: EffectContext): void {
  const { store, records } = ctx;
  const workspace = store.workspace(run.workspaceId);
  const outcome = workspace?.planOutcome ?? { hasChanges: true, errors: false, resourceAdditions: 1, resourceChanges: 0, resourceDestructions: 0 };
  const version = store.configurationVersion(run.configurationVersionId);
  const parser = store.followConfiguration ? store.terraformParser : undefined;
  const declared = parser && version?.files.size ? readConfiguration(parser, version.files, variableValues(parser, version.files, store.variablesOf(run.workspaceId), run.variables), { workspaceName: runWorkspaceName(store, run) }) : undefined;
  // What the workspace manages is what its current state holds, whoever wrote it (an apply, a push, an import),
  // with the configuration's `moved` blocks' renames made to it, and those Terraform implies where `count` was added
  // or removed, as Terraform makes them before it plans: in every mode, a refresh-only plan's too (context_plan.go
  // planWalk calls prePlanFindAndApplyMoves whatever opts.Mode says).
  const held = store.stateVersions.current(run.workspaceId)?.state;
  const heldAddresses = [...stateInstances(held).keys()];
  const { renames, blocked } = declared
    ? movedAddresses(heldAddresses, [...declared.moves, ...impliedMoveStatements(heldAddresses, declared.repetition, declared.moves)])
    : { renames: new Map<string, string>(), blocked: [] };
  run.moves = [...renames].map(([from, to]) => ({ from, to }));
  const current = movedState(held, renames);
  const previousAddress = new Map([...renames].map(([from, to]) => [to, from]));
  const prior = stateInstances(current);
  const managed = [...prior.keys()];
  if (declared) {
    // The configuration decides what changes; the workspace's seeded outcome only decides whether the plan errors.
    run.configuration = declared;
    const unknownArguments = renamedKeys(records.unknownArguments.get(run.workspaceId) ?? new Map(), renames);
    const changes = configuredChanges({ run, declared, state: prior, unknownArguments }).filter((change) => targeted(run, change.address));
    run.changes = withValues(changes, declared, prior).map((change) => movedWithoutTarget(withPreviousAddress(change, previousAddress)));
    const changed = new Set(changes.map((change) => change.address));
    run.unchanged = run.isDestroy || run.refreshOnly
      ? []
      : declared.instances
          .filter((instance) => !changed.has(instance.address) && prior.has(instance.address) && targeted(run, instance.address))
          .map((instance) => withPreviousAddress({ address: instance.address, attributes: prior.get(instance.address)!.attributes, sensitive: prior.get(instance.address)!.sensitive }, previousAddress));
    // A refresh-only plan plans no change, so its moves are drift (context_plan.go driftedResources: a move without
    // other changes is a no-op drift at the new address, its PrevRunAddr the old one).
    run.drifted = run.refreshOnly
      ? [...previousAddress].map(([address, from]) => ({ address, attributes: prior.get(address)!.attributes, sensitive: prior.get(address)!.sensitive, previousAddress: from }))
      : [];
    // An output reading only instances this plan leaves alone has their values now (a second plan shows no change);
    // one reading an instance the plan changes is known after apply.
    const outputs = outputsReadingInstances(store, run, (address) => (changed.has(address) ? undefined : prior.get(address))) ?? declared.outputs;
    // A destroy plan declares no outputs: each one the state has is deleted, as Terraform plans it.
    run.outputs = plannedOutputs(run.isDestroy ? [] : outputs, current?.outputs ?? {});
  } else {
    run.changes = plannedChanges({ run, outcome, declared: declaredResourceAddresses(store.terraformParser, version?.files), managed });
  }
  const findings = checkConfiguration({
    parser,
    files: version?.files ?? new Map(),
    workspaceVariables: store.variablesOf(run.workspaceId),
    runVariables: run.variables,
  });
  if (run.targetAddrs?.length) findings.push(targetingInEffect);
  // What the plan walk finds about its own changes (prevent_destroy) comes after the configuration's own problems.
  // Blocked moves warn only on a plan with no error (planFindings), the configuration's own errors included.
  if (declared) findings.push(...planFindings(run.changes, declared, findings.some((finding) => finding.severity === 'error') ? [] : blocked));
  run.planFailed = findings.some((finding) => finding.severity === 'error');
  // A plan that errors changes nothing; a refresh-only plan "changes" the state when it found drift; otherwise a
  // plan changes what it lists, outputs included (Terraform applies an output-only change).
  const errors = run.planFailed || outcome.errors;
  // A move alone is a change too: applying it renames the state (Terraform's plan is not empty when something moved).
  // Not in a refresh-only plan: Terraform finds it applyable only when refreshing changed the state (context_plan.go
  // planWalk compares PriorState with PrevRunState, both already moved), so the moves persist only with drift.
  run.hasChanges = !errors && (run.refreshOnly ? outcome.hasChanges : run.changes.length > 0 || run.moves.length > 0 || changesOutputs(run.outputs));
  const plan = records.plan(run);
  plan.structuredRunOutput = workspace?.structuredRunOutputEnabled ?? true;
  plan.log.lines = plan.structuredRunOutput
    ? structuredPlanLines({ run, changes: run.changes, errors: outcome.errors, findings, refreshed: refreshedInstances(managed.filter((address) => targeted(run, address)), prior), at: new Date(ctx.atMs) })
    : planLogLines({ run, engineVersion: run.engineVersion, changes: run.changes, errors: outcome.errors, drift: outcome.hasChanges, findings });
  startLog(plan.log, ctx);
}

/** The change, or unchanged instance, with the address a `moved` block renamed it from (when one did). */
function withPreviousAddress<Change extends { address: string }>(change: Change, previousAddress: ReadonlyMap<string, string>): Change {
  const from = previousAddress.get(change.address);
  return from === undefined ? change : { ...change, previousAddress: from };
}

/**
 * A `moved` block whose `to` nothing declares: Terraform destroys the object at its new address and says why
 * ("because a was moved to b, which is not in configuration"), not that the block is gone.
 */
function movedWithoutTarget(change: PlannedChange): PlannedChange {
  return change.previousAddress && change.actionReason === 'delete_because_no_resource_config' ? { ...change, actionReason: 'delete_because_no_move_target' } : change;
}

/** A map by address with the renamed addresses' entries under their new address. */
function renamedKeys<Value>(byAddress: ReadonlyMap<string, Value>, renames: ReadonlyMap<string, string>): Map<string, Value> {
  return new Map([...byAddress].map(([address, value]) => [renames.get(address) ?? address, value]));
}

/** Terraform's own warning on a plan made with -target, word for word (a targeted plan may not be the whole picture). */
const targetingInEffect: ConfigurationFinding = {
  severity: 'warning',
  summary: 'Resource targeting is in effect',
  detail:
    'You are creating a plan with the -target option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\nThe -target option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when Terraform specifically suggests to use it as part of an error message.',
};

/** Whether a -target run covers the address (every address when it targets nothing). */
function targeted(run: RunRecord, address: string): boolean {
  const targets = run.targetAddrs ?? [];
  return targets.length === 0 || targets.some((target) => isTargeted(address, target));
}

/** What a plan refreshes: every instance the workspace's state holds, with the id the state gives it. */
function refreshedInstances(managed: readonly string[], prior: ReturnType<typeof stateInstances>): Array<{ address: string; id: string }> {
  return managed.map((address) => {
    const id = prior.get(address)?.attributes.id;
    return { address, id: typeof id === 'string' ? id : generatedId(address) };
  });
}

function startApply(run: RunRecord, ctx: EffectContext): void {
  const { records, store } = ctx;
  const apply = records.apply(run);
  // The log ends with the outputs as applied: the state the apply will write, outputs known only after apply included.
  const { outputs } = appliedState(store, run);
  const { lines, operations } = records.plan(run).structuredRunOutput ? structuredApplyLines(run, outputs, new Date(ctx.atMs)) : applyLogLines(run, run.engineVersion, outputs);
  apply.log.lines = lines;
  apply.operations = operations;
  startLog(apply.log, ctx);
}

function startLog(log: LogRecord, ctx: EffectContext): void {
  log.startedAtMs = ctx.atMs;
  log.expectedMs = ctx.expectedMs;
  log.complete = false;
}

function finishCostEstimate(run: RunRecord, ctx: EffectContext, stamp: string): void {
  const estimate = ctx.records.costEstimate(run);
  if (!estimate) return;
  // The service does not price a partial plan (notes §: cost estimate statuses); the CLI says it is "Not available
  // for this plan, because it was created with the -target option".
  if (run.targetAddrs?.length) {
    setStatus(estimate, 'skipped_due_to_targeting', 'skipped-due-to-targeting-at', stamp);
    return;
  }
  const counts = countChanges(run.changes);
  const prior = stateInstances(ctx.store.stateVersions.current(run.workspaceId)?.state).size * 14.6;
  const proposed = Math.max(0, prior + counts.additions * 14.6 - counts.destructions * 14.6);
  Object.assign(estimate, {
    priorMonthlyCost: prior.toFixed(3),
    proposedMonthlyCost: proposed.toFixed(3),
    deltaMonthlyCost: (proposed - prior).toFixed(3),
    matchedResourcesCount: run.changes.length,
    unmatchedResourcesCount: 0,
  });
  setStatus(estimate, 'finished', 'finished-at', stamp);
}

function failRunningParts(run: RunRecord, ctx: EffectContext, stamp: string): void {
  const { records } = ctx;
  const plan = records.plan(run);
  const apply = records.apply(run);
  if (plan.status === 'running') {
    setStatus(plan, 'errored', 'errored-at', stamp);
    plan.log.complete = true;
  }
  if (apply.status === 'running') {
    setStatus(apply, 'errored', 'errored-at', stamp);
    apply.log.complete = true;
  }
  const check = records.policyCheck(run);
  if (check?.status === 'queued') setStatus(check, 'hard_failed', 'hard-failed-at', stamp);
  for (const id of run.taskStageIds) {
    const record = records.taskStages.get(id);
    if (record?.status === 'running') setStatus(record, 'failed', 'completed-at', stamp);
  }
}

/** A finished run leaves nothing running: work it never reached becomes `unreachable`, running work `canceled`. */
function closeOutstandingParts(run: RunRecord, status: string, ctx: EffectContext, stamp: string): void {
  const { records } = ctx;
  const interrupted = status === 'canceled' || status === 'force_canceled' || status === 'discarded';
  const close = (record: { status: string; statusTimestamps: Record<string, string> } | undefined, waiting: string[]) => {
    if (!record) return;
    if (record.status === 'running' || record.status === 'queued') {
      setStatus(record, interrupted ? 'canceled' : 'errored', interrupted ? 'canceled-at' : 'errored-at', stamp);
    } else if (waiting.includes(record.status)) {
      setStatus(record, 'unreachable', 'unreachable-at', stamp);
    }
  };
  close(records.plan(run), ['pending']);
  close(records.apply(run), ['pending']);
  const estimate = records.costEstimate(run);
  if (estimate?.status === 'pending' && status === 'planned_and_finished' && run.changes.length === 0) {
    // Nothing changes, so nothing to estimate: a finished estimate of no cost (the CLI rejects an unknown state).
    Object.assign(estimate, { priorMonthlyCost: '0.0', proposedMonthlyCost: '0.0', deltaMonthlyCost: '0.0', matchedResourcesCount: 0, unmatchedResourcesCount: 0 });
    setStatus(estimate, 'finished', 'finished-at', stamp);
  }
  close(estimate, ['pending']);
  close(records.policyCheck(run), ['pending']);
  for (const id of run.taskStageIds) close(records.taskStages.get(id), ['pending']);
  // Both logs end here, even one that never started: a reader following it sees STX+ETX and stops.
  records.plan(run).log.complete = true;
  records.apply(run).log.complete = true;
}

function setStatus(
  record: { status: string; statusTimestamps: Record<string, string> } | undefined,
  status: string,
  timestampKey: string,
  stamp: string,
): void {
  if (!record) return;
  record.status = status;
  record.statusTimestamps[timestampKey] = stamp;
}
