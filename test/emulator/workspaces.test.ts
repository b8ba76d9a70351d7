import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startCore, workspaceId, type CoreHarness } from './core-harness';

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
    const reader = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app', { token: 'reader' })).body.data.attributes.permissions;
    assert.equal(reader['can-queue-run'], false);
    assert.equal(reader['can-read-variable'], true);
    const owner = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app')).body.data.attributes.permissions;
    assert.equal(owner['can-queue-apply'], true);
    assert.equal(owner['can-force-unlock'], true);
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
