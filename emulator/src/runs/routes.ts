// Run endpoints (spec §4.2): create, show, and the two lists. The actions and the run's parts have their own
// route files; registerRunRoutes wires all three.
import { created, ok, type AuthedContext } from '../http/context';
import { requireOrganization, requireWorkspace } from '../http/access';
import { paginate, readPage } from '../http/pagination';
import type { Router } from '../http/router';
import { workspacePermissions } from '../store/permissions';
import { originOf, requireRun } from './access';
import { readCreateRunRequest } from './createRequest';
import type { RunEngine } from './engine';
import { includedResources, readIncludes } from './includes';
import { runListPredicate } from './listFilters';
import type { RunRecord } from './model';
import { registerRunActionRoutes } from './routes-actions';
import { registerRunPartRoutes } from './routes-parts';
import { serializeRun } from './serialize';

export function registerRunRoutes(router: Router, engine: RunEngine): void {
  router.add('POST', '/api/v2/runs', (ctx) => {
    const input = readCreateRunRequest(ctx.store, ctx.caller, ctx.body);
    const run = engine.createRun(input);
    return created({ data: serializeRun(engine, ctx.caller, run) });
    // Spec §7: a malformed create-run body is 422, one that is not even JSON included.
  }, { unparseableBodyStatus: 422 });

  router.add('GET', '/api/v2/runs/:run_id', (ctx) => {
    const includes = readIncludes(ctx.query);
    const run = requireRun(engine, ctx, ctx.params.run_id!);
    return ok(document(engine, ctx, run, includes));
  });

  router.add(
    'GET',
    '/api/v2/workspaces/:workspace_id/runs',
    (ctx) => {
      const workspace = requireWorkspace(ctx.store, ctx.caller, ctx.params.workspace_id!);
      const includes = readIncludes(ctx.query);
      const page = readPage(ctx.query);
      const matches = runListPredicate(ctx.query, {
        store: ctx.store,
        scope: 'workspace',
        now: engine.clock.now(),
        workspaceCreatedAt: workspace.createdAt,
      });
      const runs = engine.records.runsOfWorkspace(workspace.id).filter(matches);
      return ok(listDocument(engine, ctx, paginate(runs, page, { url: ctx.url }), includes));
    },
    { rateLimit: 'run-lists' },
  );

  router.add(
    'GET',
    '/api/v2/organizations/:organization_name/runs',
    (ctx) => {
      const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name!);
      const includes = readIncludes(ctx.query);
      const page = readPage(ctx.query);
      const matches = runListPredicate(ctx.query, { store: ctx.store, scope: 'organization', now: engine.clock.now() });
      const runs = visibleRuns(engine, ctx, organization.name).filter(matches);
      // The organization list carries no totals (notes §1.6).
      return ok(listDocument(engine, ctx, paginate(runs, page, { url: ctx.url, withoutTotals: true }), includes));
    },
    { rateLimit: 'run-lists' },
  );

  // What Terraform CLI polls while its run waits (notes §11): the organization's run queue and its capacity.
  router.add('GET', '/api/v2/organizations/:organization_name/runs/queue', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name!);
    const page = readPage(ctx.query);
    const queued = visibleRuns(engine, ctx, organization.name).filter((run) => queueStatuses.has(run.status)).reverse();
    return ok(listDocument(engine, ctx, paginate(queued, page, { url: ctx.url }), []));
  });
  router.add('GET', '/api/v2/organizations/:organization_name/capacity', (ctx) => {
    const organization = requireOrganization(ctx.store, ctx.caller, ctx.params.organization_name!);
    const runs = engine.records.runsOfOrganization(organization.name);
    return ok({
      data: {
        id: organization.name,
        type: 'organization-capacity',
        attributes: {
          pending: runs.filter((run) => waitingStatuses.has(run.status)).length,
          running: runs.filter((run) => runningStatuses.has(run.status)).length,
        },
      },
    });
  });

  registerRunActionRoutes(router, engine);
  registerRunPartRoutes(router, engine);
}

const waitingStatuses: ReadonlySet<string> = new Set(['pending', 'queuing', 'plan_queued', 'apply_queued']);
const runningStatuses: ReadonlySet<string> = new Set(['fetching', 'pre_plan_running', 'planning', 'post_plan_running', 'cost_estimating', 'policy_checking', 'pre_apply_running', 'applying', 'post_apply_running']);
const queueStatuses: ReadonlySet<string> = new Set([...waitingStatuses, ...runningStatuses]);

/** The organization's runs in workspaces the caller may read, newest first. */
function visibleRuns(engine: RunEngine, ctx: AuthedContext, organization: string): RunRecord[] {
  return engine.records.runsOfOrganization(organization).filter((run) => {
    const workspace = ctx.store.workspace(run.workspaceId);
    return workspace !== undefined && workspacePermissions(ctx.store, ctx.caller, workspace).canRead;
  });
}

function document(engine: RunEngine, ctx: AuthedContext, run: RunRecord, includes: string[]): Record<string, unknown> {
  const doc: Record<string, unknown> = { data: serializeRun(engine, ctx.caller, run) };
  if (includes.length > 0) doc.included = includedResources(engine, ctx.caller, [run], includes, originOf(ctx));
  return doc;
}

function listDocument(
  engine: RunEngine,
  ctx: AuthedContext,
  page: ReturnType<typeof paginate<RunRecord>>,
  includes: string[],
): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    data: page.items.map((run) => serializeRun(engine, ctx.caller, run)),
    links: page.links,
    meta: page.meta,
  };
  if (includes.length > 0) doc.included = includedResources(engine, ctx.caller, page.items, includes, originOf(ctx));
  return doc;
}
