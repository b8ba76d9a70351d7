// A run's parts: plans, applies, cost estimates, policy checks, task stages, comments (notes §5), each by id and
// through the run's related links, and the unauthenticated log-read-url that serves plan and apply output.
import { ok, type AuthedContext, type ApiResponse } from '../http/context';
import { notFound } from '../http/errors';
import type { Router } from '../http/router';
import { workspacePermissions } from '../store/permissions';
import { isoMillis } from '../http/jsonapi';
import { originOf, requireRun, requireRunOf } from './access';
import type { RunEngine } from './engine';
import { sliceLog, visibleLog } from './logs';
import { planJsonDocument, redactedPlanJsonDocument, planJsonPathPrefix } from './planJson';
import type { RunRecord } from './model';
import {
  logPathPrefix,
  policyCheckOutput,
  serializeApply,
  serializeCostEstimate,
  serializePlan,
  serializePolicyCheck,
  serializeTaskStage,
} from './serialize-parts';
import { invalidParameter } from '../http/errors';
import { serializeConfigurationVersion } from '../routes/configurationVersions';
import { serializeUser } from '../routes/users';

export function registerRunPartRoutes(router: Router, engine: RunEngine): void {
  const byRun = (ctx: AuthedContext) => requireRun(engine, ctx, ctx.params.run_id!);
  const canOverride = (ctx: AuthedContext, run: RunRecord) => {
    const workspace = ctx.store.workspace(run.workspaceId);
    return workspace ? workspacePermissions(ctx.store, ctx.caller, workspace).canAdmin : false;
  };

  const plan = (ctx: AuthedContext, run: RunRecord) => ok({ data: serializePlan(engine.records.plan(run), originOf(ctx)) });
  router.add('GET', '/api/v2/plans/:id', (ctx) => plan(ctx, requireRunOf(engine, ctx, engine.records.plans.get(ctx.params.id!)?.runId)));
  router.add('GET', '/api/v2/runs/:run_id/plan', (ctx) => plan(ctx, byRun(ctx)));

  const apply = (ctx: AuthedContext, run: RunRecord) => ok({ data: serializeApply(engine.records.apply(run), originOf(ctx)) });
  router.add('GET', '/api/v2/applies/:id', (ctx) => apply(ctx, requireRunOf(engine, ctx, engine.records.applies.get(ctx.params.id!)?.runId)));
  router.add('GET', '/api/v2/runs/:run_id/apply', (ctx) => apply(ctx, byRun(ctx)));

  const estimate = (run: RunRecord) => {
    const record = engine.records.costEstimate(run);
    if (!record) throw notFound('this run has no cost estimate (the organization has no cost estimation)');
    return ok({ data: serializeCostEstimate(record) });
  };
  router.add('GET', '/api/v2/cost-estimates/:id', (ctx) =>
    estimate(requireRunOf(engine, ctx, engine.records.costEstimates.get(ctx.params.id!)?.runId)),
  );
  router.add('GET', '/api/v2/runs/:run_id/cost-estimate', (ctx) => estimate(byRun(ctx)));

  router.add('GET', '/api/v2/policy-checks/:id', (ctx) => {
    const check = engine.records.policyChecks.get(ctx.params.id!);
    const run = requireRunOf(engine, ctx, check?.runId);
    return ok({ data: serializePolicyCheck(check!, canOverride(ctx, run)) });
  });
  router.add('GET', '/api/v2/policy-checks/:id/output', (ctx) => {
    const check = engine.records.policyChecks.get(ctx.params.id!);
    requireRunOf(engine, ctx, check?.runId);
    return { status: 200, raw: Buffer.from(policyCheckOutput(check!), 'utf8'), contentType: 'text/plain; charset=utf-8' };
  });
  router.add('GET', '/api/v2/runs/:run_id/policy-checks', (ctx) => {
    const run = byRun(ctx);
    const checks = run.policyCheckIds.map((id) => engine.records.policyChecks.get(id)!);
    return ok({ data: checks.map((check) => serializePolicyCheck(check, canOverride(ctx, run))) });
  });

  router.add('GET', '/api/v2/task-stages/:id', (ctx) => {
    const stage = engine.records.taskStages.get(ctx.params.id!);
    requireRunOf(engine, ctx, stage?.runId);
    return ok({ data: serializeTaskStage(stage!) });
  });
  router.add('GET', '/api/v2/runs/:run_id/task-stages', (ctx) => {
    const run = byRun(ctx);
    return ok({ data: run.taskStageIds.map((id) => serializeTaskStage(engine.records.taskStages.get(id)!)) });
  });

  router.add('GET', '/api/v2/runs/:run_id/comments', (ctx) => {
    const run = byRun(ctx);
    return ok({
      data: run.comments.map((comment, index) => ({
        id: `wsc-${run.id.slice(4)}${index}`,
        type: 'comments',
        attributes: { body: comment.body, 'created-at': isoMillis(comment.at) },
        relationships: { 'run-event': { data: null } },
      })),
    });
  });

  // The run's other related links (serialize.ts advertises them), so a client following links never meets a 404.
  router.add('GET', '/api/v2/runs/:run_id/configuration-version', (ctx) => {
    const version = ctx.store.configurationVersion(byRun(ctx).configurationVersionId);
    if (!version) throw notFound('configuration version not found');
    return ok({ data: serializeConfigurationVersion(version) });
  });
  for (const [path, userOf] of [
    ['created-by', (run: RunRecord) => run.createdByUserId],
    ['confirmed-by', (run: RunRecord) => run.confirmedByUserId],
    ['canceled-by', (run: RunRecord) => run.canceledByUserId],
  ] as const) {
    router.add('GET', `/api/v2/runs/:run_id/${path}`, (ctx) => {
      const user = ctx.store.users.get(userOf(byRun(ctx)) ?? '');
      return ok({ data: user ? serializeUser(user, { withEmail: user.id === ctx.caller.user.id }) : null });
    });
  }
  router.add('GET', '/api/v2/runs/:run_id/run-events', (ctx) => {
    byRun(ctx);
    return ok({ data: [] });
  });

  // Plan JSON: not for organization tokens (notes §2); 204 until finished, then a redirect to a blob URL.
  const planJson = (ctx: AuthedContext, run: RunRecord): ApiResponse => {
    if (ctx.caller.kind === 'organization') throw notFound();
    const record = engine.records.plan(run);
    if (record.status !== 'finished') return { status: 204 };
    return { status: 307, headers: { Location: `${originOf(ctx)}${planJsonPathPrefix}${record.log.secret}` } };
  };
  router.add('GET', '/api/v2/plans/:id/json-output', (ctx) =>
    planJson(ctx, requireRunOf(engine, ctx, engine.records.plans.get(ctx.params.id!)?.runId)),
  );
  router.add('GET', '/api/v2/runs/:run_id/plan/json-output', (ctx) => planJson(ctx, byRun(ctx)));
  // The redacted plan the CLI renders when structured run output is on: sensitive values replaced, served directly
  // (200, no redirect), 204 until the plan has finished.
  const redactedPlanJson = (ctx: AuthedContext, run: RunRecord): ApiResponse => {
    if (ctx.caller.kind === 'organization') throw notFound();
    if (engine.records.plan(run).status !== 'finished') return { status: 204 };
    return { status: 200, raw: Buffer.from(JSON.stringify(redactedPlanJsonDocument(run)), 'utf8'), contentType: 'application/json' };
  };
  router.add('GET', '/api/v2/plans/:id/json-output-redacted', (ctx) =>
    redactedPlanJson(ctx, requireRunOf(engine, ctx, engine.records.plans.get(ctx.params.id!)?.runId)),
  );
  router.addPublic('GET', `${planJsonPathPrefix}:secret`, (ctx) => {
    const found = engine.records.logBySecret(ctx.params.secret!);
    const run = found?.kind === 'plan' ? engine.run(found.record.runId) : undefined;
    if (!run || found?.record.status !== 'finished') throw notFound('no such plan output');
    return { status: 200, raw: Buffer.from(JSON.stringify(planJsonDocument(run)), 'utf8'), contentType: 'application/json' };
  });

  router.addPublic('GET', `${logPathPrefix}:secret`, (ctx) => serveLog(engine, ctx.params.secret!, ctx.query));
}

/** The blob behind a log-read-url: the visible part of the log, honouring `offset`/`limit` in bytes (notes §5.4). */
function serveLog(engine: RunEngine, secret: string, query: URLSearchParams): ApiResponse {
  const found = engine.records.logBySecret(secret);
  if (!found) throw notFound('no such log (the URL is wrong or the emulator was reset)');
  const offset = readByteCount(query, 'offset') ?? 0;
  const limit = readByteCount(query, 'limit');
  const text = visibleLog(found.record.log, engine.clock.nowMs());
  return { status: 200, raw: sliceLog(text, offset, limit), contentType: 'text/plain; charset=utf-8' };
}

function readByteCount(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw invalidParameter(`${name} must be a non-negative whole number of bytes.`, name);
  return Number(raw);
}
