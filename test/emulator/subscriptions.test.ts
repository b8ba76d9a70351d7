import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startCore, type CoreHarness } from './core-harness';

describe('subscriptions (hosted edition)', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  test('the organization path returns the subscription with its feature set included', async () => {
    const result = await h.api('GET', '/organizations/acme-demo/subscription', { token: 'reader' });
    assert.equal(result.status, 200);
    const { data, included } = result.body;
    assert.equal(data.type, 'subscriptions');
    assert.match(data.id, /^sub-[0-9A-Za-z]{16}$/);
    assert.equal(data.links.self, `/api/v2/subscriptions/${data.id}`);
    assert.deepEqual(data.relationships.organization.data, { id: 'acme-demo', type: 'organizations' });
    assert.deepEqual(data.relationships['billing-account'], { data: null });
    for (const key of ['end-at', 'is-active', 'start-at', 'runs-ceiling', 'agents-ceiling', 'contract-start-at', 'contract-user-limit', 'contract-apply-limit', 'run-task-limit', 'run-task-workspace-limit', 'run-task-mandatory-enforcement-limit', 'policy-set-limit', 'policy-limit', 'policy-mandatory-enforcement-limit', 'versioned-policy-set-limit', 'is-public-free-tier', 'is-self-serve-trial']) {
      assert.ok(key in data.attributes, key);
    }
    assert.equal(included.length, 1);
    const featureSet = included[0];
    assert.equal(featureSet.type, 'feature-sets');
    assert.equal(featureSet.id, data.relationships['feature-set'].data.id);
    assert.match(featureSet.id, /^fs-/);
    assert.equal(featureSet.attributes['cost-estimation'], true);
    assert.equal(featureSet.attributes['policy-enforcement'], true);
    assert.equal(featureSet.attributes['run-tasks'], true);
    assert.equal(featureSet.attributes.teams, true);
    assert.equal(featureSet.attributes['is-free-tier'], false);
  });

  test('the id path returns the same document', async () => {
    const byOrganization = await h.api('GET', '/organizations/acme-demo/subscription');
    const byId = await h.api('GET', `/subscriptions/${byOrganization.body.data.id}`);
    assert.equal(byId.status, 200);
    assert.deepEqual(byId.body, byOrganization.body);
  });

  test('the free organization is on the free tier', async () => {
    const result = await h.api('GET', '/organizations/acme-free/subscription');
    assert.equal(result.body.included[0].attributes['is-free-tier'], true);
    assert.equal(result.body.included[0].attributes.cost, 0);
    assert.equal(result.body.data.attributes['is-public-free-tier'], true);
  });

  test('outsiders and unknown ids get 404', async () => {
    assert.equal((await h.api('GET', '/organizations/acme-free/subscription', { token: 'member' })).status, 404);
    const free = await h.api('GET', '/organizations/acme-free/subscription');
    assert.equal((await h.api('GET', `/subscriptions/${free.body.data.id}`, { token: 'member' })).status, 404);
    assert.equal((await h.api('GET', '/subscriptions/sub-doesnotexist0000')).status, 404);
  });
});

describe('subscriptions (enterprise edition)', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore({ edition: 'enterprise' });
  });
  after(() => h.close());

  test('both subscription paths are 404 and the service names itself Terraform Enterprise', async () => {
    const byOrganization = await h.api('GET', '/organizations/acme-demo/subscription');
    assert.equal(byOrganization.status, 404);
    assert.equal(byOrganization.headers.get('tfp-appname'), 'Terraform Enterprise');
    assert.ok(byOrganization.headers.get('x-tfe-version'));
    assert.equal((await h.api('GET', '/subscriptions/sub-anything0000000')).status, 404);
    assert.equal((await h.api('GET', '/organizations/acme-demo')).status, 200, 'the organization itself is there');
  });
});
