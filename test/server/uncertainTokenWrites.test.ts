// #14 item 10 for the organization token: a generate or delete whose answer was lost is never sent again; the server
// reads the token's status (never its secret) and says what is true. A generate's secret is gone with its answer, so
// that command always fails, saying whether a new token replaced the old one; no message ever carries a secret.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ServiceError } from '../../server/src/api';
import { startLostAnswerHarness, type LostAnswerHarness } from '../helpers/lostAnswerHarness';

describe('organization token writes whose answer was lost (#14 item 10)', () => {
  let h: LostAnswerHarness;
  const path = '/api/v2/organizations/acme-demo/authentication-token';
  const tokenId = () => h.api.organization.getToken('acme-demo').then((token) => token.id, (error: unknown) => (error instanceof ServiceError && error.status === 404 ? null : Promise.reject(error)));
  const noSecretIn = (text: string) => assert.doesNotMatch(text, /atlasv1/, 'no token secret');

  before(async () => {
    h = await startLostAnswerHarness();
  });
  beforeEach(() => h.nextSecond());
  after(async () => {
    // Nothing the server said carries a secret: the seeded ones, or one generated while the answer was lost.
    noSecretIn(JSON.stringify(h?.session.received ?? []));
    noSecretIn(h?.session.stderr() ?? '');
    await h?.close();
  });

  test('generate, truncated answer after the service generated it: "generated, but its secret was lost; generate again", sent once', async () => {
    const before = await tokenId();
    assert.ok(before, 'the seed has an organization token');
    h.inject({ method: 'POST', path, kind: 'truncate' });
    const error = await h.rejection(h.run('generateOrganizationToken', { organization: 'acme-demo' }));
    const now = await tokenId();
    assert.notEqual(now, before);
    assert.match(error.message, new RegExp(`A new organization token of acme-demo was generated \\(${now}\\), but its secret was lost with the answer.*the token before it no longer works\\. It was not sent again: generate it again to get a secret`, 's'));
    noSecretIn(error.message);
    assert.equal(h.sent('POST', path), 1, 'never resent');
  });

  test('generate, 503 before the service acted: "no new one was generated, the old one still works", sent once', async () => {
    const before = await tokenId();
    h.inject({ method: 'POST', path, kind: 'status', status: 503 });
    const error = await h.rejection(h.run('generateOrganizationToken', { organization: 'acme-demo' }));
    assert.match(error.message, new RegExp(`The organization token of acme-demo is still the one it had \\(${before}, created .+\\), so no new one was generated and that one still works; it was not sent again`));
    assert.equal(h.sent('POST', path), 1);
    assert.equal(await tokenId(), before);
  });

  test('generate, answer lost and the token cannot be read: "may have been generated", the secret could not be received', async () => {
    h.inject({ method: 'POST', path, kind: 'status', status: 500, beforeHandling: false }, { method: 'GET', path, kind: 'malformed', times: Infinity });
    const error = await h.rejection(h.run('generateOrganizationToken', { organization: 'acme-demo' }));
    assert.match(error.message, /A new organization token of acme-demo may have been generated, and the token could not be read to check \(.+\); its secret could not be received either\. It was not sent again: generate it again/);
    noSecretIn(error.message);
    assert.equal(h.sent('POST', path), 1);
  });

  test('generate, the token could not be read before, reset after: "may have been generated (the one there now is …)"', async () => {
    h.inject({ method: 'GET', path, kind: 'malformed', times: 1 }, { method: 'POST', path, kind: 'reset', beforeHandling: false });
    const error = await h.rejection(h.run('generateOrganizationToken', { organization: 'acme-demo' }));
    assert.match(error.message, new RegExp(`may have been generated \\(the one there now is ${await tokenId()}, created .+\\), and its secret could not be received\\. It was not sent again`));
    assert.equal(h.sent('POST', path), 1);
  });

  test('delete, 500 after the service deleted it: reported deleted, with a warning, sent once', async () => {
    assert.ok(await tokenId());
    const warned = h.nextWarning(/organization token now/);
    h.inject({ method: 'DELETE', path, kind: 'status', status: 500, beforeHandling: false });
    assert.deepEqual(await h.run('deleteOrganizationToken', { organization: 'acme-demo' }), { deleted: true });
    assert.equal(h.sent('DELETE', path), 1);
    assert.equal(await tokenId(), null);
    assert.match(await warned, /But acme-demo has no organization token now: it was done, and not sent twice/);
  });

  test('delete, reset before the service acted: "still has its token, not deleted", sent once', async () => {
    await h.api.organization.generateToken('acme-demo');
    const id = await tokenId();
    h.inject({ method: 'DELETE', path, kind: 'reset' });
    const error = await h.rejection(h.run('deleteOrganizationToken', { organization: 'acme-demo' }));
    assert.match(error.message, new RegExp(`acme-demo still has its organization token \\(${id}\\), so it was not deleted and still works; it was not sent again`));
    assert.equal(h.sent('DELETE', path), 1);
    assert.equal(await tokenId(), id);
  });

  test('delete, answer lost and the token cannot be read: "may have been deleted"', async () => {
    // (Before handling: the token is still there, so the garbled read is a 200's. After a real delete it would be a
    // 404's, and a 404 says "no token" whatever its body.)
    h.inject({ method: 'DELETE', path, kind: 'status', status: 502 }, { method: 'GET', path, kind: 'malformed', times: Infinity });
    const error = await h.rejection(h.run('deleteOrganizationToken', { organization: 'acme-demo' }));
    assert.match(error.message, /The organization token of acme-demo may have been deleted anyway, and it could not be read to check.*look at the Organization view/s);
    assert.equal(h.sent('DELETE', path), 1);
  });
});
