// Contract: both run lists with every filter of spec §4.2, plan_only hidden from the workspace list unless all
// operations are asked for, page sizes (default 20, max 100), and the 30-per-minute run-list limit kept by
// the client's own limiter (the emulator never has to answer 429).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, allRunOperations, collectItems } from '../../server/src/api/index';
import type { Run, ServiceClient } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';

const messages = (runs: Run[]) => runs.map((run) => run.attributes.message).sort();

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

  test('filter[status] takes a comma-separated list', async () => {
    const runs = await demoRuns(harness.client(), { statuses: ['applied', 'discarded'] });
    assert.deepEqual(runs.map((run) => run.attributes.status).sort(), ['applied', 'discarded']);
  });

  test('filter[status_group]: final, non_final, discardable', async () => {
    const client = harness.client();
    const final = await demoRuns(client, { statusGroup: 'final' });
    assert.deepEqual(final.map((run) => run.attributes.status).sort(), ['applied', 'discarded']);
    const nonFinal = await demoRuns(client, { statusGroup: 'non_final' });
    assert.equal(nonFinal.length, 2);
    const discardable = await demoRuns(client, { statusGroup: 'discardable' });
    assert.equal(discardable.length, 1);
    assert.equal(discardable[0]!.attributes.actions?.['is-discardable'], true);
  });

  test('filter[source] matches the run source', async () => {
    const runs = await demoRuns(harness.client(), { sources: ['svc-ui'] });
    assert.deepEqual(messages(runs), ['Add monitoring toggle', 'Scale to three instances']);
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
    assert.deepEqual(messages(await demoRuns(client, { searchBasic: 'monitoring' })), ['Add monitoring toggle']);
    const one = (await demoRuns(client))[0]!;
    assert.deepEqual((await demoRuns(client, { searchBasic: one.id })).map((run) => run.id), [one.id]);
    const byCommit = await demoRuns(client, { searchCommit: 'a1b2c3d4' });
    assert.ok(byCommit.length > 0);
    const byUser = await demoRuns(client, { searchUser: 'olivia-owner' });
    assert.equal(byUser.length, byCommit.length);
    // basic would match nothing, but is ignored when user is present.
    assert.equal((await demoRuns(client, { searchUser: 'olivia-owner', searchBasic: 'zzz-no-match' })).length, byUser.length);
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
    for (let i = 0; i < 30; i++) await other.runs.listForWorkspace(demoApp);
    const client = harness.client();
    const page = await client.runs.listForWorkspace(demoApp);
    assert.ok(page.items.length > 0);
    const statuses = harness.requests().slice(-2).map((entry) => entry.status);
    assert.deepEqual(statuses, [429, 200]);
  });
});
