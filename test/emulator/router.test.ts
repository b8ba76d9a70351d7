import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ok } from '../../emulator/src/http/context';
import { Router } from '../../emulator/src/http/router';
import { startCore, type CoreHarness } from './core-harness';

describe('Router', () => {
  const router = new Router();
  router.add('GET', '/api/v2/workspaces/:workspace_name/change-requests', () => ok('by-name'));
  router.add('GET', '/api/v2/workspaces/change-requests/:id', () => ok('show'));
  router.add('GET', '/api/v2/workspaces/:id', () => ok('workspace'));
  router.addPublic('GET', '/api/v2/ping', () => ok('ping'));

  test('the route with more literal segments wins', () => {
    assert.equal(router.match('GET', '/api/v2/workspaces/change-requests/wscr-1')?.route.pattern, '/api/v2/workspaces/change-requests/:id');
    assert.equal(router.match('GET', '/api/v2/workspaces/demo-app/change-requests')?.route.pattern, '/api/v2/workspaces/:workspace_name/change-requests');
  });

  test('parameters are decoded; a malformed escape matches nothing', () => {
    assert.deepEqual(router.match('GET', '/api/v2/workspaces/my%20ws')?.params, { id: 'my ws' });
    assert.equal(router.match('GET', '/api/v2/workspaces/%E0%A4%A'), undefined);
  });

  test('method and segment count must match; public routes are marked', () => {
    assert.equal(router.match('POST', '/api/v2/workspaces/ws-1'), undefined);
    assert.equal(router.match('GET', '/api/v2/workspaces/ws-1/extra/deep'), undefined);
    assert.equal(router.match('GET', '/api/v2/ping')?.route.requiresAuth, false);
    assert.equal(router.match('GET', '/api/v2/workspaces/ws-1')?.route.requiresAuth, true);
  });

  test('registering the same method and pattern twice is a programming error', () => {
    assert.throws(() => router.add('GET', '/api/v2/workspaces/:other', () => ok('x')), /registered twice/);
  });
});

/** One raw HTTP/1.1 exchange, for requests fetch would refuse to send; resolves with the status line. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve(answer.split('\r\n')[0]));
    socket.on('error', reject);
  });
}

describe('pipeline robustness', () => {
  let h: CoreHarness;
  let port: number;
  before(async () => {
    h = await startCore();
    port = Number(new URL(h.emulator.url).port);
  });
  after(() => h.close());

  test('a malformed escape in the path is a 404, not a crash', async () => {
    const result = await h.api('GET', '/workspaces/%E0%A4%A');
    assert.equal(result.status, 404);
    assert.equal(result.body.errors[0].status, '404');
  });

  test('an odd Host header or a doubled slash still gets an answer', async () => {
    assert.equal(await rawExchange(port, 'GET /api/v2/ping HTTP/1.1\r\nHost: not a host\r\nConnection: close\r\n\r\n'), 'HTTP/1.1 204 No Content');
    assert.equal(await rawExchange(port, 'GET //api/v2/ping HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 'HTTP/1.1 204 No Content');
  });

  test('the emulator keeps serving after all of that', async () => {
    assert.equal((await h.api('GET', '/account/details')).status, 200);
  });
});
