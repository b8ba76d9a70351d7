import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startCore, workspaceId, type CoreHarness } from './core-harness';
import { startHarness, type Harness } from './runs-harness';

describe('workspaces', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  test('list an organization\'s workspaces sorted by name; search by name, wildcard and tags', async () => {
    const all = await h.api('GET', '/organizations/acme-demo/workspaces');
    assert.equal(all.status, 200);
    assert.deepEqual(all.body.data.map((w: any) => w.attributes.name), ['demo-app', 'legacy-batch', 'prod-network', 'sandbox', 'staging-api']);
    const names = async (query: string) => (await h.api('GET', `/organizations/acme-demo/workspaces?${query}`)).body.data.map((w: any) => w.attributes.name);
    assert.deepEqual(await names('search%5Bname%5D=PROD'), ['prod-network']);
    assert.deepEqual(await names('search[wildcard-name]=*-app'), ['demo-app']);
    assert.deepEqual(await names('search[tags]=demo'), ['demo-app']);
    assert.deepEqual(await names('sort=-name'), ['staging-api', 'sandbox', 'prod-network', 'legacy-batch', 'demo-app']);
    assert.equal((await h.api('GET', '/organizations/acme-demo/workspaces?sort=size')).status, 422);
    assert.equal((await h.api('GET', '/organizations/nowhere/workspaces')).status, 404);
  });

  test('show by organization and name and by id give the same resource', async () => {
    const byName = await h.api('GET', '/organizations/acme-demo/workspaces/demo-app');
    assert.equal(byName.status, 200);
    const workspace = byName.body.data;
    assert.match(workspace.id, /^ws-[0-9A-Za-z]{16}$/);
    assert.equal(workspace.type, 'workspaces');
    assert.equal(workspace.links.self, '/api/v2/organizations/acme-demo/workspaces/demo-app');
    assert.deepEqual(workspace.relationships.organization.data, { id: 'acme-demo', type: 'organizations' });
    const byId = await h.api('GET', `/workspaces/${workspace.id}`);
    assert.deepEqual(byId.body.data, workspace);
    assert.equal((await h.api('GET', '/organizations/acme-demo/workspaces/missing')).status, 404);
  });

  test('the current run and lock state come from the runs module', async () => {
    const demoApp = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app')).body.data;
    const currentRun = demoApp.relationships['current-run'].data;
    assert.equal(currentRun.type, 'runs');
    assert.equal(demoApp.attributes.locked, true, 'the run awaiting confirmation holds the workspace');
    assert.deepEqual(demoApp.relationships['locked-by'].data, currentRun);
    const run = await h.api('GET', `/runs/${currentRun.id}`);
    assert.equal(run.status, 200);
    assert.equal(run.body.data.relationships.workspace.data.id, demoApp.id);
  });

  test('per-caller permissions: member may queue plans on demo-app but not apply', async () => {
    const member = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app', { token: 'member' })).body.data.attributes.permissions;
    assert.equal(member['can-queue-run'], true);
    assert.equal(member['can-queue-apply'], false);
    assert.equal(member['can-update-variable'], false);
    assert.equal(member['can-force-delete'], false, 'present (Terraform then asks for a safe delete), true only for admins');
    const reader = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app', { token: 'reader' })).body.data.attributes.permissions;
    assert.equal(reader['can-queue-run'], false);
    assert.equal(reader['can-read-variable'], true);
    const owner = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app')).body.data.attributes.permissions;
    assert.equal(owner['can-queue-apply'], true);
    assert.equal(owner['can-force-unlock'], true);
    assert.equal(owner['can-force-delete'], true);
  });

  test('a user lock: lock, 409 when already locked, unlock, 409 when not locked', async () => {
    const id = await workspaceId(h, 'legacy-batch');
    const locked = await h.api('POST', `/workspaces/${id}/actions/lock`, { body: { reason: 'Investigating' } });
    assert.equal(locked.status, 200);
    assert.equal(locked.body.data.attributes.locked, true);
    assert.equal(locked.body.data.attributes['locked-reason'], 'Investigating');
    assert.equal(locked.body.data.relationships['locked-by'].data.type, 'users');
    assert.equal((await h.api('POST', `/workspaces/${id}/actions/lock`, { body: {} })).status, 409);
    assert.equal((await h.api('POST', `/workspaces/${id}/actions/unlock`, { token: 'reader' })).status, 404, 'readers may not unlock');
    const unlocked = await h.api('POST', `/workspaces/${id}/actions/unlock`);
    assert.equal(unlocked.status, 200);
    assert.equal(unlocked.body.data.attributes.locked, false);
    assert.equal((await h.api('POST', `/workspaces/${id}/actions/unlock`)).status, 409);
  });

  test('a workspace locked by a run cannot be unlocked by a user', async () => {
    const id = await workspaceId(h, 'demo-app');
    const result = await h.api('POST', `/workspaces/${id}/actions/unlock`);
    assert.equal(result.status, 409);
    assert.match(result.body.errors[0].detail, /locked by a run/);
  });

  test('include: current_configuration_version is included; an unknown include is 400', async () => {
    const result = await h.api('GET', '/organizations/acme-demo/workspaces/demo-app?include=current_configuration_version');
    assert.equal(result.body.included[0].type, 'configuration-versions');
    assert.equal(result.body.included[0].id, result.body.data.relationships['current-configuration-version'].data.id);
    const bad = await h.api('GET', '/organizations/acme-demo/workspaces/demo-app?include=everything');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0].detail, /Invalid include parameter$/);
  });

  test('include=current_run,current_run.plan brings the current run and its plan, once each', async () => {
    const result = await h.api('GET', '/organizations/acme-demo/workspaces/demo-app?include=current_run,current_run.plan');
    assert.equal(result.status, 200);
    const runId = result.body.data.relationships['current-run'].data.id;
    const run = result.body.included.find((r: any) => r.type === 'runs');
    assert.equal(run.id, runId);
    assert.equal(run.attributes.status, (await h.api('GET', `/runs/${runId}`)).body.data.attributes.status);
    const plan = result.body.included.find((r: any) => r.type === 'plans');
    assert.equal(plan.id, run.relationships.plan.data.id);
    assert.equal(result.body.included.filter((r: any) => r.type === 'runs').length, 1);
  });

  test('include on the list; organization and locked_by (a user) too', async () => {
    const list = await h.api('GET', '/organizations/acme-demo/workspaces?include=current_run');
    const currentRuns = list.body.data.map((w: any) => w.relationships['current-run'].data?.id).filter(Boolean).sort();
    assert.deepEqual(list.body.included.map((r: any) => r.id).sort(), currentRuns);
    const sandbox = await h.api('GET', '/organizations/acme-demo/workspaces/sandbox?include=organization,locked_by');
    const types = sandbox.body.included.map((r: any) => `${r.type}/${r.id}`);
    assert.ok(types.includes('organizations/acme-demo'));
    const locker = sandbox.body.data.relationships['locked-by'].data;
    assert.ok(types.includes(`users/${locker.id}`));
    assert.equal(sandbox.body.included.find((r: any) => r.type === 'users').attributes.username, 'olivia-owner');
  });

  test('organizations and the entitlement set', async () => {
    const organizations = await h.api('GET', '/organizations');
    assert.deepEqual(organizations.body.data.map((o: any) => o.id).sort(), ['acme-demo', 'acme-free']);
    assert.deepEqual((await h.api('GET', '/organizations', { token: 'reader' })).body.data.map((o: any) => o.id), ['acme-demo']);
    const entitlements = await h.api('GET', '/organizations/acme-demo/entitlement-set');
    assert.equal(entitlements.body.data.type, 'entitlement-sets');
    assert.equal(entitlements.body.data.attributes.operations, true);
    assert.equal(entitlements.body.data.attributes['cost-estimation'], true);
    assert.equal((await h.api('GET', '/organizations/acme-free/entitlement-set', { token: 'reader' })).status, 404);
  });
});

describe('deleting workspaces', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  const ids = (result: { body: any }) => (result.body.data as Array<{ id: string }>).map((resource) => resource.id);

  test('DELETE by name: 204, and the workspace\'s runs, variables, configuration versions, state and change requests go with it', async () => {
    const id = await workspaceId(h, 'demo-app');
    const runs = ids(await h.api('GET', `/workspaces/${id}/runs`));
    const plan = (await h.api('GET', `/runs/${runs[0]}/plan`)).body.data;
    const variables = ids(await h.api('GET', `/workspaces/${id}/vars`));
    const versions = ids(await h.api('GET', `/workspaces/${id}/configuration-versions`));
    const state = (await h.api('GET', `/workspaces/${id}/current-state-version`)).body.data;
    const changeRequests = ids(await h.api('GET', `/workspaces/${id}/change-requests`));
    assert.ok(runs.length > 0 && variables.length > 0 && versions.length > 0 && changeRequests.length > 0, 'demo-app is seeded with all of these');

    const deleted = await h.api('DELETE', '/organizations/acme-demo/workspaces/demo-app');
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    // Over 30 reads follow: each batch in a new second of the rate limit (the clock is manual).
    const nextSecond = () => h.emulator.control.advance(1_000);

    assert.equal((await h.api('GET', '/organizations/acme-demo/workspaces/demo-app')).status, 404);
    assert.equal((await h.api('GET', `/workspaces/${id}`)).status, 404);
    assert.ok(!(await h.api('GET', '/organizations/acme-demo/workspaces')).body.data.some((w: any) => w.id === id));
    for (const run of runs) assert.equal((await h.api('GET', `/runs/${run}`)).status, 404, `run ${run}`);
    assert.equal((await h.api('GET', `/plans/${plan.id}`)).status, 404);
    assert.equal((await fetch(plan.attributes['log-read-url'])).status, 404, 'the plan\'s log URL');
    const organizationRuns = await h.api('GET', '/organizations/acme-demo/runs');
    assert.ok(!organizationRuns.body.data.some((run: any) => run.relationships.workspace.data.id === id));
    await nextSecond();
    for (const variable of variables) assert.equal((await h.api('GET', `/vars/${variable}`)).status, 404, `variable ${variable}`);
    assert.ok(!ids(await h.api('GET', '/vars')).some((variable) => variables.includes(variable)));
    await nextSecond();
    for (const version of versions) assert.equal((await h.api('GET', `/configuration-versions/${version}`)).status, 404, `configuration version ${version}`);
    assert.equal((await h.api('GET', `/state-versions/${state.id}`)).status, 404);
    assert.equal((await fetch(state.attributes['hosted-state-download-url'])).status, 404, 'the state\'s download URL');
    for (const changeRequest of changeRequests) assert.equal((await h.api('GET', `/change-requests/${changeRequest}`)).status, 404);

    assert.equal((await h.api('DELETE', '/organizations/acme-demo/workspaces/demo-app')).status, 404, 'gone already');
  });

  test('DELETE by id needs admin on the workspace (can-destroy); anyone else, and an unknown id, gets 404', async () => {
    const stagingApi = await workspaceId(h, 'staging-api');
    for (const token of ['member', 'reader', 'organization'] as const) {
      assert.equal((await h.api('DELETE', `/workspaces/${stagingApi}`, { token })).status, 404, token);
      assert.equal((await h.api('GET', `/workspaces/${stagingApi}`, { token })).status, 200, `${token} still sees it`);
    }
    assert.equal((await h.api('DELETE', '/organizations/acme-demo/workspaces/staging-api', { token: 'member' })).status, 404);
    // max-member is admin on sandbox, which olivia has locked: a plain delete takes it all the same.
    const sandbox = await workspaceId(h, 'sandbox');
    assert.equal((await h.api('DELETE', `/workspaces/${sandbox}`, { token: 'member' })).status, 204);
    assert.equal((await h.api('GET', `/workspaces/${sandbox}`)).status, 404);
    assert.equal((await h.api('DELETE', '/workspaces/ws-doesnotexist0000')).status, 404);
    assert.equal((await h.api('DELETE', '/organizations/acme-demo/workspaces/nowhere')).status, 404);
  });

  test('safe-delete: 409 while the workspace is locked or its state still tracks resources; 204 otherwise, by name or id', async () => {
    const legacyBatch = await workspaceId(h, 'legacy-batch');
    assert.equal((await h.api('POST', `/workspaces/${legacyBatch}/actions/lock`, { body: {} })).status, 200);
    const locked = await h.api('POST', '/organizations/acme-demo/workspaces/legacy-batch/actions/safe-delete');
    assert.equal(locked.status, 409);
    assert.match(locked.body.errors[0].detail, /locked/, 'go-tfe reads "locked" to say the workspace must be unlocked first');
    assert.equal((await h.api('POST', `/workspaces/${legacyBatch}/actions/unlock`)).status, 200);

    const helloWorld = await workspaceId(h, 'hello-world', 'acme-free');
    const managing = await h.api('POST', `/workspaces/${helloWorld}/actions/safe-delete`);
    assert.equal(managing.status, 409);
    assert.match(managing.body.errors[0].detail, /still managing resources/);
    assert.equal((await h.api('GET', `/workspaces/${helloWorld}`)).status, 200, 'refused: still there');

    assert.equal((await h.api('POST', '/organizations/acme-demo/workspaces/legacy-batch/actions/safe-delete', { token: 'reader' })).status, 404);
    assert.equal((await h.api('POST', '/organizations/acme-demo/workspaces/legacy-batch/actions/safe-delete')).status, 204);
    assert.equal((await h.api('GET', `/workspaces/${legacyBatch}`)).status, 404);
    const scratch = await h.api('POST', '/organizations/acme-demo/workspaces', { body: { data: { type: 'workspaces', attributes: { name: 'scratch' } } } });
    assert.equal((await h.api('POST', `/workspaces/${scratch.body.data.id}/actions/safe-delete`)).status, 204);
    assert.equal((await h.api('GET', '/organizations/acme-demo/workspaces/scratch')).status, 404);
  });
});

describe('deleting a workspace leaves nothing of it behind in the store or the runs engine', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  test('a workspace with applied state, a variable and a run in progress: every record of it goes, and the run\'s clock task with it', async () => {
    const id = h.workspace.id;
    const applied = await h.createRun({ 'auto-apply': true });
    for (let i = 0; i < 60 && (await h.run(applied)).attributes.status !== 'applied'; i++) await h.clock.advance(10_000);
    assert.equal((await h.run(applied)).attributes.status, 'applied');
    assert.equal((await h.api('POST', `/api/v2/workspaces/${id}/vars`, { body: { data: { type: 'vars', attributes: { key: 'region', value: 'eu', category: 'terraform' } } } })).status, 201);
    const planning = await h.createRun();
    await h.clock.advance(1_000);
    assert.ok(h.clock.pendingTasks() > 0, 'the second run is on its way, with a task on the clock');
    assert.ok(h.store.stateVersions.list(id).length > 0 && h.engine.holderOf(id)?.id === planning);

    assert.equal((await h.api('DELETE', `/api/v2/workspaces/${id}`)).status, 204);

    const ofWorkspace = (records: Iterable<{ workspaceId: string }>) => [...records].filter((record) => record.workspaceId === id);
    assert.equal(h.store.workspace(id), undefined);
    assert.deepEqual(ofWorkspace(h.store.configurationVersions.values()), []);
    assert.deepEqual(ofWorkspace(h.store.variables.values()), []);
    assert.deepEqual(ofWorkspace(h.store.changeRequests.values()), []);
    assert.deepEqual(h.store.stateVersions.list(id), []);
    assert.ok([...h.store.teams.values()].every((team) => !team.workspaceAccess.has(id)), 'no team keeps access to it');
    const records = h.engine.records;
    assert.deepEqual(ofWorkspace(records.runs.values()), []);
    assert.deepEqual([records.plans.size, records.applies.size, records.costEstimates.size, records.policyChecks.size, records.taskStages.size], [0, 0, 0, 0, 0], 'its runs were the only ones');
    assert.equal(records.unknownArguments.has(id), false);
    assert.equal(h.engine.holderOf(id), undefined);
    assert.equal(h.clock.pendingTasks(), 0, 'the run in progress stopped: nothing of it is left on the clock');
    await h.clock.advance(600_000);
    assert.deepEqual(h.store.stateVersions.list(id), [], 'no apply finished after the delete');
  });
});
