// Error mapping: every failure becomes a typed error with a user-ready message that names the operation,
// says what the status means for it (spec §7), and never contains the token.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  CancelledError,
  MalformedResponseError,
  NetworkError,
  ServiceError,
  TimeoutError,
} from '../../server/src/api/errors';
import { meaningOf, specErrorRows } from '../../server/src/api/operations';
import { sendJson, startTestServer } from './support/testServer';
import type { TestServer } from './support/testServer';
import { testClient, testToken } from './support/clientFactory';

/** The test server answers whatever the test put here for the next request. */
let next: (response: http.ServerResponse) => void = (response) => sendJson(response, 200, {});

describe('error mapping', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer((_request, response) => next(response));
  });
  after(() => server.close());

  async function failure(action: (client: ReturnType<typeof testClient>['client']) => Promise<unknown>): Promise<unknown> {
    const { client } = testClient(server.url, { retry: { maxAttempts: 1 } });
    try {
      await action(client);
    } catch (error) {
      return error;
    } finally {
      await client.close();
    }
    assert.fail('expected the call to fail');
  }

  test('apply 409 → ServiceError whose meaning is the spec row "not paused for confirmation"', async () => {
    next = (response) => sendJson(response, 409, { errors: [{ status: '409', title: 'transition not allowed' }] });
    const error = await failure((client) => client.runs.apply('run-1'));
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 409);
    assert.equal(error.title, 'transition not allowed');
    assert.equal(error.operation, 'applyRun');
    assert.equal(error.meaning, 'the run is not paused for confirmation');
    assert.equal(error.message, 'Could not apply the run: the run is not paused for confirmation (409 transition not allowed).');
  });

  test('force-execute 403 has its own meaning (not the generic "forbidden")', async () => {
    next = (response) => sendJson(response, 403, { errors: [{ status: '403', title: 'forbidden' }] });
    const error = await failure((client) => client.runs.forceExecute('run-1'));
    assert.ok(error instanceof ServiceError);
    assert.match(error.meaning, /not pending, its workspace is not locked/);
  });

  test('422 keeps title, detail and source pointer', async () => {
    next = (response) =>
      sendJson(response, 422, {
        errors: [{ status: '422', title: 'invalid attribute', detail: 'Is-destroy and refresh-only are mutually exclusive', source: { pointer: '/data/attributes/is-destroy' } }],
      });
    const error = await failure((client) => client.runs.create({ workspaceId: 'ws-1', isDestroy: true, refreshOnly: true }));
    assert.ok(error instanceof ServiceError);
    assert.equal(error.detail, 'Is-destroy and refresh-only are mutually exclusive');
    assert.equal(error.errors[0]!.pointer, '/data/attributes/is-destroy');
    assert.match(error.message, /malformed .*\(422 invalid attribute: Is-destroy and refresh-only are mutually exclusive\)/);
  });

  test('401 tells the user to sign in again', async () => {
    next = (response) => sendJson(response, 401, { errors: [{ status: '401', title: 'unauthorized' }] });
    const error = await failure((client) => client.account.details());
    assert.ok(error instanceof ServiceError);
    assert.match(error.message, /sign in again/);
  });

  test('an error body of plain strings, or no JSON at all, still gives a ServiceError with the status', async () => {
    next = (response) => sendJson(response, 404, { errors: ['Workspace not found'] });
    const strings = await failure((client) => client.workspaces.getById('ws-x'));
    assert.ok(strings instanceof ServiceError);
    assert.equal(strings.title, 'Workspace not found');

    next = (response) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    };
    const html = await failure((client) => client.runs.cancel('run-1'));
    assert.ok(html instanceof ServiceError);
    assert.equal(html.status, 502);
    assert.equal(html.title, 'bad gateway');
  });

  test('a token echoed back by the server in an error is redacted from the message and the fields', async () => {
    next = (response) =>
      sendJson(response, 422, { errors: [{ status: '422', title: 'invalid', detail: `token ${testToken} is malformed` }] });
    const error = await failure((client) => client.runs.get('run-1'));
    assert.ok(error instanceof ServiceError);
    assert.ok(!error.message.includes(testToken));
    assert.ok(!String(error.detail).includes(testToken));
    assert.match(error.message, /token \[redacted\] is malformed/);
  });

  test('a sensitive value echoed in a variable error is redacted', async () => {
    next = (response) => sendJson(response, 422, { errors: [{ status: '422', title: 'invalid', detail: 'value "hunter2-prod" is not HCL' }] });
    const error = await failure((client) =>
      client.variables.create({ workspaceId: 'ws-1', key: 'db', value: 'hunter2-prod', category: 'engine', sensitive: true }),
    );
    assert.ok(error instanceof ServiceError);
    assert.ok(!error.message.includes('hunter2-prod'));
  });

  test('a refused run never repeats a run variable value in its error', async () => {
    next = (response) => sendJson(response, 422, { errors: [{ status: '422', title: 'invalid', detail: 'variable db_password = "hunter2-prod" is not allowed' }] });
    const error = await failure((client) =>
      client.runs.create({ workspaceId: 'ws-1', variables: [{ key: 'db_password', value: '"hunter2-prod"' }] }),
    );
    assert.ok(error instanceof ServiceError);
    assert.ok(!error.message.includes('hunter2-prod'), 'the error repeats the value');
    assert.ok(!(error.detail ?? '').includes('hunter2-prod'), 'the detail repeats the value');
  });

  test('invalid JSON in a success response → MalformedResponseError saying so', async () => {
    next = (response) => {
      response.writeHead(200, { 'content-type': 'application/vnd.api+json' });
      response.end('{"data": {"id": "run-1", ');
    };
    const error = await failure((client) => client.runs.get('run-1'));
    assert.ok(error instanceof MalformedResponseError);
    assert.match(error.problem, /not valid JSON/);
    assert.match(error.message, /^Could not read the run: the service sent an unexpected response/);
  });

  test('invalid JSON is reported without quoting the body, which may hold a secret', async () => {
    next = (response) => {
      response.writeHead(201, { 'content-type': 'application/vnd.api+json' });
      response.end('tokn-S3CRET-abcdef.atlasv1.zzz');
    };
    const error = await failure((client) => client.organization.generateToken('acme'));
    assert.ok(error instanceof MalformedResponseError);
    assert.match(error.problem, /not valid JSON/);
    for (const text of [error.message, error.problem]) assert.ok(!text.includes('S3CR'), 'the error quotes the body');
  });

  test('a document missing a required member → MalformedResponseError naming the path', async () => {
    next = (response) => sendJson(response, 200, { data: { id: 'run-1', type: 'runs', attributes: { status: 42 } } });
    const error = await failure((client) => client.runs.get('run-1'));
    assert.ok(error instanceof MalformedResponseError);
    assert.match(error.problem, /^data\.attributes\.status: .*expected string/);
  });

  test('an empty body where a document is expected → MalformedResponseError', async () => {
    next = (response) => {
      response.writeHead(200);
      response.end();
    };
    const error = await failure((client) => client.runs.get('run-1'));
    assert.ok(error instanceof MalformedResponseError);
    assert.match(error.problem, /empty body/);
  });

  test('a response larger than maxResponseBytes → MalformedResponseError, and it is not fetched again', async () => {
    next = (response) => sendJson(response, 200, { data: { id: 'run-1', type: 'runs', attributes: { status: 'x', message: 'y'.repeat(5000) } } });
    const { client } = testClient(server.url, { maxResponseBytes: 1024 });
    const before = server.requests.length;
    const error = await client.runs.get('run-big').catch((e: unknown) => e);
    await client.close();
    assert.ok(error instanceof MalformedResponseError);
    assert.match(error.problem, /larger than 1024 bytes/);
    assert.equal(server.requests.length - before, 1);
  });

  test('no answer within the timeout → TimeoutError', async () => {
    next = () => undefined; // never answers
    const error = await failure((client) => client.runs.get('run-slow', { timeoutMs: 50 }));
    assert.ok(error instanceof TimeoutError);
    assert.equal(error.timeoutMs, 50);
    assert.match(error.message, /did not answer within 50 ms/);
  });

  test('an aborted signal → CancelledError, distinct from a timeout', async () => {
    next = () => undefined;
    const controller = new AbortController();
    const pending = failure((client) => client.runs.get('run-abort', { signal: controller.signal }));
    // Abort once the request has reached the server (waiting on the event, not a timer).
    for (let turn = 0; turn < 10_000 && !server.requests.some((request) => request.url.includes('run-abort')); turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    controller.abort();
    const error = await pending;
    assert.ok(error instanceof CancelledError);
  });

  test('a refused connection → NetworkError that proves the request was never sent, without the token in the message', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client } = testClient(`http://127.0.0.1:${port}`, { retry: { maxAttempts: 1 } });
    const error = await client.runs.get('run-1').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.code, 'ECONNREFUSED');
    assert.equal(error.requestMayHaveBeenSent, false);
    assert.match(error.message, /connection was refused/);
    assert.ok(!error.message.includes(testToken));
    await client.close();
  });

  test('every row of the spec\'s section 7 has a meaning specific to its operation', () => {
    const rows = specErrorRows();
    assert.equal(rows.length, 14);
    for (const row of rows) {
      assert.equal(meaningOf(row.operation, row.status), row.meaning);
      assert.notEqual(row.meaning, meaningOf(undefined, row.status), `${row.operation} ${row.status} is generic`);
    }
  });
});
