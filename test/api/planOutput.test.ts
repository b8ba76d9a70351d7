// The plan JSON client against a scripted service and a storage host on ANOTHER origin: 204 means "not finished",
// the 307 is followed without the token off the service's origin, 403/404 fall back to json-output-redacted, a
// malformed body is a MalformedResponseError (never a crash), and a finished plan is read once.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MalformedResponseError, ServiceClient } from '../../server/src/api';

interface Seen {
  path: string;
  authorization?: string;
}

async function listen(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const plan = { format_version: '1.2', resource_changes: [{ address: 'a.b', change: { actions: ['create'], before: null, after: { x: 1 } } }] };

describe('plan JSON output', () => {
  const seen: Seen[] = [];
  let service: Awaited<ReturnType<typeof listen>>;
  let storage: Awaited<ReturnType<typeof listen>>;
  before(async () => {
    storage = await listen((request, response) => {
      seen.push({ path: `storage${request.url}`, ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
      response.writeHead(200, { 'content-type': 'application/json' }).end(request.url === '/blob/bad' ? '{"resource_changes": [{"address": 5}]}' : JSON.stringify(plan));
    });
    service = await listen((request, response) => {
      seen.push({ path: request.url ?? '', ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
      const url = request.url ?? '';
      if (url === '/api/v2/plans/plan-running/json-output') return void response.writeHead(204).end();
      if (url === '/api/v2/plans/plan-done/json-output') return void response.writeHead(307, { location: `${storage.url}/blob/done` }).end();
      if (url === '/api/v2/plans/plan-bad/json-output') return void response.writeHead(307, { location: `${storage.url}/blob/bad` }).end();
      if (url === '/api/v2/plans/plan-redacted/json-output') return void response.writeHead(403, { 'content-type': 'application/vnd.api+json' }).end('{"errors":[{"status":"403","title":"forbidden"}]}');
      if (url === '/api/v2/plans/plan-redacted/json-output-redacted') return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(plan));
      response.writeHead(404).end();
    });
  });
  after(async () => {
    await service.close();
    await storage.close();
  });
  const client = () => new ServiceClient({ address: service.url, token: 'the-token', retry: { maxAttempts: 1 } });

  test('204 is "pending", and is asked again next time', async () => {
    const api = client();
    assert.deepEqual(await api.planOutput.getPlanJson('plan-running'), { status: 'pending' });
    await api.planOutput.getPlanJson('plan-running');
    assert.equal(seen.filter((s) => s.path.endsWith('plan-running/json-output')).length, 2);
    await api.close();
  });

  test('the redirect is followed to the other origin without the token; a finished plan is cached', async () => {
    const api = client();
    const result = await api.planOutput.getPlanJson('plan-done');
    assert.equal(result.status, 'finished');
    assert.equal(result.plan?.resource_changes?.[0]?.address, 'a.b');
    await api.planOutput.getPlanJson('plan-done');
    const hops = seen.filter((s) => s.path.includes('done'));
    assert.deepEqual(hops, [{ path: '/api/v2/plans/plan-done/json-output', authorization: 'Bearer the-token' }, { path: 'storage/blob/done' }]);
    await api.close();
  });

  test('403 on json-output falls back to json-output-redacted', async () => {
    const api = client();
    const result = await api.planOutput.getPlanJson('plan-redacted');
    assert.equal(result.redacted, true);
    assert.equal(result.plan?.resource_changes?.length, 1);
    await api.close();
  });

  test('a malformed plan is a MalformedResponseError that says what is wrong', async () => {
    const api = client();
    await assert.rejects(api.planOutput.getPlanJson('plan-bad'), (error: unknown) => error instanceof MalformedResponseError && /resource_changes\.0/.test(error.message));
    await api.close();
  });
});
