// The transport's headers and token discipline: the bearer token goes only to the service origin, every request
// carries the JSON:API media type and the User-Agent, writes always carry Content-Type, connections are reused.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultUserAgent } from '../../server/src/api/client';
import { runResource, sendJson, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';
import { testClient, testToken } from './support/clientFactory';

describe('HTTP transport', () => {
  let service: TestServer;
  let storage: TestServer;

  before(async () => {
    // A second origin standing in for blob storage (pre-signed upload and log URLs) and for a foreign redirect target.
    storage = await startTestServer((request, response) => {
      if (request.url.startsWith('/log')) {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end('\x02Terraform v1.9.0\nPlan: 1 to add\n\x03');
        return;
      }
      if (request.url.startsWith('/upload')) {
        response.writeHead(200);
        response.end();
        return;
      }
      sendJson(response, 200, { data: runResource('run-redirected') });
    });
    service = await startTestServer((request, response) => {
      if (request.url.startsWith('/api/v2/runs/run-elsewhere')) {
        response.writeHead(307, { location: `${storage.url}/api/v2/runs/run-redirected` });
        response.end();
        return;
      }
      if (request.url.startsWith('/api/v2/runs/run-moved')) {
        response.writeHead(302, { location: '/api/v2/runs/run-here' });
        response.end();
        return;
      }
      if (request.method === 'POST') {
        response.writeHead(202);
        response.end();
        return;
      }
      const runId = /^\/(?:tfe\/)?api\/v2\/runs\/([^/?]+)/.exec(request.url)?.[1];
      if (runId) return sendJson(response, 200, { data: runResource(decodeURIComponent(runId)) });
      sendJson(response, 200, { data: [], meta: { pagination: { 'current-page': 1, 'next-page': null, 'total-pages': 1 } } });
    });
  });

  after(async () => {
    await service.close();
    await storage.close();
  });

  test('a read carries the bearer token, Accept: application/vnd.api+json and the User-Agent', async () => {
    const { client } = testClient(service.url);
    await client.runs.get('run-1');
    const request = service.requests.at(-1)!;
    assert.equal(request.headers['authorization'], `Bearer ${testToken}`);
    assert.equal(request.headers['accept'], 'application/vnd.api+json');
    assert.equal(request.headers['user-agent'], defaultUserAgent);
    assert.match(defaultUserAgent, /^hcp-terraform-runs\/\S+$/);
    assert.equal(request.headers['content-type'], undefined);
    await client.close();
  });

  test('a write without a body still sends Content-Type: application/vnd.api+json (the service answers 415 otherwise)', async () => {
    const { client } = testClient(service.url);
    await client.runs.forceExecute('run-2');
    const request = service.requests.at(-1)!;
    assert.equal(request.method, 'POST');
    assert.equal(request.url, '/api/v2/runs/run-2/actions/force-execute');
    assert.equal(request.headers['content-type'], 'application/vnd.api+json');
    assert.equal(request.body, '');
    await client.close();
  });

  test('an action with a comment sends it as {"comment": ...}', async () => {
    const { client } = testClient(service.url);
    await client.runs.discard('run-3', { comment: 'superseded' });
    assert.deepEqual(JSON.parse(service.requests.at(-1)!.body), { comment: 'superseded' });
    await client.close();
  });

  test('a redirect to another origin is followed WITHOUT the token', async () => {
    const { client } = testClient(service.url);
    const before = storage.requests.length;
    const { run } = await client.runs.get('run-elsewhere');
    assert.equal(run.id, 'run-redirected');
    const hop = storage.requests[before]!;
    assert.equal(hop.headers['authorization'], undefined);
    await client.close();
  });

  test('a redirect within the service origin keeps the token', async () => {
    const { client } = testClient(service.url);
    const { run } = await client.runs.get('run-moved');
    assert.equal(run.id, 'run-here');
    assert.equal(service.requests.at(-1)!.url, '/api/v2/runs/run-here');
    assert.equal(service.requests.at(-1)!.headers['authorization'], `Bearer ${testToken}`);
    await client.close();
  });

  test('a log-read-url is fetched without the token, with offset, and its STX/ETX framing removed', async () => {
    const { client } = testClient(service.url);
    const chunk = await client.phases.readLog(`${storage.url}/log/secret-signature`, { offset: 0, limit: 4096 });
    assert.equal(chunk.text, 'Terraform v1.9.0\nPlan: 1 to add\n');
    assert.equal(chunk.complete, true);
    const request = storage.requests.at(-1)!;
    assert.equal(request.headers['authorization'], undefined);
    assert.match(request.url, /^\/log\/secret-signature\?offset=0&limit=4096$/);
    await client.close();
  });

  test('a log-read-url on the service origin itself is still fetched without the token (it is pre-signed)', async () => {
    const { client } = testClient(storage.url);
    await client.phases.readLog(`${storage.url}/log/abc`);
    assert.equal(storage.requests.at(-1)!.headers['authorization'], undefined);
    await client.close();
  });

  test('an upload PUTs the archive as application/octet-stream without the token', async () => {
    const { client } = testClient(service.url);
    const archive = new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3]);
    await client.configurationVersions.upload(`${storage.url}/upload/cv-1-signature`, archive);
    const request = storage.requests.at(-1)!;
    assert.equal(request.method, 'PUT');
    assert.equal(request.headers['content-type'], 'application/octet-stream');
    assert.equal(request.headers['authorization'], undefined);
    assert.deepEqual([...request.raw], [...archive]);
    await client.close();
  });

  test('bracketed query names are percent-encoded and lists joined with commas', async () => {
    const { client } = testClient(service.url);
    service.requests.length = 0;
    await client.runs.get('run-4', { include: ['plan', 'configuration_version.ingress_attributes'] }).catch(() => undefined);
    await client.variables.list({ organization: 'acme', workspace: 'web app' }).catch(() => undefined);
    assert.equal(service.requests[0]!.url, '/api/v2/runs/run-4?include=plan%2Cconfiguration_version.ingress_attributes');
    assert.equal(
      service.requests[1]!.url,
      '/api/v2/vars?filter%5Borganization%5D%5Bname%5D=acme&filter%5Bworkspace%5D%5Bname%5D=web%20app&page%5Bnumber%5D=1',
    );
    await client.close();
  });

  test('path segments are encoded, so an id cannot change the path', async () => {
    const { client } = testClient(service.url);
    await client.runs.get('../workspaces/ws-1');
    assert.equal(service.requests.at(-1)!.url, '/api/v2/runs/..%2Fworkspaces%2Fws-1');
    await client.close();
  });

  test('keep-alive: ten sequential requests reuse at most two connections', async () => {
    const { client } = testClient(service.url);
    const connectionsBefore = service.connections();
    for (let i = 0; i < 10; i++) await client.runs.get(`run-k${i}`);
    // undici may open a second socket while the first is finishing its response; never one per request.
    assert.ok(service.connections() - connectionsBefore <= 2, `${service.connections() - connectionsBefore} connections`);
    await client.close();
  });

  test('a path prefix in the address is kept before /api/v2', async () => {
    const { client } = testClient(`${service.url}/tfe/`);
    await client.runs.get('run-5').catch(() => undefined);
    assert.equal(service.requests.at(-1)!.url, '/tfe/api/v2/runs/run-5');
    await client.close();
  });

  test('an address that already ends in /api/v2 does not get it twice', async () => {
    const { client } = testClient(`${service.url}/api/v2/`);
    await client.runs.get('run-7');
    assert.equal(service.requests.at(-1)!.url, '/api/v2/runs/run-7');
    await client.close();
  });

  test('bad addresses and empty tokens are refused with a message saying what to enter', () => {
    assert.throws(() => testClient('app.terraform.io'), /enter a URL such as https:\/\/app\.terraform\.io/);
    assert.throws(() => testClient('ftp://example.com'), /must start with https:\/\//);
    assert.throws(() => testClient(service.url, { token: '  ' }), /API token is required/);
  });

  test('onExchange records method, path and status, never the token or a pre-signed path', async () => {
    const records: string[] = [];
    const { client } = testClient(service.url, { onExchange: (record) => records.push(JSON.stringify(record)) });
    await client.runs.get('run-6');
    await client.phases.readLog(`${storage.url}/log/very-secret-signature`);
    assert.match(records[0]!, /"method":"GET","target":"\/api\/v2\/runs\/run-6","durationMs":\d+,"status":200/);
    assert.ok(!records.join('\n').includes(testToken));
    assert.ok(!records.join('\n').includes('very-secret-signature'));
    await client.close();
  });
});
