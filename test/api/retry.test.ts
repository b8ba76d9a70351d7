// Retry policy: reads are retried after 5xx/network errors/timeouts; writes only when the service provably did
// not process them (429, connection never made). Waits follow X-RateLimit-Reset / Retry-After, plus jitter.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { NetworkError, RateLimitedError, ServiceError, TimeoutError } from '../../server/src/api/errors';
import { decideRetry, defaultRetryOptions, rateLimitWaitMs } from '../../server/src/api/retry';
import type { RetryOptions } from '../../server/src/api/retry';
import { runResource, sendJson, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';
import { testClient } from './support/clientFactory';

const options: RetryOptions = { ...defaultRetryOptions, random: () => 0.5, jitterMs: 100 };
const response = (status: number, headers: Record<string, string> = {}) => ({ kind: 'response' as const, status, headers });
const networkError = (mayHaveBeenSent: boolean) => ({
  kind: 'error' as const,
  error: new NetworkError('x', 'createRun', mayHaveBeenSent ? 'ECONNRESET' : 'ECONNREFUSED', mayHaveBeenSent),
});

describe('decideRetry (pure policy)', () => {
  test('429 on a write is retried after X-RateLimit-Reset seconds plus jitter', () => {
    const decision = decideRetry(response(429, { 'x-ratelimit-reset': '1.25' }), { isRead: false, attempt: 1, options });
    assert.deepEqual(decision, { retry: true, delayMs: 1250 + 50, reason: 'rate limited (429)' });
  });

  test('429 without X-RateLimit-Reset uses Retry-After (seconds, or an HTTP date)', () => {
    assert.equal(rateLimitWaitMs({ 'retry-after': '3' }), 3000);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(rateLimitWaitMs({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now), 7000);
    assert.equal(rateLimitWaitMs({}), undefined);
  });

  test('a 429 asking for longer than maxRateLimitWaitMs is not waited for', () => {
    const decision = decideRetry(response(429, { 'x-ratelimit-reset': '120' }), { isRead: true, attempt: 1, options });
    assert.deepEqual(decision, { retry: false });
  });

  test('5xx: reads back off exponentially; writes are never retried', () => {
    const first = decideRetry(response(503), { isRead: true, attempt: 1, options });
    const third = decideRetry(response(503), { isRead: true, attempt: 3, options });
    assert.deepEqual(first, { retry: true, delayMs: 250 + 50, reason: 'server error (503)' });
    assert.deepEqual(third, { retry: true, delayMs: 1000 + 50, reason: 'server error (503)' });
    assert.deepEqual(decideRetry(response(500), { isRead: false, attempt: 1, options }), { retry: false });
  });

  test('network errors: reads retry; writes only when the connection was never made', () => {
    assert.equal(decideRetry(networkError(true), { isRead: true, attempt: 1, options }).retry, true);
    assert.equal(decideRetry(networkError(true), { isRead: false, attempt: 1, options }).retry, false);
    assert.equal(decideRetry(networkError(false), { isRead: false, attempt: 1, options }).retry, true);
  });

  test('timeouts: reads retry, writes do not (the service may have done it)', () => {
    const timeout = { kind: 'error' as const, error: new TimeoutError('x', 'applyRun', 10) };
    assert.equal(decideRetry(timeout, { isRead: true, attempt: 1, options }).retry, true);
    assert.equal(decideRetry(timeout, { isRead: false, attempt: 1, options }).retry, false);
  });

  test('4xx other than 429 are never retried, and nothing is after maxAttempts', () => {
    for (const status of [400, 401, 404, 409, 415, 422]) {
      assert.equal(decideRetry(response(status), { isRead: true, attempt: 1, options }).retry, false, String(status));
    }
    assert.equal(decideRetry(response(503), { isRead: true, attempt: options.maxAttempts, options }).retry, false);
  });
});

describe('retries against a server', () => {
  let server: TestServer;
  /** Statuses to answer in order; then 200/201 with a run. */
  let script: Array<number | 'reset'> = [];
  let rateHeaders: Record<string, string> = {};

  before(async () => {
    server = await startTestServer((request, res) => {
      const step = script.shift();
      if (step === 'reset') {
        res.socket?.destroy();
        return;
      }
      if (step !== undefined) return sendJson(res, step, { errors: [{ status: String(step), title: 'scripted' }] }, rateHeaders);
      sendJson(res, request.method === 'POST' ? 201 : 200, { data: runResource('run-1') });
    });
  });
  after(() => server.close());

  function fresh(requestScript: Array<number | 'reset'>, headers: Record<string, string> = {}) {
    script = requestScript;
    rateHeaders = headers;
    server.requests.length = 0;
    return testClient(server.url);
  }

  test('a GET answered 503, 502 then 200 succeeds after two backoffs', async () => {
    const { client, clock } = fresh([503, 502]);
    const { run } = await client.runs.get('run-1');
    assert.equal(run.id, 'run-1');
    assert.equal(server.requests.length, 3);
    assert.deepEqual(clock.sleeps, [250, 500]);
    await client.close();
  });

  test('a GET still failing after maxAttempts gives the last ServiceError', async () => {
    const { client } = fresh([500, 500, 500, 500, 500]);
    const error = await client.runs.get('run-1').catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 500);
    assert.equal(server.requests.length, 4);
    await client.close();
  });

  test('a POST answered 500 is NOT sent again', async () => {
    const { client } = fresh([500]);
    const error = await client.runs.create({ workspaceId: 'ws-1' }).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 1);
    await client.close();
  });

  test('a POST whose connection is reset after sending is NOT sent again (it may have been processed)', async () => {
    const { client } = fresh(['reset']);
    const error = await client.runs.apply('run-1').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.requestMayHaveBeenSent, true);
    assert.equal(server.requests.length, 1);
    await client.close();
  });

  test('a GET whose connection is reset is retried', async () => {
    const { client } = fresh(['reset']);
    const { run } = await client.runs.get('run-1');
    assert.equal(run.id, 'run-1');
    assert.equal(server.requests.length, 2);
    await client.close();
  });

  test('a POST answered 429 waits X-RateLimit-Reset and is sent again once (the 429 proves it was not processed)', async () => {
    const { client, clock } = fresh([429], { 'x-ratelimit-reset': '0.75', 'x-ratelimit-remaining': '0' });
    const run = await client.runs.create({ workspaceId: 'ws-1' });
    assert.equal(run.id, 'run-1');
    assert.equal(server.requests.length, 2);
    assert.ok(clock.sleeps.includes(750), `sleeps: ${clock.sleeps.join(', ')}`);
    await client.close();
  });

  test('still 429 after every attempt → RateLimitedError', async () => {
    const { client } = fresh([429, 429, 429, 429], { 'retry-after': '2' });
    const error = await client.runs.get('run-1').catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.attempts, 4);
    assert.equal(error.retryAfterMs, 2000);
    assert.match(error.message, /rate limiting .* Try again in 2 s/);
    await client.close();
  });

  test('a write to a port where nothing listens is retried (never sent), then reported as a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client, clock } = testClient(`http://127.0.0.1:${port}`);
    const error = await client.runs.create({ workspaceId: 'ws-1' }).catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(clock.sleeps.length, 3);
    await client.close();
  });
});
