import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, beforeEach, describe, test } from 'node:test';
import { FaultInjector } from '../../emulator/src/http/faults';
import { startCore, workspaceId, type CoreHarness } from './core-harness';

/** A raw request, so a reset or a short body shows up as the error it is instead of being retried. */
function rawGet(url: string, token: string): Promise<{ status: number; body: string; complete: boolean }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Authorization: `Bearer ${token}`, Connection: 'close' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, complete: res.complete }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body, complete: false }));
      res.on('aborted', () => resolve({ status: res.statusCode ?? 0, body, complete: false }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('FaultInjector', () => {
  test('matches method and exact path or RegExp, and is used up after `times`', () => {
    const faults = new FaultInjector();
    faults.inject({ path: '/api/v2/vars', method: 'post', kind: 'status', status: 503, times: 2 });
    faults.inject({ path: /\/actions\/apply$/, kind: 'reset' });
    assert.equal(faults.take('GET', '/api/v2/vars'), undefined, 'method must match');
    assert.equal(faults.take('POST', '/api/v2/vars')?.status, 503);
    assert.equal(faults.take('POST', '/api/v2/vars')?.status, 503);
    assert.equal(faults.take('POST', '/api/v2/vars'), undefined, 'used up');
    assert.equal(faults.take('POST', '/api/v2/runs/run-1/actions/apply')?.kind, 'reset');
    assert.equal(faults.take('POST', '/api/v2/runs/run-1/actions/apply'), undefined);
  });

  test('Infinity keeps a fault armed until cleared', () => {
    const faults = new FaultInjector();
    faults.inject({ path: '/x', kind: 'latency', latencyMs: 1, times: Infinity });
    for (let i = 0; i < 50; i++) assert.ok(faults.take('GET', '/x'));
    faults.clear();
    assert.equal(faults.take('GET', '/x'), undefined);
  });

  test('rejects specs it cannot honour, saying what to fix', () => {
    const faults = new FaultInjector();
    assert.throws(() => faults.inject({ path: '/x', kind: 'status' }), /status between 400 and 599/);
    assert.throws(() => faults.inject({ path: '/x', kind: 'latency' }), /latencyMs/);
    assert.throws(() => faults.inject({ path: '/x', kind: 'explode' as never }), /Unknown fault kind/);
    assert.throws(() => faults.inject({ path: '/x', kind: 'reset', times: 0 }), /positive integer/);
    assert.throws(() => faults.inject({ path: '/x', kind: 'html', status: 302 }), /between 400 and 599/);
  });
});

describe('faults over HTTP', () => {
  let h: CoreHarness;
  let demoApp: string;
  const varsOf = async () => (await h.api('GET', '/vars?filter[workspace][name]=demo-app&filter[organization][name]=acme-demo')).body.data.length;
  const newVar = (key: string) => ({
    data: { type: 'vars', attributes: { key, value: 'v', category: 'env' }, relationships: { workspace: { data: { type: 'workspaces', id: demoApp } } } },
  });

  before(async () => {
    h = await startCore();
    demoApp = await workspaceId(h, 'demo-app');
  });
  after(() => h.close());
  beforeEach(async () => {
    h.emulator.control.clearFaults();
    await h.emulator.control.advance(1_000);
  });

  test('status before handling: the error comes back and nothing changed', async () => {
    const before = await varsOf();
    h.emulator.control.injectFault({ method: 'POST', path: '/api/v2/vars', kind: 'status', status: 503 });
    const failed = await h.api('POST', '/vars', { body: newVar('FAULT_BEFORE') });
    assert.equal(failed.status, 503);
    assert.equal(failed.body.errors[0].status, '503');
    assert.equal(await varsOf(), before);
    assert.equal((await h.api('POST', '/vars', { body: newVar('FAULT_BEFORE') })).status, 201, 'only one request was affected');
  });

  test('status after handling: the error comes back but the change was made', async () => {
    const before = await varsOf();
    h.emulator.control.injectFault({ method: 'POST', path: '/api/v2/vars', kind: 'status', status: 502, beforeHandling: false });
    assert.equal((await h.api('POST', '/vars', { body: newVar('FAULT_AFTER') })).status, 502);
    assert.equal(await varsOf(), before + 1);
  });

  test('reset before handling drops the connection and changes nothing', async () => {
    const before = await varsOf();
    h.emulator.control.injectFault({ method: 'POST', path: '/api/v2/vars', kind: 'reset' });
    await assert.rejects(h.api('POST', '/vars', { body: newVar('RESET_BEFORE') }));
    assert.equal(await varsOf(), before);
    const entry = h.emulator.control.requests().find((e) => e.fault === 'reset');
    assert.equal(entry?.status, 0);
  });

  test('reset after handling drops the connection but the change was made', async () => {
    const before = await varsOf();
    h.emulator.control.injectFault({ method: 'POST', path: '/api/v2/vars', kind: 'reset', beforeHandling: false });
    await assert.rejects(h.api('POST', '/vars', { body: newVar('RESET_AFTER') }));
    assert.equal(await varsOf(), before + 1);
  });

  test('truncate announces the full length and cuts the body short', async () => {
    h.emulator.control.injectFault({ path: '/api/v2/account/details', kind: 'truncate' });
    const result = await rawGet(`${h.emulator.url}/api/v2/account/details`, h.emulator.tokens.owner);
    assert.equal(result.status, 200);
    assert.equal(result.complete, false);
    assert.throws(() => JSON.parse(result.body));
  });

  test('malformed sends a complete body that is not valid JSON', async () => {
    h.emulator.control.injectFault({ path: '/api/v2/account/details', kind: 'malformed' });
    const result = await h.api('GET', '/account/details');
    assert.equal(result.status, 200);
    assert.equal(result.body, undefined);
    assert.throws(() => JSON.parse(result.text));
    assert.equal((await h.api('GET', '/account/details')).body.data.type, 'users', 'the next request is fine');
  });

  test('rate-limit answers 429 with the documented body and zero remaining', async () => {
    h.emulator.control.injectFault({ path: /\/account\/details$/, kind: 'rate-limit', times: 2 });
    for (let i = 0; i < 2; i++) {
      const result = await h.api('GET', '/account/details');
      assert.equal(result.status, 429);
      assert.equal(result.headers.get('x-ratelimit-remaining'), '0');
      assert.equal(result.body.errors[0].title, 'Too many requests');
    }
    assert.equal((await h.api('GET', '/account/details')).status, 200);
  });

  test('html answers a proxy error page (text/html, default 502) before handling: nothing changed', async () => {
    const before = await varsOf();
    h.emulator.control.injectFault({ method: 'POST', path: '/api/v2/vars', kind: 'html' });
    const result = await h.api('POST', '/vars', { body: newVar('HTML_BEFORE') });
    assert.equal(result.status, 502);
    assert.match(result.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(result.text, /<title>502 Bad Gateway<\/title>/);
    assert.equal(await varsOf(), before);
    assert.equal(h.emulator.control.requests().at(-2)?.fault, 'html');
  });

  test('html after handling: the page comes back but the change was made', async () => {
    const before = await varsOf();
    h.emulator.control.injectFault({ method: 'POST', path: '/api/v2/vars', kind: 'html', status: 504, beforeHandling: false });
    const result = await h.api('POST', '/vars', { body: newVar('HTML_AFTER') });
    assert.equal(result.status, 504);
    assert.match(result.text, /504 Gateway Time-out/);
    assert.equal(await varsOf(), before + 1);
  });

  test('wrong-shape keeps the status and sends valid JSON that is no API document; the change was made', async () => {
    const before = await varsOf();
    h.emulator.control.injectFault({ method: 'POST', path: '/api/v2/vars', kind: 'wrong-shape' });
    const result = await h.api('POST', '/vars', { body: newVar('WRONG_SHAPE') });
    assert.equal(result.status, 201);
    assert.deepEqual(JSON.parse(result.text), { data: { id: 42, type: null, attributes: 'unexpected' } });
    assert.equal(await varsOf(), before + 1);
    assert.equal((await h.api('GET', '/account/details')).body.data.type, 'users', 'the next request is fine');
  });

  test('latency delays the answer by at least latencyMs and is logged', async () => {
    h.emulator.control.injectFault({ path: '/api/v2/ping', kind: 'latency', latencyMs: 150 });
    const started = performance.now();
    const result = await h.api('GET', '/ping');
    assert.equal(result.status, 204);
    assert.ok(performance.now() - started >= 140, 'the response waited for the injected latency');
    assert.equal(h.emulator.control.requests().at(-1)?.fault, 'latency');
  });

  test('clearFaults disarms everything', async () => {
    h.emulator.control.injectFault({ path: '/api/v2/account/details', kind: 'status', status: 500, times: Infinity });
    assert.equal((await h.api('GET', '/account/details')).status, 500);
    h.emulator.control.clearFaults();
    assert.equal((await h.api('GET', '/account/details')).status, 200);
  });
});
