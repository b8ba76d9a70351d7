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
  });

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
      const runs = engine.records.runsOfOrganization(organization.name).filter((run) => {
        const workspace = ctx.store.workspace(run.workspaceId);
        return workspace !== undefined && workspacePermissions(ctx.store, ctx.caller, workspace).canRead && matches(run);
      });
      // The organization list carries no totals (notes §1.6).
      return ok(listDocument(engine, ctx, paginate(runs, page, { url: ctx.url, withoutTotals: true }), includes));
    },
    { rateLimit: 'run-lists' },
  );

  registerRunActionRoutes(router, engine);
  registerRunPartRoutes(router, engine);
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
