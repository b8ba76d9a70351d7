// A saved plan (`terraform plan -out`, a save_plan run) lists the changes from the state it was planned against.
// Once another run of the workspace applies, that state is history, and applying the saved plan would undo the
// newer changes. The service discards such a run; Terraform CLI then refuses the plan file with "Saved plan is
// discarded … either another run was applied first" (internal/cloud/backend_apply.go unusableSavedPlanError).
// Discarding is the spec's transition for a run paused for confirmation (`planned_and_saved`, and the rest of the
// `discardable` group); a saved plan still being planned or checked is discarded as soon as it reaches one of them.
import type { RunEngine } from './engine';
import type { RunRecord } from './model';
import { discardableGroup, isFinal } from './statuses';

/** `applied` just ended a run: every unconfirmed saved plan of its workspace planned from the state before it. */
export function outdateSavedPlans(engine: RunEngine, applied: RunRecord, at: Date): void {
  for (const run of engine.records.runsOfWorkspace(applied.workspaceId)) {
    if (run.id === applied.id || !run.savePlan || run.confirmRequested || isFinal(run.status)) continue;
    // A saved plan that has not started planning will read the new state when it does.
    if (!hasStartedPlanning(engine, run)) continue;
    run.planOutdated = true;
    discardIfOutdated(engine, run, at);
  }
}

/** Discards an outdated saved plan if it is in a state a run may be discarded from; says whether it did. */
export function discardIfOutdated(engine: RunEngine, run: RunRecord, at: Date): boolean {
  if (!run.planOutdated || run.confirmRequested || !discardableGroup.has(run.status)) return false;
  engine.transition(run, 'discarded', at);
  return true;
}

function hasStartedPlanning(engine: RunEngine, run: RunRecord): boolean {
  const status = engine.records.plan(run).status;
  return status !== 'pending' && status !== 'queued';
}
