// GET /workspaces/:id/runs and GET /organizations/:org/runs (spec §4.2, notes §1.6, §4.9): every filter, the
// search precedence, status groups, timeframe defaults, plan-only hiding, includes, pagination and the
// 30-per-minute limit.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addConfigurationVersion, grant } from '../../emulator/src/seeds/builders';
import { seedRun, type CreateRunInput } from '../../emulator/src/runs';
import { organization, startHarness, type Harness } from './runs-harness';

const day = 24 * 3600 * 1000;

describe('run lists', () => {
  let h: Harness;
  const ids: Record<string, string> = {};
  const list = async (path: string, token?: string) => {
    const result = await h.api('GET', path, { token });
    assert.equal(result.status, 200, `${path}: ${result.text}`);
    return result.body;
  };
  const idsOf = (body: any) => body.data.map((run: any) => run.id);

  before(async () => {
    h = await startHarness();
    const ws = h.workspace;
    Object.assign(ws, { createdAt: new Date(h.clock.nowMs() - 900 * day) });
    const vcs = addConfigurationVersion(h.store, ws, 'from-github', {
      ingress: { id: 'ia-list', branch: 'main', commitSha: 'f00dfeed1234', commitMessage: 'Bump', senderUsername: 'octocat', identifier: 'acme/app' },
    });
    const base = (extra: Partial<CreateRunInput> = {}): CreateRunInput => ({
      workspaceId: ws.id,
      createdByUserId: h.people.owner.id,
      queuerMayApply: true,
      configurationVersionId: h.version.id,
      ...extra,
    });
    const at = (daysAgo: number) => new Date(h.clock.nowMs() - daysAgo * day);
    const owner = h.people.owner.id;
    // Oldest first, so each is finished before the next queues.
    ids.ancient = seedRun(h.engine, base({ message: 'Ancient history' }), { createdAt: at(800), afterPause: { action: 'apply', userId: owner } }).id;
    ids.lastYear = seedRun(h.engine, base({ message: 'Last year', source: 'svc-ui' }), { createdAt: new Date('2025-06-01T10:00:00Z'), afterPause: { action: 'discard', userId: owner } }).id;
    ids.speculative = seedRun(h.engine, base({ message: 'Speculative check', planOnly: true }), { createdAt: at(20) }).id;
    ids.fromVcs = seedRun(h.engine, base({ message: 'From the repository', configurationVersionId: vcs.id, source: 'svc-configuration-version' }), { createdAt: at(10), afterPause: { action: 'apply', userId: owner } }).id;
    ids.destroy = seedRun(h.engine, base({ message: 'Tear down the sandbox', isDestroy: true }), { createdAt: at(5), afterPause: { action: 'discard', userId: owner } }).id;
    ids.paused = seedRun(h.engine, base({ message: 'Needs a look' }), { createdAt: at(1) }).id;
    ids.pending = seedRun(h.engine, base({ message: 'Waiting in line', createdByUserId: h.people.member.id, queuerMayApply: false }), { createdAt: new Date(h.clock.nowMs() - 60_000) }).id;
    const { workspace: other } = h.addWorkspace('other-app');
    ids.other = seedRun(h.engine, { ...base({ message: 'Elsewhere' }), workspaceId: other.id, configurationVersionId: other.latestConfigurationVersionId! }, { createdAt: at(2) }).id;
    const { workspace: hidden } = h.addWorkspace('secret-app');
    h.store.teams.get(h.people.auditors.id)!.workspaceAccess.delete(hidden.id);
    grant(h.people.developers, hidden, 'plan');
    ids.hidden = seedRun(h.engine, { ...base({ message: 'Hidden from readers' }), workspaceId: hidden.id, configurationVersionId: hidden.latestConfigurationVersionId! }, { createdAt: at(3) }).id;
  });
  after(() => h.close());

  const wsRuns = (query = '') => `/api/v2/workspaces/${h.workspace.id}/runs${query}`;
  const orgRuns = (query = '') => `/api/v2/organizations/${organization}/runs${query}`;

  test('the workspace list is newest first, hides plan-only runs, and reaches back to the workspace\'s creation', async () => {
    const body = await list(wsRuns());
    assert.deepEqual(idsOf(body), [ids.pending, ids.paused, ids.destroy, ids.fromVcs, ids.lastYear, ids.ancient]);
    assert.deepEqual(body.meta.pagination, { 'current-page': 1, 'page-size': 20, 'prev-page': null, 'next-page': null, 'total-pages': 1, 'total-count': 6 });
  });

  test('plan-only runs appear in the workspace list only when filter[operation] lists every operation', async () => {
    assert.deepEqual(idsOf(await list(wsRuns('?filter[operation]=plan_only'))), []);
    const all = 'plan_only,plan_and_apply,save_plan,refresh_only,destroy,empty_apply';
    assert.ok(idsOf(await list(wsRuns(`?filter[operation]=${all}`))).includes(ids.speculative));
    assert.deepEqual(idsOf(await list(wsRuns('?filter[operation]=destroy'))), [ids.destroy]);
    assert.ok(idsOf(await list(orgRuns('?filter[operation]=plan_only'))).includes(ids.speculative), 'the organization list does not hide them');
  });

  test('filter[status], filter[source] and percent-encoded brackets', async () => {
    assert.deepEqual(idsOf(await list(wsRuns('?filter[status]=pending,discarded'))), [ids.pending, ids.destroy, ids.lastYear]);
    assert.deepEqual(idsOf(await list(wsRuns('?filter%5Bstatus%5D=applied'))), [ids.fromVcs, ids.ancient]);
    assert.deepEqual(idsOf(await list(wsRuns('?filter%5Bsource%5D=svc-ui'))), [ids.lastYear]);
    assert.deepEqual(idsOf(await list(wsRuns('?filter[source]=svc-configuration-version,svc-ui'))), [ids.fromVcs, ids.lastYear]);
  });

  test('filter[status_group]: non_final, final, discardable; anything else is a 422', async () => {
    assert.deepEqual(idsOf(await list(wsRuns('?filter[status_group]=non_final'))), [ids.pending, ids.paused]);
    assert.deepEqual(idsOf(await list(wsRuns('?filter[status_group]=final'))), [ids.destroy, ids.fromVcs, ids.lastYear, ids.ancient]);
    assert.deepEqual(idsOf(await list(wsRuns('?filter[status_group]=discardable'))), [ids.paused]);
    const bad = await h.api('GET', wsRuns('?filter[status_group]=final,non_final'));
    assert.equal(bad.status, 422);
    assert.equal(bad.body.errors[0].source.parameter, 'filter[status_group]');
  });

  test('filter[timeframe]: a year, "year", defaults per list, 422 otherwise', async () => {
    assert.deepEqual(idsOf(await list(wsRuns('?filter[timeframe]=2025'))), [ids.lastYear]);
    assert.ok(!idsOf(await list(wsRuns('?filter[timeframe]=year'))).includes(ids.ancient));
    const orgDefault = idsOf(await list(orgRuns()));
    assert.ok(!orgDefault.includes(ids.ancient), 'the organization list defaults to the last year');
    assert.ok(orgDefault.includes(ids.lastYear));
    // The workspace list's default reaches back to the workspace's creation, and no further.
    h.workspace.createdAt = new Date(h.clock.nowMs() - 850 * day);
    assert.ok(idsOf(await list(wsRuns())).includes(ids.ancient));
    h.workspace.createdAt = new Date(h.clock.nowMs() - 700 * day);
    assert.ok(!idsOf(await list(wsRuns())).includes(ids.ancient));
    h.workspace.createdAt = new Date(h.clock.nowMs() - 900 * day);
    assert.equal((await h.api('GET', wsRuns('?filter[timeframe]=last-decade'))).status, 422);
  });

  test('filter[workspace_names] narrows the organization list; filter[agent_pool_names] matches no remote run', async () => {
    assert.deepEqual(idsOf(await list(orgRuns('?filter[workspace_names]=other-app'))), [ids.other]);
    // demo-app's seven runs minus the one older than a year (the organization list's default timeframe), plus other-app's.
    assert.equal(idsOf(await list(orgRuns('?filter[workspace_names]=other-app,demo-app'))).length, 6 + 1);
    assert.deepEqual(idsOf(await list(orgRuns('?filter[agent_pool_names]=pool-a'))), []);
  });

  test('search[basic] matches message, run id, username or commit; search[user]/search[commit] win over it', async () => {
    assert.deepEqual(idsOf(await list(wsRuns('?search[basic]=tear%20down'))), [ids.destroy]);
    assert.deepEqual(idsOf(await list(wsRuns(`?search[basic]=${ids.paused}`))), [ids.paused]);
    assert.deepEqual(idsOf(await list(wsRuns('?search[basic]=max-member'))), [ids.pending]);
    assert.deepEqual(idsOf(await list(wsRuns('?search[basic]=f00dfeed'))), [ids.fromVcs]);
    assert.deepEqual(idsOf(await list(wsRuns('?search[user]=octocat'))), [ids.fromVcs]);
    assert.deepEqual(idsOf(await list(wsRuns('?search%5Bcommit%5D=f00d'))), [ids.fromVcs]);
    // basic alone would match only the destroy run; with search[user] present it is ignored.
    assert.deepEqual(idsOf(await list(wsRuns('?search[basic]=tear&search[user]=octocat'))), [ids.fromVcs]);
  });

  test('pagination: page[size] with encoded brackets, links, and 422 above 100', async () => {
    const body = await list(wsRuns('?page%5Bsize%5D=2&page%5Bnumber%5D=2'));
    assert.deepEqual(idsOf(body), [ids.destroy, ids.fromVcs]);
    assert.deepEqual(body.meta.pagination, { 'current-page': 2, 'page-size': 2, 'prev-page': 1, 'next-page': 3, 'total-pages': 3, 'total-count': 6 });
    assert.match(body.links.next, /page%5Bnumber%5D=3&page%5Bsize%5D=2$/);
    const tooBig = await h.api('GET', wsRuns('?page[size]=101'));
    assert.equal(tooBig.status, 422);
    assert.equal(tooBig.body.errors[0].detail, 'page[size] must be between 1 and 100');
  });

  test('the organization list has no totals and only self/prev/next links', async () => {
    const body = await list(orgRuns('?page[size]=3'));
    assert.equal(body.data.length, 3);
    assert.deepEqual(Object.keys(body.links).sort(), ['next', 'prev', 'self']);
    assert.equal(body.meta.pagination['total-count'], undefined);
    assert.equal(body.meta.pagination['next-page'], 2);
  });

  test('the organization list is newest first across workspaces, each run names its workspace, and caps page[size] at 100', async () => {
    // What the run watcher relies on to find new runs in any watched workspace with one read (spec §4.2, notes §1.6).
    const body = await list(orgRuns('?page[size]=100'));
    const created = body.data.map((run: any) => Date.parse(run.attributes['created-at']));
    assert.ok(created.every((time: number, i: number) => i === 0 || time <= created[i - 1]), 'newest first');
    assert.equal(idsOf(body)[0], ids.pending);
    assert.ok(idsOf(body).includes(ids.other), 'runs of every workspace of the organization');
    for (const run of body.data) assert.equal(run.relationships.workspace.data.id, h.engine.run(run.id)!.workspaceId);
    const tooBig = await h.api('GET', orgRuns('?page[size]=101'));
    assert.equal(tooBig.status, 422);
    assert.equal(tooBig.body.errors[0].detail, 'page[size] must be between 1 and 100');
  });

  test('lists show only runs of workspaces the caller may read; unknown or invisible scopes are 404', async () => {
    assert.ok(!idsOf(await list(orgRuns(), 'reader')).includes(ids.hidden));
    assert.ok(idsOf(await list(orgRuns(), 'member')).includes(ids.hidden));
    assert.ok(idsOf(await list(orgRuns(), 'organization')).includes(ids.hidden));
    const hiddenWs = h.engine.run(ids.hidden)!.workspaceId;
    assert.equal((await h.api('GET', `/api/v2/workspaces/${hiddenWs}/runs`, { token: 'reader' })).status, 404);
    assert.equal((await h.api('GET', '/api/v2/organizations/nope-org/runs')).status, 404);
    assert.equal((await h.api('GET', `/api/v2/runs/${ids.hidden}`, { token: 'reader' })).status, 404);
  });

  test('include: every related resource once in included, on a run and on a list', async () => {
    const all = 'plan,apply,created_by,cost_estimate,configuration_version,configuration_version.ingress_attributes';
    const body = (await h.api('GET', `/api/v2/runs/${ids.fromVcs}?include=${all}`)).body;
    const types = body.included.map((r: any) => r.type).sort();
    assert.deepEqual(types, ['applies', 'configuration-versions', 'cost-estimates', 'ingress-attributes', 'plans', 'users']);
    const plan = body.included.find((r: any) => r.type === 'plans');
    assert.equal(plan.id, body.data.relationships.plan.data.id);
    assert.equal(body.included.find((r: any) => r.type === 'ingress-attributes').attributes['commit-sha'], 'f00dfeed1234');
    const withWorkspace = (await h.api('GET', `/api/v2/runs/${ids.paused}?include=workspace`)).body;
    assert.equal(withWorkspace.included[0].type, 'workspaces');
    assert.equal(withWorkspace.included[0].id, h.workspace.id);
    const listed = await list(wsRuns('?include=created_by'));
    const users = listed.included.filter((r: any) => r.type === 'users').map((r: any) => r.attributes.username).sort();
    assert.deepEqual(users, ['max-member', 'olivia-owner'], 'each user once');
  });

  test('an unknown include is a 400 ending in "Invalid include parameter"', async () => {
    const result = await h.api('GET', `/api/v2/runs/${ids.paused}?include=plan,secrets`);
    assert.equal((await h.api('GET', `${wsRuns()}?include=vars`)).status, 400);
    assert.equal(result.status, 400);
    assert.match(result.body.errors[0].detail, /Invalid include parameter$/);
  });
});

describe('run queue and capacity (what Terraform CLI polls)', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('the queue lists waiting and running runs oldest first; capacity counts them', async () => {
    const running = await h.createRun();
    const waiting = await h.createRun();
    await h.clock.advance(5000);
    const queue = (await h.api('GET', `/api/v2/organizations/${organization}/runs/queue`)).body;
    assert.deepEqual(queue.data.map((run: any) => [run.id, run.attributes.status]), [[running, 'planning'], [waiting, 'pending']]);
    assert.equal(queue.data[1].attributes['position-in-queue'], 1);
    const capacity = (await h.api('GET', `/api/v2/organizations/${organization}/capacity`)).body.data;
    assert.deepEqual(capacity.attributes, { pending: 1, running: 1 });
    await h.clock.advance(60_000);
    assert.deepEqual((await h.api('GET', `/api/v2/organizations/${organization}/capacity`)).body.data.attributes, { pending: 1, running: 0 });
    assert.equal((await h.api('GET', '/api/v2/organizations/unknown-org/runs/queue')).status, 404);
  });
});

describe('run list rate limit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ realRateLimits: true });
  });
  after(() => h.close());

  test('30 requests per minute on the run lists (429 with the documented body), while other endpoints go on', async () => {
    const wsPath = `/api/v2/workspaces/${h.workspace.id}/runs`;
    for (let i = 0; i < 30; i++) {
      // Both run lists draw on the same per-minute allowance of the caller.
      const result = await h.api('GET', i % 2 === 0 ? wsPath : `/api/v2/organizations/${organization}/runs`);
      assert.equal(result.status, 200);
      assert.equal(result.headers.get('x-ratelimit-limit'), '30');
      assert.equal(result.headers.get('x-ratelimit-remaining'), String(29 - i));
    }
    const limited = await h.api('GET', wsPath);
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { errors: [{ status: 429, title: 'Too many requests', detail: "You have exceeded the API's rate limit." }] });
    assert.ok(Number(limited.headers.get('x-ratelimit-reset')) > 0);
    const id = await h.createRun();
    assert.equal((await h.api('GET', `/api/v2/runs/${id}`)).status, 200, 'other endpoints keep their own limit');
    assert.equal((await h.api('GET', wsPath, { token: 'member' })).status, 200, 'another user has their own allowance');
    await h.clock.advance(60_000);
    assert.equal((await h.api('GET', wsPath)).status, 200, 'a new minute, a new allowance');
  });
});
