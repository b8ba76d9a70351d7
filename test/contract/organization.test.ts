// Contract: the subscription (both paths, feature set from `included`, hosted edition only) and the
// organization token (generate replaces, delete 204, 404 for callers outside the owners team).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, collectItems, meaningOf } from '../../server/src/api/index';
import { useEmulator } from './support/harness';

describe('contract: subscriptions', () => {
  const harness = useEmulator();

  test('GET /organizations/:name/subscription gives the subscription and its feature set', async () => {
    const { subscription, featureSet } = await harness.client().organization.getSubscription('acme-demo');
    assert.match(subscription.id, /^sub-/);
    assert.equal(subscription.type, 'subscriptions');
    assert.equal(subscription.attributes['is-active'], true);
    assert.equal(typeof subscription.attributes['runs-ceiling'], 'number');
    assert.match(featureSet!.id, /^fs-/);
    assert.equal(featureSet!.attributes['cost-estimation'], true);
    assert.equal(featureSet!.attributes['run-tasks'], true);
    assert.equal(featureSet!.attributes['is-free-tier'], false);
  });

  test('GET /subscriptions/:id gives the same document', async () => {
    const client = harness.client();
    const byOrganization = await client.organization.getSubscription('acme-demo');
    const byId = await client.organization.getSubscriptionById(byOrganization.subscription.id);
    assert.deepEqual(byId.subscription, byOrganization.subscription);
    assert.equal(byId.featureSet?.id, byOrganization.featureSet?.id);
  });

  test('the free organization is on a free feature set', async () => {
    const { featureSet } = await harness.client().organization.getSubscription('acme-free');
    assert.equal(featureSet!.attributes['is-free-tier'], true);
    assert.equal(featureSet!.attributes.cost, 0);
  });

  test('an unknown subscription id is a 404 ServiceError', async () => {
    const error = await harness.client().organization.getSubscriptionById('sub-doesnotexist00').catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
  });
});

describe('contract: organizations', () => {
  const harness = useEmulator();

  test('GET /organizations lists the organizations of the token\'s user (for completion in the cloud block)', async () => {
    const names = async (role: Parameters<typeof harness.client>[0]) =>
      (await collectItems(harness.client(role).organization.pages())).map((o) => o.attributes.name ?? o.id).sort();
    assert.deepEqual(await names('owner'), ['acme-demo', 'acme-free']);
    // The member is not in the free organization.
    assert.deepEqual(await names('member'), ['acme-demo']);
  });
});

describe('contract: subscriptions on the enterprise edition', () => {
  const harness = useEmulator({ edition: 'enterprise' });

  test('the subscription interface does not exist there (404), and ping says Terraform Enterprise', async () => {
    const client = harness.client();
    const error = await client.organization.getSubscription('acme-demo').catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
    const ping = await client.account.ping();
    assert.equal(ping.appName, 'Terraform Enterprise');
    assert.ok(ping.enterpriseVersion);
  });
});

describe('contract: organization token', () => {
  const harness = useEmulator();

  test('generate returns the secret once; a second generation replaces the first (which stops working)', async () => {
    const client = harness.client('owner');
    const first = await client.organization.generateToken('acme-demo');
    assert.equal(first.record.type, 'authentication-tokens');
    assert.match(first.secret, /\.atlasv1\./);
    const firstClient = harness.client('owner', { token: first.secret });
    assert.equal((await firstClient.account.details()).tokenKind, 'organization');
    const second = await client.organization.generateToken('acme-demo');
    assert.notEqual(second.secret, first.secret);
    const error = await firstClient.account.details().catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 401);
  });

  test('expired-at is sent as an ISO date and comes back', async () => {
    const expiredAt = new Date(harness.emulator().control.now().getTime() + 30 * 86_400_000);
    const { record } = await harness.client('owner').organization.generateToken('acme-demo', { expiredAt });
    assert.equal(new Date(record.attributes['expired-at']!).getTime(), expiredAt.getTime());
  });

  test('the owners team token and the organization token may generate it too', async () => {
    assert.ok((await harness.client('team').organization.generateToken('acme-demo')).secret);
    const fresh = await harness.client('owner').organization.generateToken('acme-demo');
    const viaOrganizationToken = harness.client('owner', { token: fresh.secret });
    assert.ok((await viaOrganizationToken.organization.generateToken('acme-demo')).secret);
  });

  test('delete answers 204 and the token stops working', async () => {
    const client = harness.client('owner');
    const { secret } = await client.organization.generateToken('acme-demo');
    await client.organization.deleteToken('acme-demo');
    assert.equal(harness.requests().at(-1)!.status, 204);
    const error = await harness.client('owner', { token: secret }).account.details().catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 401);
  });

  test('spec §7: generate by a caller outside the owners team → 404 "caller not authorized"', async () => {
    const error = await harness.client('member').organization.generateToken('acme-demo').catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
    assert.equal(error.meaning, meaningOf('generateOrganizationToken', 404));
    assert.match(error.message, /may not manage the organization token/);
  });

  test('spec §7: delete by a caller outside the owners team → 404 "caller not authorized"', async () => {
    const error = await harness.client('reader').organization.deleteToken('acme-demo').catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
    assert.equal(error.operation, 'deleteOrganizationToken');
  });
});
