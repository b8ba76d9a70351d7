// The client-side rate limiter keeps under 30 requests/second overall and 30/minute for the run lists,
// and honours the server's X-RateLimit-Remaining/Reset. Time is virtual: waits are asserted, not slept.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { queueGraceMs, RateLimiter } from '../../server/src/api/rateLimiter';
import { SteppedClock, VirtualClock } from './support/virtualClock';
import { runResource, sendJson, startTestServer } from './support/testServer';
import { testClient } from './support/clientFactory';

describe('RateLimiter', () => {
  test('30 requests go at once; the 31st waits for the first to leave the (widened) one-second window', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock });
    for (let i = 0; i < 30; i++) await limiter.acquire('general');
    assert.deepEqual(clock.sleeps, []);
    await limiter.acquire('general');
    assert.deepEqual(clock.sleeps, [1050]);
  });

  test('run lists: 30 per minute, and they count towards the overall limit too', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock, margin: 0 });
    for (let i = 0; i < 30; i++) {
      await limiter.acquire('run-list');
      clock.time += 100; // spread over 3 s so the per-second window never binds
    }
    assert.deepEqual(clock.sleeps, []);
    assert.equal(limiter.delayFor('general'), 0);
    assert.equal(limiter.delayFor('run-list'), 60_000 - 3_000);
    await limiter.acquire('run-list');
    assert.deepEqual(clock.sleeps, [57_000]);
  });

  test('concurrent acquirers never exceed the limit within a window', async () => {
    const clock = new SteppedClock();
    const limiter = new RateLimiter({ clock, general: { limit: 5, windowMs: 1000 }, margin: 0 });
    const times: number[] = [];
    const all = Promise.all(Array.from({ length: 12 }, () => limiter.acquire('general').then(() => times.push(clock.now()))));
    for (let step = 0; step < 10 && times.length < 12; step++) await clock.advance(500);
    await all;
    assert.deepEqual(times, [0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000, 2000, 2000]);
  });

  test('X-RateLimit-Remaining: 0 with a reset pauses the bucket until the reset', () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock });
    limiter.observe('general', { 'x-ratelimit-limit': '30', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '2.5' });
    assert.equal(limiter.delayFor('general'), 2500);
    limiter.observe('general', { 'x-ratelimit-remaining': '12', 'x-ratelimit-reset': '0.2' });
    assert.equal(limiter.delayFor('general'), 2500, 'remaining > 0 does not shorten or add a pause');
  });

  test('background work holds off while other requests wait for the bucket, even as a slot frees', async () => {
    const clock = new SteppedClock();
    const limiter = new RateLimiter({ clock, runList: { limit: 1, windowMs: 1000 }, margin: 0 });
    await limiter.acquire('run-list');
    assert.equal(limiter.backgroundDelay('run-list'), 1000, 'the window has no room');
    const queued = limiter.acquire('run-list'); // a user's read, sleeping until the slot frees
    await clock.advance(0);
    // The slot frees; the background work's timer fires before the sleeping read's (same due time).
    clock.time += 1000;
    assert.equal(limiter.delayFor('run-list'), 0);
    assert.equal(limiter.backgroundDelay('run-list'), queueGraceMs, 'the waiting read goes first');
    assert.equal(limiter.backgroundDelay('general'), 0, 'the other bucket is not held');
    await clock.advance(0);
    await queued;
    assert.equal(limiter.backgroundDelay('run-list'), 1000, 'the read took the slot; nobody waits now');
  });

  test('a cancelled wait rejects', async () => {
    const clock = new VirtualClock();
    const limiter = new RateLimiter({ clock, general: { limit: 1, windowMs: 1000 } });
    await limiter.acquire('general');
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(limiter.acquire('general', controller.signal), { name: 'CancelledError' });
  });

  test('through the client: 31 run-list requests in a row are spaced by the per-minute limit', async () => {
    const server = await startTestServer((_request, response) =>
      sendJson(response, 200, { data: [runResource('run-1')], meta: { pagination: { 'current-page': 1, 'total-pages': 1 } } }),
    );
    const { client, clock } = testClient(server.url);
    for (let i = 0; i < 31; i++) await client.runs.listForWorkspace('ws-1', { pageNumber: i + 1 });
    assert.equal(server.requests.length, 31);
    assert.equal(clock.sleeps.length, 1);
    assert.ok(clock.sleeps[0]! >= 60_000, `waited ${clock.sleeps[0]}`);
    await client.close();
    await server.close();
  });
});
