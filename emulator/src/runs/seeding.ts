// Runs with a history, for the seed: a run created minutes or days ago is played through the same state machine
// in virtual time up to the clock's present, so its status, timestamps, plan, logs and the workspace's state
// all look as if the emulator had been running all along. Whatever is still in progress carries on live.
import type { CreateRunInput, RunEngine } from './engine';
import { applyRun, discardRun, isConfirmable } from './actions';
import type { RunRecord } from './model';
import { nextStatus, realisticStateDurationsMs } from './phases';
import { isFinal } from './statuses';

export interface SeedRunOptions {
  /** When the run was queued; must not be in the clock's future. */
  createdAt: Date;
  /** What a user did once the run paused for confirmation; default: nothing yet (it is still waiting). */
  afterPause?: { action: 'apply' | 'discard'; userId: string; comment?: string };
  /** How long that user took to act, in realistic ms (default 45 s). */
  thinkMs?: number;
}

export function seedRun(engine: RunEngine, input: CreateRunInput, options: SeedRunOptions): RunRecord {
  const nowMs = engine.clock.nowMs();
  if (options.createdAt.getTime() > nowMs) throw new Error('A seeded run cannot be created in the future.');
  const run = engine.createRun(input, options.createdAt);
  let t = options.createdAt.getTime();
  let userActed = false;
  for (;;) {
    if (isFinal(run.status) || engine.isWaitingForWorkspace(run)) return run;
    const next = nextStatus(run.status, engine.pathOf(run));
    if (next === undefined) {
      if (!options.afterPause || userActed || !isConfirmable(engine, run)) return run;
      const actAt = t + engine.clock.progressDelay(options.thinkMs ?? 45_000);
      if (actAt > nowMs) return run; // the user has not got to it yet
      userActed = true;
      t = actAt;
      const act = options.afterPause.action === 'apply' ? applyRun : discardRun;
      act(engine, run, { userId: options.afterPause.userId, comment: options.afterPause.comment, at: new Date(t) });
      continue;
    }
    const delay = engine.clock.progressDelay(realisticStateDurationsMs[run.status] ?? 1000);
    if (t + delay > nowMs) {
      // Still in this state at the present: finish the remaining time live.
      const remaining = t + delay - nowMs;
      engine.schedule(run, remaining, () => {
        const live = nextStatus(run.status, engine.pathOf(run));
        if (live !== undefined) engine.transition(run, live);
      });
      return run;
    }
    t += delay;
    engine.transition(run, next, new Date(t));
  }
}
