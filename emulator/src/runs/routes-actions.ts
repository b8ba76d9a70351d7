// POST /runs/:id/actions/{apply,discard,cancel,force-cancel,force-execute} (spec §4.2) and the policy-check
// override. Permission first (404 for a caller without it, organization tokens included), then the state
// precondition (409, or 403 for force-execute's own rules), then 202 with no body.
import { accepted, type AuthedContext } from '../http/context';
import { invalidAttribute, notFound } from '../http/errors';
import type { WorkspaceNeed } from '../http/access';
import { isObject } from '../http/jsonapi';
import type { Router } from '../http/router';
import { applyRun, cancelRun, discardRun, forceCancelRun, forceExecuteRun, overridePolicy, type ActionInput } from './actions';
import { requireRun } from './access';
import type { RunEngine } from './engine';
import type { RunRecord } from './model';
import { serializePolicyCheck } from './serialize-parts';

type Action = (engine: RunEngine, run: RunRecord, input: ActionInput) => void;

const runActions: Array<{ name: string; need: WorkspaceNeed; action: Action }> = [
  { name: 'apply', need: 'canApply', action: applyRun },
  { name: 'discard', need: 'canApply', action: discardRun },
  { name: 'cancel', need: 'canApply', action: cancelRun },
  { name: 'force-cancel', need: 'canAdmin', action: forceCancelRun },
  { name: 'force-execute', need: 'canApply', action: forceExecuteRun },
];

export function registerRunActionRoutes(router: Router, engine: RunEngine): void {
  for (const { name, need, action } of runActions) {
    router.add('POST', `/api/v2/runs/:run_id/actions/${name}`, (ctx) => {
      const run = requireRun(engine, ctx, ctx.params.run_id!, need);
      action(engine, run, { userId: ctx.caller.user.id, comment: readComment(ctx) });
      return accepted();
    });
  }

  router.add('POST', '/api/v2/policy-checks/:id/actions/override', (ctx) => {
    const check = engine.records.policyChecks.get(ctx.params.id!);
    if (!check) throw notFound();
    const run = requireRun(engine, ctx, check.runId, 'canAdmin');
    overridePolicy(engine, run, { userId: ctx.caller.user.id, comment: readComment(ctx) });
    // The caller just proved admin access, so they may override (200 with the updated check, as the service answers).
    return { status: 200, body: { data: serializePolicyCheck(check, true) } };
  });
}

/**
 * The optional comment. Clients send it as `{"comment": …}`, as `{"data": {"attributes": {"comment": …}}}`
 * (older clients), as `{}`, or send no body at all (notes §4.1): all are accepted.
 */
function readComment(ctx: AuthedContext): string | null {
  const body = ctx.body;
  if (body === undefined || body === null) return null;
  if (!isObject(body)) throw invalidAttribute('The action body must be a JSON object such as {"comment": "why"}.', '');
  let comment: unknown = body.comment;
  if (comment === undefined && isObject(body.data) && isObject(body.data.attributes)) comment = body.data.attributes.comment;
  if (comment === undefined || comment === null) return null;
  if (typeof comment !== 'string') throw invalidAttribute('comment must be a string.', '/comment');
  return comment;
}
