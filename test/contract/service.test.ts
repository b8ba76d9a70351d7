// Contract: ping, account details per token kind, and the 401 for a bad token — against the emulator.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError } from '../../server/src/api/index';
import { useEmulator } from './support/harness';

describe('contract: service and account', () => {
  const harness = useEmulator();

  test('GET /ping reports the API version, app name and rate limit', async () => {
    const ping = await harness.client().account.ping();
    assert.equal(ping.appName, 'HCP Terraform');
    assert.equal(ping.apiVersion, '2.6');
    assert.equal(ping.rateLimit, 30);
    const logged = harness.requests().at(-1)!;
    assert.equal(logged.path, '/api/v2/ping');
    assert.equal(logged.tokenRole, 'owner');
  });

  test('GET /account/details tells a user token from team and organization tokens', async () => {
    const user = await harness.client('owner').account.details();
    assert.equal(user.tokenKind, 'user');
    assert.equal(user.account.attributes.username, 'olivia-owner');
    const team = await harness.client('team').account.details();
    assert.equal(team.tokenKind, 'team');
    assert.equal(team.account.attributes['is-service-account'], true);
    const organization = await harness.client('organization').account.details();
    assert.equal(organization.tokenKind, 'organization');
    assert.equal(organization.authenticatedId, 'acme-demo');
  });

  test('an invalid token gets a 401 ServiceError that says to sign in again and does not contain the token', async () => {
    const client = harness.client('owner', { token: 'not-a-real-token.atlasv1.zzzzzzzz' });
    const error = await client.account.details().catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 401);
    assert.match(error.message, /sign in again/);
    assert.ok(!error.message.includes('not-a-real-token'));
  });
});
