import assert from 'node:assert/strict';
import { after, beforeEach, describe, test } from 'node:test';
import { readExpiredAt } from '../../emulator/src/routes/organizationToken';
import { startCore, type CoreHarness } from './core-harness';

const path = '/organizations/acme-demo/authentication-token';
const body = (expiredAt?: string | null) => ({ data: { type: 'authentication-token', attributes: expiredAt === undefined ? {} : { 'expired-at': expiredAt } } });

describe('organization token', () => {
  let h: CoreHarness | undefined;
  beforeEach(async () => {
    await h?.close();
    h = await startCore();
  });
  after(() => h?.close());

  test('generating returns 201 with the secret once; the new token works and the old one stops', async () => {
    const old = h!.emulator.tokens.organization;
    assert.equal((await h!.api('GET', '/account/details', { token: old })).status, 200);
    const created = await h!.api('POST', path, { body: body() });
    assert.equal(created.status, 201);
    assert.equal(created.body.data.type, 'authentication-tokens');
    const secret = created.body.data.attributes.token;
    assert.match(secret, /^[0-9A-Za-z]{14}\.atlasv1\.[0-9A-Za-z]{64}$/);
    assert.equal(created.body.data.attributes['expired-at'], null);
    assert.equal((await h!.api('GET', '/account/details', { token: old })).status, 401, 'the replaced token stops working');
    const me = await h!.api('GET', '/account/details', { token: secret });
    assert.equal(me.body.data.relationships['authenticated-resource'].data.type, 'organizations');
    const shown = await h!.api('GET', path);
    assert.equal(shown.status, 200);
    assert.equal(shown.body.data.attributes.token, null, 'the secret is never readable again');
    assert.equal(shown.body.data.id, created.body.data.id);
  });

  test('owners-team members, the owners team token and the organization token may generate; others get 404', async () => {
    for (const role of ['member', 'reader']) {
      const denied = await h!.api('POST', path, { token: role, body: body() });
      assert.equal(denied.status, 404, role);
      assert.equal(denied.body.errors[0].title, 'not found');
    }
    assert.equal((await h!.api('POST', path, { token: 'team', body: body() })).status, 201, 'owners team token');
    const byOwner = await h!.api('POST', path, { token: 'owner', body: body() });
    assert.equal(byOwner.status, 201, 'owners team member');
    const byOrganizationToken = await h!.api('POST', path, { token: byOwner.body.data.attributes.token, body: body() });
    assert.equal(byOrganizationToken.status, 201, 'the organization token itself');
    assert.equal((await h!.api('POST', '/organizations/acme-free/authentication-token', { token: 'team', body: body() })).status, 404, 'another organization');
  });

  test('expired-at is validated: a future UTC date-time is kept, anything else is 422 pointing at it', async () => {
    const future = new Date(h!.emulator.control.now().getTime() + 3_600_000).toISOString();
    const created = await h!.api('POST', path, { body: body(future) });
    assert.equal(created.status, 201);
    assert.equal(created.body.data.attributes['expired-at'], future);
    for (const bad of ['tomorrow', '2030-01-01', '2030-01-01T00:00:00+02:00', '2020-01-01T00:00:00Z', '2030-02-31T00:00:00Z']) {
      const result = await h!.api('POST', path, { body: body(bad) });
      assert.equal(result.status, 422, bad);
      assert.equal(result.body.errors[0].source.pointer, '/data/attributes/expired-at', bad);
    }
    for (const type of ['tokens', 'authentication-tokens']) {
      const wrongType = await h!.api('POST', path, { body: { data: { type } } });
      assert.equal(wrongType.status, 422, type);
      assert.equal(wrongType.body.errors[0].source.pointer, '/data/type');
    }
  });

  test('expired-at is enforced: once the clock passes it the token gets 401', async () => {
    const expiresAt = new Date(h!.emulator.control.now().getTime() + 60_000);
    const created = await h!.api('POST', path, { body: body(expiresAt.toISOString()) });
    const secret = created.body.data.attributes.token;
    assert.equal((await h!.api('GET', '/account/details', { token: secret })).status, 200);
    await h!.emulator.control.advance(60_000);
    assert.equal((await h!.api('GET', '/account/details', { token: secret })).status, 401);
  });

  test('delete answers 204, the token stops working, and a second delete is 404', async () => {
    const token = h!.emulator.tokens.organization;
    const deleted = await h!.api('DELETE', path, { token: 'member' });
    assert.equal(deleted.status, 404, 'members may not');
    const ok = await h!.api('DELETE', path);
    assert.equal(ok.status, 204);
    assert.equal(ok.text, '');
    assert.equal((await h!.api('GET', '/account/details', { token })).status, 401);
    assert.equal((await h!.api('DELETE', path)).status, 404);
  });

  test('the organization token may not create runs or configuration versions (404)', async () => {
    const workspace = (await h!.api('GET', '/organizations/acme-demo/workspaces/demo-app')).body.data.id;
    const run = await h!.api('POST', '/runs', {
      token: 'organization',
      body: { data: { type: 'runs', attributes: {}, relationships: { workspace: { data: { type: 'workspaces', id: workspace } } } } },
    });
    assert.equal(run.status, 404);
    const version = await h!.api('POST', `/workspaces/${workspace}/configuration-versions`, { token: 'organization', body: { data: { type: 'configuration-versions' } } });
    assert.equal(version.status, 404);
  });
});

describe('readExpiredAt', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  test('null and omitted mean never', () => {
    assert.equal(readExpiredAt(body(null), now), null);
    assert.equal(readExpiredAt(body(), now), null);
  });
  test('accepts Z and +00:00 offsets', () => {
    assert.equal(readExpiredAt(body('2027-05-01T10:00:00Z'), now)?.toISOString(), '2027-05-01T10:00:00.000Z');
    assert.equal(readExpiredAt(body('2027-05-01T10:00:00.5+00:00'), now)?.toISOString(), '2027-05-01T10:00:00.500Z');
  });
});
