// Finding a run (or one of its parts) for a caller, with the 404-for-forbidden rule: a run exists for a
// caller only if they may read its workspace, and an action exists only if they hold the right permission.
import type { AuthedContext } from '../http/context';
import { notFound } from '../http/errors';
import { requireWorkspace, type WorkspaceNeed } from '../http/access';
import type { RunEngine } from './engine';
import type { RunRecord } from './model';

export function requireRun(engine: RunEngine, ctx: AuthedContext, id: string, need: WorkspaceNeed = 'canRead'): RunRecord {
  const run = engine.run(id);
  if (!run) throw notFound('run not found');
  try {
    requireWorkspace(ctx.store, ctx.caller, run.workspaceId, need);
  } catch {
    throw notFound('run not found');
  }
  return run;
}

/** The run a part (plan, apply, cost estimate…) belongs to, readable by the caller. */
export function requireRunOf(engine: RunEngine, ctx: AuthedContext, runId: string | undefined): RunRecord {
  if (!runId) throw notFound();
  return requireRun(engine, ctx, runId);
}

/** The origin clients addressed us by, for absolute links (log-read-url, list links). */
export function originOf(ctx: AuthedContext | { url: URL }): string {
  return ctx.url.origin;
}
