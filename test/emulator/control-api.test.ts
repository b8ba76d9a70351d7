import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { faultFromJson } from '../../emulator/src/http/controlApi';
import { RequestLog } from '../../emulator/src/http/requestLog';
import { isLoopback } from '../../emulator/src/http/server';
import { startEmulator, validateOptions } from '../../emulator/src/index';
import { startCore, type CoreHarness } from './core-harness';

describe('control API over HTTP (/_emulator)', () => {
  let h: CoreHarness;
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`${h.emulator.url}/_emulator/${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  before(async () => {
    h = await startCore();
  });
  after(() => h.close());

  test('clock: read it, advance it, and reject a bad amount', async () => {
    const start = (await (await control('GET', 'clock')).json()) as { now: string; mode: string };
    assert.equal(start.mode, 'manual');
    const advanced = await control('POST', 'clock/advance', { ms: 90_000 });
    assert.equal(advanced.status, 200);
    const { now } = (await advanced.json()) as { now: string };
    assert.equal(Date.parse(now) - Date.parse(start.now), 90_000);
    assert.equal(h.emulator.control.now().toISOString(), now);
    const bad = await control('POST', 'clock/advance', { ms: -5 });
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { error: string }).error, /milliseconds from 0/);
    const huge = await control('POST', 'clock/advance', { ms: 1e15 });
    assert.equal(huge.status, 400, 'an advance that would replay timers for minutes is refused');
    assert.equal(h.emulator.control.now().toISOString(), now, 'the refused advance did not move the clock');
  });

  test('a web page cannot drive it: a non-loopback Host (DNS rebinding) or a cross-site Origin is 403', async () => {
    const { request } = await import('node:http');
    const port = Number(new URL(h.emulator.url).port);
    const ask = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/_emulator/clock', headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    assert.equal(await ask({ Host: `attacker.example:${port}` }), 403);
    assert.equal(await ask({ Host: `127.0.0.1:${port}`, Origin: 'https://attacker.example' }), 403);
    assert.equal(await ask({ Host: `127.0.0.1:${port}`, Origin: 'null' }), 403);
    assert.equal(await ask({ Host: `localhost:${port}`, 'Sec-Fetch-Site': 'cross-site' }), 403);
    assert.equal(await ask({ Host: `localhost:${port}`, Origin: `http://localhost:${port}` }), 200);
    assert.equal(await ask({ Host: `127.0.0.1:${port}` }), 200, 'tools (curl, tests) send no Origin');
  });

  test('the request log names blob URLs without their secrets', () => {
    const log = new RequestLog();
    log.record({ time: 't', method: 'PUT', path: '/_archivist/v1/object/s3cr3tUpl0ad?x=1', status: 200 });
    log.record({ time: 't', method: 'GET', path: '/_archivist/v1/plan-json/An0therSecret', status: 200 });
    log.record({ time: 't', method: 'GET', path: '/api/v2/runs/run-1', status: 200 });
    assert.deepEqual(log.all().map((e) => e.path), ['/_archivist/v1/object/<secret>?x=1', '/_archivist/v1/plan-json/<secret>', '/api/v2/runs/run-1']);
  });

  test('faults: inject with a pathPattern, then delete them all', async () => {
    const injected = await control('POST', 'faults', { pathPattern: '/account/details$', kind: 'status', status: 503, times: null });
    assert.equal(injected.status, 201);
    assert.equal((await h.api('GET', '/account/details')).status, 503);
    assert.equal((await h.api('GET', '/account/details')).status, 503, 'times: null means until cleared');
    assert.equal((await control('DELETE', 'faults')).status, 204);
    assert.equal((await h.api('GET', '/account/details')).status, 200);
    const invalid = await control('POST', 'faults', { kind: 'status', status: 503 });
    assert.equal(invalid.status, 400);
    assert.match(((await invalid.json()) as { error: string }).error, /path/);
  });

  test('requests: every API request with its status and token role, never the token', async () => {
    await h.api('GET', '/organizations/acme-demo/workspaces?page%5Bsize%5D=1', { token: 'reader' });
    await h.api('GET', '/account/details', { token: null });
    const entries = (await (await control('GET', 'requests')).json()) as Array<Record<string, unknown>>;
    const list = entries.find((e) => e.path === '/api/v2/organizations/acme-demo/workspaces?page%5Bsize%5D=1');
    assert.deepEqual({ ...list, time: undefined }, { time: undefined, method: 'GET', path: '/api/v2/organizations/acme-demo/workspaces?page%5Bsize%5D=1', status: 200, tokenRole: 'reader' });
    const anonymous = entries.filter((e) => e.path === '/api/v2/account/details' && e.status === 401);
    assert.ok(anonymous.length >= 1);
    assert.equal('tokenRole' in anonymous[0], false);
    const serialized = JSON.stringify(entries);
    for (const token of Object.values(h.emulator.tokens)) assert.equal(serialized.includes(token), false);
    assert.equal(entries.some((e) => String(e.path).startsWith('/_emulator')), false, 'control calls are not API requests');
  });

  test('notifications and reset: a created change request is recorded, reset forgets it', async () => {
    await h.emulator.control.advance(1_000);
    const demoApp = (await h.api('GET', '/organizations/acme-demo/workspaces/demo-app')).body.data.id;
    const createdCr = await h.api('POST', '/organizations/acme-demo/explorer/bulk-actions', {
      body: { data: { action_type: 'change_request', action_inputs: { subject: 'S', message: 'M' }, target_ids: [demoApp] } },
    });
    assert.equal(createdCr.status, 201);
    const notifications = (await (await control('GET', 'notifications')).json()) as Array<Record<string, unknown>>;
    assert.equal(notifications.length, 1);
    assert.equal(notifications[0].subject, 'S');
    assert.equal((await control('POST', 'reset')).status, 204);
    assert.deepEqual(await (await control('GET', 'notifications')).json(), []);
    assert.deepEqual(await (await control('GET', 'requests')).json(), []);
    const list = await h.api('GET', '/workspaces/demo-app/change-requests');
    assert.equal(list.body.data.some((c: any) => c.attributes.subject === 'S'), false);
    assert.equal((await h.api('GET', `/workspaces/${demoApp}`)).status, 200, 'seeded ids survive a reset');
  });

  test('an unknown control path is a 404 that points at the README', async () => {
    const result = await control('GET', 'nope');
    assert.equal(result.status, 404);
    assert.match(((await result.json()) as { error: string }).error, /README/);
  });
});

describe('control helpers and options', () => {
  test('only loopback peers may use the control API', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopback(address), true, address);
    for (const address of ['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', undefined]) assert.equal(isLoopback(address), false, String(address));
  });

  test('faultFromJson turns pathPattern into a RegExp and null times into Infinity', () => {
    const fault = faultFromJson({ pathPattern: '^/api/v2/runs/[^/]+$', kind: 'reset', times: null, beforeHandling: false });
    assert.ok(fault.path instanceof RegExp);
    assert.equal((fault.path as RegExp).test('/api/v2/runs/run-1'), true);
    assert.equal(fault.times, Infinity);
    assert.equal(fault.beforeHandling, false);
    assert.throws(() => faultFromJson({ pathPattern: '(', kind: 'reset' }), /not a valid regular expression/);
  });

  test('bad options are rejected with a message naming the option', () => {
    assert.throws(() => validateOptions({ port: 70000 }), /port/);
    assert.throws(() => validateOptions({ seed: 'full' as never }), /seed/);
    assert.throws(() => validateOptions({ speed: 0 }), /speed/);
    assert.throws(() => validateOptions({ edition: 'cloud' as never }), /edition/);
    assert.throws(() => validateOptions({ clock: 'fast' as never }), /clock/);
  });

  test('fixed tokens are used as given; the empty seed keeps them working', async () => {
    const tokens = { owner: 'fixedOwnerTkn1.atlasv1.owner-for-this-test' };
    const emulator = await startEmulator({ seed: 'empty', clock: 'manual', tokens });
    try {
      assert.equal(emulator.tokens.owner, tokens.owner);
      assert.equal(emulator.organization, 'acme-demo');
      const workspaces = await fetch(`${emulator.url}/api/v2/organizations/acme-demo/workspaces`, { headers: { Authorization: `Bearer ${tokens.owner}` } });
      const body = (await workspaces.json()) as { data: Array<{ attributes: { name: string } }> };
      assert.deepEqual(body.data.map((w) => w.attributes.name), ['demo-app']);
      const runs = await fetch(`${emulator.url}/api/v2/organizations/acme-demo/runs`, { headers: { Authorization: `Bearer ${emulator.tokens.member}` } });
      assert.deepEqual(((await runs.json()) as { data: unknown[] }).data, []);
    } finally {
      await emulator.close();
    }
  });
});

describe('RequestLog', () => {
  test('keeps the newest entries once it reaches its capacity, and hands out copies', () => {
    const log = new RequestLog(3);
    for (let i = 1; i <= 5; i++) log.record({ time: `t${i}`, method: 'GET', path: `/p${i}`, status: 200 });
    assert.deepEqual(log.all().map((e) => e.path), ['/p3', '/p4', '/p5']);
    log.all()[0].path = 'changed';
    assert.equal(log.all()[0].path, '/p3');
  });
});
