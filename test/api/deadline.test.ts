// #14 item 9: a call's waits (the client's own rate limiter, 429 backoff, retries) count against one deadline, so
// sustained 429s no longer hold a request for minutes (331 s was seen); and every wait is told to onWait first, so
// the user reads "rate limited, retrying in N s" instead of watching a spinner. Time is virtual.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RateLimitedError } from '../../server/src/api/errors';
import type { RequestWait } from '../../server/src/api/requester';
import { runResource, sendJson, startTestServer, type TestServer } from './support/testServer';
import { testClient } from './support/clientFactory';

describe('request deadline and wait notices', () => {
  let server: TestServer;
  let answer429 = true;
  before(async () => {
    server = await startTestServer((request, response) => {
      if (answer429) return sendJson(response, 429, { errors: [{ status: 429, title: 'Too many requests' }] }, { 'x-ratelimit-reset': '25', 'x-ratelimit-remaining': '0' });
      sendJson(response, 200, { data: [runResource('run-1')], meta: { pagination: { 'current-page': 1, 'total-pages': 1 } } });
    });
  });
  after(() => server.close());

  test('sustained 429s: the waits stop at the deadline, each announced, and the error says when to try again', async () => {
    answer429 = true;
    const waits: RequestWait[] = [];
    const { client, clock } = testClient(server.url, { deadlineMs: 60_000, retry: { maxAttempts: 10 }, onWait: (wait) => waits.push(wait) });
    const started = clock.now();
    const error = await client.runs.listForWorkspace('ws-1').catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitedError, String(error));
    assert.ok(clock.now() - started <= 60_000, `waited ${clock.now() - started} ms, past the 60 s deadline`);
    assert.match(error.message, /Try again in \d+ s/);
    assert.ok(waits.length >= 1 && waits.every((wait) => wait.reason === 'rate-limited' && wait.operation === 'listWorkspaceRuns'));
    assert.equal(waits.reduce((sum, wait) => sum + wait.waitMs, 0), clock.sleeps.reduce((sum, ms) => sum + ms, 0), 'every wait was announced');
    await client.close();
  });

  /** A client with a 60 s deadline whose own limiter allows one run list per `windowMs`, and the waits it announced. */
  const limitedClient = (windowMs: number) => {
    answer429 = false;
    const waits: RequestWait[] = [];
    const made = testClient(server.url, { deadlineMs: 60_000, rateLimits: { runList: { limit: 1, windowMs }, margin: 0 }, onWait: (wait) => waits.push(wait) });
    return { ...made, waits };
  };

  test("the client's own limiter never holds a call past its deadline: it fails at once with when to try again", async () => {
    const { client, clock, waits } = limitedClient(120_000);
    await client.runs.listForWorkspace('ws-1');
    const before = clock.now();
    const error = await client.runs.listForWorkspace('ws-2').catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitedError, String(error));
    assert.equal(clock.now(), before, 'no wait was started that would end after the deadline');
    assert.match(error.message, /holding requests to stay within the service's rate limits\. Try again in 120 s/);
    assert.deepEqual(waits, []);
    await client.close();
  });

  test("a limiter wait within the deadline is announced as the client's own pacing (no 429 came), then the call goes", async () => {
    const { client, clock, waits } = limitedClient(20_000);
    await client.runs.listForWorkspace('ws-1');
    await client.runs.listForWorkspace('ws-2');
    assert.deepEqual(waits, [{ operation: 'listWorkspaceRuns', reason: 'paced', waitMs: 20_000 }]);
    assert.deepEqual(clock.sleeps, [20_000]);
    await client.close();
  });

  test('a retry wait says what the service did: refused connection → unreachable, 502 → server-error with its status', async () => {
    const refused = await startTestServer(() => undefined);
    const address = refused.url;
    await refused.close(); // nothing listens there any more: every connection is refused
    const unreachable: RequestWait[] = [];
    const down = testClient(address, { retry: { maxAttempts: 2 }, onWait: (wait) => unreachable.push(wait) });
    await down.client.runs.listForWorkspace('ws-1').catch(() => undefined);
    assert.deepEqual(unreachable.map((wait) => wait.reason), ['unreachable']);
    await down.client.close();

    const failing = await startTestServer((_request, response) => sendJson(response, 502, { errors: [{ status: 502, title: 'Bad gateway' }] }));
    const erroring: RequestWait[] = [];
    const bad = testClient(failing.url, { retry: { maxAttempts: 2 }, onWait: (wait) => erroring.push(wait) });
    await bad.client.runs.listForWorkspace('ws-1').catch(() => undefined);
    assert.deepEqual(erroring.map(({ reason, status }) => ({ reason, status })), [{ reason: 'server-error', status: 502 }]);
    await bad.client.close();
    await failing.close();
  });
});
