// Contract: both run lists with every filter of spec §4.2, plan_only hidden from the workspace list unless all
// operations are asked for, page sizes (default 20, max 100), and the 30-per-minute run-list limit kept by
// the client's own limiter (the emulator never has to answer 429).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, allRunOperations, collectItems, discardableRunStatuses, finalRunStatuses } from '../../server/src/api/index';
import type { Run, ServiceClient } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';

describe('contract: run lists', () => {
  const harness = useEmulator();
  const demoRuns = async (client: ServiceClient, filters = {}) =>
    (await client.runs.listForWorkspace(await workspaceId(client, 'demo-app'), filters)).items;

  test('the workspace list hides plan_only runs unless filter[operation] lists every operation', async () => {
    const client = harness.client();
    const plain = await demoRuns(client);
    assert.ok(plain.every((run) => run.attributes['plan-only'] !== true));
    const everything = await demoRuns(client, { operations: [...allRunOperations] });
    assert.equal(everything.length, plain.length + 1);
    assert.ok(everything.some((run) => run.attributes['plan-only'] === true));
    assert.match(harness.requests().at(-1)!.path, /filter%5Boperation%5D=plan_only%2Cplan_and_apply%2Csave_plan%2Crefresh_only%2Cdestroy%2Cempty_apply/);
  });

  test('filter[operation] on the organization list selects plan_only runs', async () => {
    const page = await harness.client().runs.listForOrganization('acme-demo', { operations: ['plan_only'] });
    assert.ok(page.items.length >= 2);
    assert.ok(page.items.every((run) => run.attributes['plan-only'] === true));
  });

  /** Every run of acme-demo in the organization list's default timeframe: the reference the filters are checked against. */
  const everyRun = (client: ServiceClient) => collectItems(client.runs.organizationPages('acme-demo', { pageSize: 100 }));
  const ids = (runs: Run[]) => runs.map((run) => run.id).sort();
  const organizationRuns = async (client: ServiceClient, filters = {}) =>
    collectItems(client.runs.organizationPages('acme-demo', { pageSize: 100, ...filters }));

  test('filter[status] takes a comma-separated list', async () => {
    const client = harness.client();
    const all = await everyRun(client);
    const wanted = [...new Set(all.map((run) => run.attributes.status))].slice(0, 2);
    assert.equal(wanted.length, 2, 'the seed has runs in at least two states');
    const filtered = await organizationRuns(client, { statuses: wanted });
    assert.deepEqual(ids(filtered), ids(all.filter((run) => wanted.includes(run.attributes.status))));
  });

  test('filter[status_group]: final, non_final and discardable hold the spec\'s members', async () => {
    const client = harness.client();
    const all = await everyRun(client);
    const final = all.filter((run) => finalRunStatuses.includes(run.attributes.status));
    assert.ok(final.length > 0 && final.length < all.length, 'the seed has final and non-final runs');
    assert.deepEqual(ids(await organizationRuns(client, { statusGroup: 'final' })), ids(final));
    assert.deepEqual(
      ids(await organizationRuns(client, { statusGroup: 'non_final' })),
      ids(all.filter((run) => !finalRunStatuses.includes(run.attributes.status))),
    );
    assert.deepEqual(
      ids(await organizationRuns(client, { statusGroup: 'discardable' })),
      ids(all.filter((run) => discardableRunStatuses.includes(run.attributes.status))),
    );
  });

  test('filter[source] matches the run source', async () => {
    const client = harness.client();
    const all = await everyRun(client);
    const uiRuns = all.filter((run) => run.attributes.source === 'svc-ui');
    assert.ok(uiRuns.length > 0 && uiRuns.length < all.length);
    assert.deepEqual(ids(await organizationRuns(client, { sources: ['svc-ui'] })), ids(uiRuns));
  });

  test('filter[agent_pool_names]: no emulated run runs in an agent pool', async () => {
    assert.deepEqual(await demoRuns(harness.client(), { agentPoolNames: ['pool-a'] }), []);
  });

  test('filter[workspace_names] (organization list only)', async () => {
    const page = await harness.client().runs.listForOrganization('acme-demo', { workspaceNames: ['staging-api', 'sandbox'] });
    const workspaces = new Set(page.items.map((run) => (run.relationships?.['workspace']?.data as { id: string }).id));
    const client = harness.client();
    assert.deepEqual(workspaces, new Set([await workspaceId(client, 'staging-api'), await workspaceId(client, 'sandbox')]));
  });

  test('filter[timeframe]: this year, the past year, or a year with no runs', async () => {
    const client = harness.client();
    const year = harness.emulator().control.now().getUTCFullYear();
    const all = await demoRuns(client);
    assert.equal((await demoRuns(client, { timeframe: 'year' })).length, all.length);
    assert.equal((await demoRuns(client, { timeframe: year })).length, all.filter((run) => run.attributes['created-at']!.startsWith(String(year))).length);
    assert.deepEqual(await demoRuns(client, { timeframe: 2019 }), []);
    const error = await demoRuns(client, { timeframe: 'decade' as never }).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 422);
  });

  test('search[basic] matches the message or run id; search[user]/search[commit] take precedence over it', async () => {
    const client = harness.client();
    const demoApp = await workspaceId(client, 'demo-app');
    const page = await client.runs.listForWorkspace(demoApp, { include: ['configuration_version.ingress_attributes'] });
    const ingress = page.included.find((resource) => resource.type === 'ingress-attributes');
    assert.ok(ingress, 'demo-app runs come from a VCS configuration version');
    const commit = String(ingress.attributes?.['commit-sha']).slice(0, 8);
    const user = String(ingress.attributes?.['sender-username']);

    const first = page.items[0]!;
    const word = first.attributes.message!.split(' ').at(-1)!;
    const byWord = await demoRuns(client, { searchBasic: word });
    assert.ok(byWord.some((run) => run.id === first.id));
    assert.ok(byWord.every((run) => run.attributes.message!.toLowerCase().includes(word.toLowerCase()) || run.id.includes(word)));
    assert.deepEqual((await demoRuns(client, { searchBasic: first.id })).map((run) => run.id), [first.id]);

    const byCommit = await demoRuns(client, { searchCommit: commit });
    assert.ok(byCommit.length > 0);
    const byUser = await demoRuns(client, { searchUser: user });
    assert.ok(byUser.length > 0);
    // basic alone would match nothing, but it is ignored when user is present.
    assert.deepEqual(await demoRuns(client, { searchBasic: 'zzz-no-match' }), []);
    assert.equal((await demoRuns(client, { searchUser: user, searchBasic: 'zzz-no-match' })).length, byUser.length);
    assert.deepEqual(await demoRuns(client, { searchUser: 'nobody-at-all' }), []);
  });

  test('include on a list puts the related resources in `included`', async () => {
    const client = harness.client();
    const page = await client.runs.listForWorkspace(await workspaceId(client, 'demo-app'), { include: ['plan', 'created_by'] });
    const types = new Set(page.included.map((resource) => resource.type));
    assert.ok(types.has('plans') && types.has('users'), [...types].join(', '));
  });

  test('page size: default 20, honoured when given, more than 100 is refused with 422', async () => {
    const client = harness.client();
    const page = await client.runs.listForOrganization('acme-demo');
    assert.equal(page.pagination?.['page-size'], 20);
    const small = await client.runs.listForOrganization('acme-demo', { pageSize: 3 });
    assert.equal(small.items.length, 3);
    assert.equal(small.nextPage, 2);
    const all = await collectItems(client.runs.organizationPages('acme-demo', { pageSize: 3 }));
    assert.equal(all.length, page.items.length);
    const error = await client.runs.listForOrganization('acme-demo', { pageSize: 101 }).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 422);
  });

  test('31 run-list requests in a row: the client spaces them so the service never answers 429', async () => {
    const client = harness.client();
    const demoApp = await workspaceId(client, 'demo-app');
    const started = harness.emulator().control.now().getTime();
    for (let i = 0; i < 31; i++) await client.runs.listForWorkspace(demoApp);
    const lists = harness.requests().filter((entry) => entry.path.startsWith(`/api/v2/workspaces/${demoApp}/runs`));
    assert.equal(lists.length, 31);
    assert.ok(lists.every((entry) => entry.status === 200), 'no 429 from the service');
    assert.ok(harness.emulator().control.now().getTime() - started >= 60_000, 'the 31st waited for the next minute');
  });

  test('a 429 from the service (its limit reached by another client of the same user) is waited out and retried', async () => {
    const other = harness.client();
    const demoApp = await workspaceId(other, 'demo-app');
    // The service's run-list window is a calendar minute: start just after one begins, so the 30 lists (which the
    // 30/s limit may spread over a second or two) and the next request all fall in the same window.
    const now = harness.emulator().control.now().getTime();
    await harness.emulator().control.advance(60_000 - (now % 60_000) + 1_000);
    for (let i = 0; i < 30; i++) await other.runs.listForWorkspace(demoApp);
    const client = harness.client();
    const page = await client.runs.listForWorkspace(demoApp);
    assert.ok(page.items.length > 0);
    const statuses = harness.requests().slice(-2).map((entry) => entry.status);
    assert.deepEqual(statuses, [429, 200]);
  });
});
