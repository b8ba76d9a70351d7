import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { RateLimiter } from '../../emulator/src/http/rateLimit';
import { startCore, workspaceId, type CoreHarness } from './core-harness';

describe('RateLimiter (fixed windows on the emulator clock)', () => {
  test('allows the limit, refuses the next, and resets when the window rolls over', () => {
    let now = 10_250;
    const limiter = new RateLimiter({ now: () => new Date(now) });
    for (let i = 0; i < 30; i++) assert.equal(limiter.take('default', 'user:a').allowed, true);
    const refused = limiter.take('default', 'user:a');
    assert.equal(refused.allowed, false);
    assert.equal(refused.headers['X-RateLimit-Remaining'], '0');
    assert.equal(refused.headers['X-RateLimit-Reset'], '0.750');
    assert.equal(limiter.take('default', 'user:b').allowed, true, 'another caller has its own window');
    now = 11_000;
    assert.equal(limiter.take('default', 'user:a').allowed, true);
  });

  test('the run-list group allows 30 per minute', () => {
    let now = 0;
    const limiter = new RateLimiter({ now: () => new Date(now) });
    for (let i = 0; i < 30; i++) limiter.take('run-lists', 'user:a');
    now = 59_000;
    const refused = limiter.take('run-lists', 'user:a');
    assert.equal(refused.allowed, false);
    assert.equal(refused.headers['X-RateLimit-Reset'], '1.000');
    now = 60_000;
    assert.equal(limiter.take('run-lists', 'user:a').allowed, true);
  });
});

describe('rate limits over HTTP', () => {
  let h: CoreHarness;
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(60_000));

  test('every API response carries X-RateLimit-Limit, -Remaining and -Reset (float seconds)', async () => {
    for (const [path, token] of [['/account/details', 'owner'], ['/account/details', null], ['/nowhere', 'owner']] as const) {
      const result = await h.api('GET', path, { token });
      assert.equal(result.headers.get('x-ratelimit-limit'), '30', path);
      assert.match(result.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/);
      assert.match(result.headers.get('x-ratelimit-reset') ?? '', /^\d+\.\d+$/);
    }
  });

  test('the 31st request in a second is 429 with the documented body; a second later it passes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await h.api('GET', '/account/details', { token: 'reader' })).status);
    assert.deepEqual(statuses, Array(30).fill(200));
    const limited = await h.api('GET', '/account/details', { token: 'reader' });
    assert.equal(limited.status, 429);
    assert.deepEqual(limited.body, { errors: [{ status: 429, title: 'Too many requests', detail: "You have exceeded the API's rate limit." }] });
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    await h.emulator.control.advance(1_000);
    assert.equal((await h.api('GET', '/account/details', { token: 'reader' })).status, 200);
  });

  test('the run lists allow 30 per minute, separately from other endpoints', async () => {
    const id = await workspaceId(h, 'demo-app');
    // The window is a calendar minute and the loop advances a second: start just after a minute begins.
    const now = h.emulator.control.now().getTime();
    await h.emulator.control.advance(60_000 - (now % 60_000) + 1_000);
    for (let i = 0; i < 30; i++) {
      assert.equal((await h.api('GET', `/workspaces/${id}/runs`, { token: 'member' })).status, 200);
      if (i % 20 === 19) await h.emulator.control.advance(1_000); // stay under 30/s on purpose
    }
    const limited = await h.api('GET', `/organizations/acme-demo/runs`, { token: 'member' });
    assert.equal(limited.status, 429);
    assert.equal(Number(limited.headers.get('x-ratelimit-limit')), 30);
    assert.equal((await h.api('GET', '/account/details', { token: 'member' })).status, 200, 'other endpoints still answer');
    await h.emulator.control.advance(60_000);
    assert.equal((await h.api('GET', `/organizations/acme-demo/runs`, { token: 'member' })).status, 200);
  });
});
