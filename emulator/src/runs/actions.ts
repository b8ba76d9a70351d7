// The five run actions plus the policy override, with the spec's preconditions (spec §3, §4.2, §7):
// 409 `transition not allowed` in the wrong state, 403 for force-execute's own preconditions. Who may call
// them (404 otherwise) is checked by the routes before these run.
import { forbidden, transitionNotAllowed } from '../http/errors';
import type { RunEngine } from './engine';
import { interruptRun } from './interruption';
import type { RunRecord } from './model';
import { forceCancelCoolOffMs, isPausedForConfirmation, nextStatus, realisticInterruptStopMs } from './phases';
import { interruptibleStatuses, statusTimestamp } from './statuses';

export interface ActionInput {
  userId: string;
  comment?: string | null;
  /** Clock time of the action; defaults to now (the seed passes past times). */
  at?: Date;
}

/** Paused for confirmation (needs confirmation, policy checked, planned and saved). */
export function isConfirmable(engine: RunEngine, run: RunRecord): boolean {
  return isPausedForConfirmation(run.status, engine.pathOf(run));
}

/** Spec discard precondition: pending, needs confirmation, policy checked, policy override. */
export function isDiscardable(engine: RunEngine, run: RunRecord): boolean {
  return run.status === 'pending' || run.status === 'policy_override' || isConfirmable(engine, run);
}

export function isCancelable(run: RunRecord): boolean {
  return interruptibleStatuses.has(run.status);
}

export function isForceCancelable(engine: RunEngine, run: RunRecord): boolean {
  return (
    interruptibleStatuses.has(run.status) &&
    run.forceCancelAvailableAt !== null &&
    engine.clock.nowMs() >= run.forceCancelAvailableAt.getTime()
  );
}

export function applyRun(engine: RunEngine, run: RunRecord, input: ActionInput): void {
  if (!isConfirmable(engine, run)) throw transitionNotAllowed();
  const at = input.at ?? engine.clock.now();
  addComment(run, input, at);
  run.confirmRequested = true;
  run.confirmedByUserId = input.userId;
  engine.transition(run, 'confirmed', at);
  // A confirmed saved plan now needs the workspace like any other apply; it may have to wait its turn.
  if (engine.isWaitingForWorkspace(run)) engine.kick(run);
}

export function discardRun(engine: RunEngine, run: RunRecord, input: ActionInput): void {
  if (!isDiscardable(engine, run)) throw transitionNotAllowed();
  const at = input.at ?? engine.clock.now();
  addComment(run, input, at);
  engine.transition(run, 'discarded', at);
}

export function cancelRun(engine: RunEngine, run: RunRecord, input: ActionInput): void {
  if (!isCancelable(run)) throw transitionNotAllowed();
  const at = input.at ?? engine.clock.now();
  addComment(run, input, at);
  if (run.forceCancelAvailableAt !== null) return; // already interrupted: a second cancel changes nothing
  run.canceledByUserId = input.userId;
  run.forceCancelAvailableAt = new Date(at.getTime() + engine.clock.progressDelay(forceCancelCoolOffMs));
  run.updatedAt = at;
  interruptRun(run, engine.records, at.getTime());
  // The process stops on its own once the operation in flight is done; force-cancel can cut that short.
  const stopMs = engine.clock.progressDelay(realisticInterruptStopMs[run.status] ?? 2000);
  const elapsed = engine.clock.nowMs() - at.getTime();
  engine.schedule(run, Math.max(0, stopMs - elapsed), () => engine.transition(run, 'canceled'));
}

export function forceCancelRun(engine: RunEngine, run: RunRecord, input: ActionInput): void {
  if (!isForceCancelable(engine, run)) throw transitionNotAllowed();
  const at = input.at ?? engine.clock.now();
  addComment(run, input, at);
  run.statusTimestamps['force-canceled-at'] = statusTimestamp(at);
  // The spec's force-cancel ends in `canceled` (the state table also lists `force_canceled`; the prose wins).
  engine.transition(run, 'canceled', at);
}

export function forceExecuteRun(engine: RunEngine, run: RunRecord, input: ActionInput): void {
  const workspace = engine.store.workspace(run.workspaceId);
  if (run.status !== 'pending') throw forbidden('The run is not pending.');
  if (!workspace) throw forbidden('The run has no workspace.');
  const holder = engine.holderOf(run.workspaceId);
  if (!holder || holder.id === run.id) throw forbidden('The workspace is not locked by another run.');
  if (!isDiscardable(engine, holder)) throw transitionNotAllowed();
  const at = input.at ?? engine.clock.now();
  const earlier = engine.records
    .runsOfWorkspace(run.workspaceId)
    .filter((other) => other.id !== holder.id && other.id !== run.id && other.status === 'pending')
    .filter((other) => engine.needsWorkspace(other) && other.createdAt.getTime() <= run.createdAt.getTime());
  // Take the workspace before the holder lets go, so the queue cannot hand it to an earlier run.
  engine.takeWorkspace(run);
  engine.transition(holder, 'discarded', at);
  for (const other of earlier) engine.transition(other, 'canceled', at);
}

/**
 * POST /policy-checks/:id/actions/override: the run leaves `policy_override` for `policy_checked` before the call
 * returns. Terraform CLI reads the run right after overriding and stops unless it is already confirmable
 * (internal/cloud/backend_apply.go: `if !op.AutoApprove && !r.Actions.IsConfirmable { return }`), so a run still
 * in `policy_override` then would end `terraform apply` without asking, leaving the run holding the workspace.
 */
export function overridePolicy(engine: RunEngine, run: RunRecord, input: ActionInput): void {
  const check = engine.records.policyCheck(run);
  if (run.status !== 'policy_override' || !check || check.status !== 'soft_failed') throw transitionNotAllowed();
  const at = input.at ?? engine.clock.now();
  addComment(run, input, at);
  check.status = 'overridden';
  check.statusTimestamps['overridden-at'] = statusTimestamp(at);
  run.policyOverridden = true;
  const next = nextStatus(run.status, engine.pathOf(run));
  if (next !== undefined) engine.transition(run, next, at);
}

function addComment(run: RunRecord, input: ActionInput, at: Date): void {
  if (typeof input.comment === 'string' && input.comment.length > 0) {
    run.comments.push({ body: input.comment, userId: input.userId, at });
  }
}
