// Identical GETs in flight at once share one network request; each caller keeps its own cancellation.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type http from 'node:http';
import { CancelledError } from '../../server/src/api/errors';
import { InFlightRequests } from '../../server/src/api/inflight';
import { runResource, sendJson, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';
import { testClient } from './support/clientFactory';

describe('in-flight sharing', () => {
  let server: TestServer;
  /** Responses held back until the test releases them, so requests are truly concurrent. */
  const held: Array<{ url: string; respond: () => void; response: http.ServerResponse }> = [];
  let arrivals: Array<() => void> = [];

  before(async () => {
    server = await startTestServer((request, response) => {
      const id = /\/runs\/([^/?]+)/.exec(request.url)?.[1] ?? 'none';
      held.push({ url: request.url, response, respond: () => sendJson(response, 200, { data: runResource(id) }) });
      for (const notify of arrivals.splice(0)) notify();
    });
  });
  after(() => server.close());

  /** Resolves once `count` requests have reached the server. */
  function arrived(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => (server.requests.length >= count ? resolve() : arrivals.push(check));
      check();
    });
  }

  function reset() {
    server.requests.length = 0;
    held.length = 0;
  }

  test('two concurrent reads of the same run make one request; both callers get the run', async () => {
    reset();
    const { client } = testClient(server.url);
    const first = client.runs.get('run-1');
    const second = client.runs.get('run-1');
    await arrived(1);
    held[0]!.respond();
    const [a, b] = await Promise.all([first, second]);
    assert.equal(a.run.id, 'run-1');
    assert.equal(b.run.id, 'run-1');
    assert.equal(server.requests.length, 1);
    await client.close();
  });

  test('different URLs are not shared; a later read after completion makes a new request', async () => {
    reset();
    const { client } = testClient(server.url);
    const one = client.runs.get('run-1');
    const two = client.runs.get('run-2');
    await arrived(2);
    for (const h of held) h.respond();
    await Promise.all([one, two]);
    const again = client.runs.get('run-1');
    await arrived(3);
    held[2]!.respond();
    await again;
    assert.equal(server.requests.length, 3);
    await client.close();
  });

  test('writes are never shared', async () => {
    reset();
    const { client } = testClient(server.url);
    const a = client.runs.cancel('run-1');
    const b = client.runs.cancel('run-1');
    await arrived(2);
    for (const h of held) h.respond();
    await Promise.all([a, b]);
    assert.equal(server.requests.length, 2);
    await client.close();
  });

  test('one caller cancelling does not disturb the other', async () => {
    reset();
    const { client } = testClient(server.url);
    const controller = new AbortController();
    const leaving = client.runs.get('run-3', { signal: controller.signal });
    const staying = client.runs.get('run-3');
    await arrived(1);
    controller.abort();
    await assert.rejects(leaving, CancelledError);
    held[0]!.respond();
    assert.equal((await staying).run.id, 'run-3');
    assert.equal(server.requests.length, 1);
    await client.close();
  });

  test('when every caller cancels, the shared request is aborted', async () => {
    const flights = new InFlightRequests<string>();
    let sharedSignal: AbortSignal | undefined;
    const a = new AbortController();
    const b = new AbortController();
    const start = (signal: AbortSignal) => {
      sharedSignal = signal;
      return new Promise<string>(() => undefined);
    };
    const first = flights.run('k', a.signal, start);
    const second = flights.run('k', b.signal, start);
    assert.equal(flights.size, 1);
    a.abort();
    assert.equal(sharedSignal!.aborted, false);
    b.abort();
    await assert.rejects(first, CancelledError);
    await assert.rejects(second, CancelledError);
    assert.equal(sharedSignal!.aborted, true);
    assert.equal(flights.size, 0);
  });

  test('a failure is delivered to every sharing caller', async () => {
    const flights = new InFlightRequests<string>();
    let fail: (error: Error) => void = () => undefined;
    const start = () => new Promise<string>((_resolve, reject) => (fail = reject));
    const first = flights.run('k', undefined, start);
    const second = flights.run('k', undefined, start);
    fail(new Error('boom'));
    await assert.rejects(first, /boom/);
    await assert.rejects(second, /boom/);
    assert.equal(flights.size, 0);
  });
});
