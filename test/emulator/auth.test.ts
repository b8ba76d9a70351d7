import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startCore, type CoreHarness } from './core-harness';

describe('emulator authentication and the 401/404/415 rules', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());

  test('a missing token gets 401 with a JSON:API error body', async () => {
    const result = await h.api('GET', '/account/details', { token: null });
    assert.equal(result.status, 401);
    assert.match(result.headers.get('content-type') ?? '', /application\/vnd\.api\+json/);
    assert.deepEqual(result.body, { errors: [{ status: '401', title: 'unauthorized' }] });
  });

  test('an unknown token and a malformed Authorization header both get 401', async () => {
    assert.equal((await h.api('GET', '/account/details', { token: 'nope.atlasv1.nope' })).status, 401);
    const raw = await fetch(`${h.emulator.url}/api/v2/account/details`, { headers: { Authorization: h.emulator.tokens.owner } });
    assert.equal(raw.status, 401);
  });

  test('ping answers 204 without a token and carries the service headers', async () => {
    const result = await h.api('GET', '/ping', { token: null });
    assert.equal(result.status, 204);
    assert.equal(result.headers.get('tfp-api-version'), '2.6');
    assert.equal(result.headers.get('tfp-appname'), 'HCP Terraform');
    assert.equal(result.headers.get('x-ratelimit-limit'), '30');
  });

  test('account details tell each token kind apart', async () => {
    const expectations: Array<[string, string, boolean]> = [
      ['owner', 'users', false],
      ['member', 'users', false],
      ['reader', 'users', false],
      ['team', 'teams', true],
      ['organization', 'organizations', true],
    ];
    for (const [role, type, service] of expectations) {
      const result = await h.api('GET', '/account/details', { token: role });
      assert.equal(result.status, 200, role);
      assert.equal(result.body.data.type, 'users');
      assert.equal(result.body.data.attributes['is-service-account'], service, role);
      assert.equal(result.body.data.relationships['authenticated-resource'].data.type, type, role);
    }
    const owner = await h.api('GET', '/account/details');
    assert.equal(owner.body.data.attributes.username, 'olivia-owner');
    assert.equal(owner.body.data.relationships['authenticated-resource'].data.id, owner.body.data.id);
  });

  test('what a valid token may not see is 404, never 403', async () => {
    // max and rita are not members of acme-free.
    for (const role of ['member', 'reader', 'organization']) {
      const result = await h.api('GET', '/organizations/acme-free/workspaces/hello-world', { token: role });
      assert.equal(result.status, 404, role);
      assert.deepEqual(result.body.errors[0].status, '404');
      assert.equal(result.body.errors[0].title, 'not found');
    }
    assert.equal((await h.api('GET', '/organizations/acme-free/workspaces/hello-world')).status, 200);
  });

  test('a write without the JSON:API media type is 415, even with an empty body', async () => {
    const noType = await h.api('DELETE', '/organizations/acme-demo/authentication-token', { contentType: null });
    assert.equal(noType.status, 415);
    assert.equal(noType.body.errors[0].status, '415');
    const jsonType = await h.api('POST', '/vars', { contentType: 'application/json', body: {} });
    assert.equal(jsonType.status, 415);
    // The same request with the right media type goes through to validation.
    const right = await h.api('POST', '/vars', { body: {} });
    assert.equal(right.status, 422);
  });

  test('401 comes before 415: a bad token is told first', async () => {
    const result = await h.api('POST', '/vars', { token: null, contentType: null });
    assert.equal(result.status, 401);
  });

  test('an unknown path is a JSON:API 404 and a body that is not JSON is a 400', async () => {
    const unknown = await h.api('GET', '/no-such-thing');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.errors[0].title, 'not found');
    const broken = await h.api('POST', '/vars', { body: '{"data": ' });
    assert.equal(broken.status, 400);
    assert.match(broken.body.errors[0].detail, /not valid JSON/);
  });

  test('service discovery points every service at the emulator', async () => {
    const response = await fetch(`${h.emulator.url}/.well-known/terraform.json`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    const document = (await response.json()) as Record<string, string>;
    assert.equal(document['tfe.v2'], '/api/v2/');
  });
});
