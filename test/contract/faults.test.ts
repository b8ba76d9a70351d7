// Contract: injected faults. Each gives the right typed error or a successful retry, and the emulator's request
// log proves no write was ever sent twice (except after a 429, which proves the first was not processed).
// Runs are built by the tests on the empty seed (support/scenario.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CancelledError,
  MalformedResponseError,
  NetworkError,
  RateLimitedError,
  ServiceError,
  TimeoutError,
  collectItems,
} from '../../server/src/api/index';
import type { ServiceClient } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';
import { pausedForConfirmation, plannableWorkspace, runUntil } from './support/scenario';

describe('contract: faults', () => {
  const harness = useEmulator({ seed: 'empty' });
  /** Where the fault under test was injected: earlier requests (setting the scene) are not counted. */
  let mark = 0;
  const inject = (fault: Parameters<ReturnType<typeof harness.emulator>['control']['injectFault']>[0]) => {
    mark = harness.requests().length;
    harness.emulator().control.injectFault(fault);
  };
  const logged = (method: string, pathStart: string) =>
    harness
      .requests()
      .slice(mark)
      .filter((entry) => entry.method === method && entry.path.split('?')[0]!.startsWith(pathStart));

  async function pausedRun(client: ServiceClient) {
    return runUntil(harness, client, await plannableWorkspace(client), 'confirmation', pausedForConfirmation);
  }
  const runCount = async (client: ServiceClient, workspace: string) =>
    (await collectItems(client.runs.workspacePages(await workspaceId(client, workspace)))).length;

  test('status 500 twice on a read: retried with backoff, then succeeds', async () => {
    const client = harness.client();
    const run = await pausedRun(client);
    inject({ method: 'GET', path: `/api/v2/runs/${run.id}`, kind: 'status', status: 500, times: 2 });
    const { run: read } = await client.runs.get(run.id);
    assert.equal(read.id, run.id);
    assert.deepEqual(logged('GET', `/api/v2/runs/${run.id}`).map((entry) => entry.status), [500, 500, 200]);
  });

  test('status 503 on create run (before handling): a ServiceError, sent once, no run created', async () => {
    const client = harness.client();
    const workspace = await plannableWorkspace(client);
    const before = await runCount(client, 'demo-app');
    inject({ method: 'POST', path: '/api/v2/runs', kind: 'status', status: 503 });
    const error = await client.runs.create({ workspaceId: workspace }).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 503);
    assert.equal(logged('POST', '/api/v2/runs').length, 1);
    assert.equal(await runCount(client, 'demo-app'), before);
  });

  test('status 500 after the apply was handled: a ServiceError, sent once, and the apply did happen', async () => {
    const client = harness.client();
    const run = await pausedRun(client);
    inject({ path: /\/actions\/apply$/, kind: 'status', status: 500, beforeHandling: false });
    const error = await client.runs.apply(run.id).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(logged('POST', `/api/v2/runs/${run.id}/actions/apply`).length, 1);
    assert.notEqual((await client.runs.get(run.id)).run.attributes.status, run.attributes.status);
  });

  test('connection reset before handling a create: a NetworkError, sent once, no run created', async () => {
    const client = harness.client();
    const workspace = await plannableWorkspace(client);
    const before = await runCount(client, 'demo-app');
    inject({ method: 'POST', path: '/api/v2/runs', kind: 'reset' });
    const error = await client.runs.create({ workspaceId: workspace }).catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.requestMayHaveBeenSent, true);
    assert.equal(logged('POST', '/api/v2/runs').length, 1);
    assert.equal(await runCount(client, 'demo-app'), before);
  });

  test('connection reset after a discard was handled: a NetworkError, sent once, the run is discarded', async () => {
    const client = harness.client();
    const run = await pausedRun(client);
    inject({ path: /\/actions\/discard$/, kind: 'reset', beforeHandling: false });
    const error = await client.runs.discard(run.id).catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(logged('POST', `/api/v2/runs/${run.id}/actions/discard`).length, 1);
    assert.equal((await client.runs.get(run.id)).run.attributes.status, 'discarded');
  });

  test('connection reset on a read: retried, then succeeds', async () => {
    const client = harness.client();
    inject({ method: 'GET', path: '/api/v2/account/details', kind: 'reset' });
    assert.equal((await client.account.details()).tokenKind, 'user');
    assert.deepEqual(logged('GET', '/api/v2/account/details').map((entry) => entry.status), [0, 200]);
  });

  test('a truncated body on a read: retried, then succeeds', async () => {
    const client = harness.client();
    inject({ method: 'GET', path: '/api/v2/organizations/acme-demo/subscription', kind: 'truncate' });
    const { featureSet } = await client.organization.getSubscription('acme-demo');
    assert.ok(featureSet);
    assert.equal(logged('GET', '/api/v2/organizations/acme-demo/subscription').length, 2);
  });

  test('a truncated body on token generation: a NetworkError, sent once (the token was replaced: the user must regenerate)', async () => {
    const client = harness.client();
    inject({ method: 'POST', path: '/api/v2/organizations/acme-demo/authentication-token', kind: 'truncate' });
    const error = await client.organization.generateToken('acme-demo').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(logged('POST', '/api/v2/organizations/acme-demo/authentication-token').length, 1);
  });

  test('a malformed body: MalformedResponseError saying the JSON is invalid, not retried', async () => {
    const client = harness.client();
    const demoApp = await workspaceId(client, 'demo-app');
    inject({ method: 'GET', path: `/api/v2/workspaces/${demoApp}`, kind: 'malformed' });
    const error = await client.workspaces.getById(demoApp).catch((e: unknown) => e);
    assert.ok(error instanceof MalformedResponseError);
    assert.match(error.problem, /not valid JSON/);
    assert.equal(logged('GET', `/api/v2/workspaces/${demoApp}`).length, 1);
  });

  test('a 429 on create run: waited out and sent again once — exactly one run is created', async () => {
    const client = harness.client();
    const workspace = await plannableWorkspace(client);
    const before = await runCount(client, 'demo-app');
    inject({ method: 'POST', path: '/api/v2/runs', kind: 'rate-limit' });
    const run = await client.runs.create({ workspaceId: workspace, message: 'after 429' });
    assert.equal(run.attributes.message, 'after 429');
    assert.deepEqual(logged('POST', '/api/v2/runs').map((entry) => entry.status), [429, 201]);
    assert.equal(await runCount(client, 'demo-app'), before + 1);
  });

  test('429 on every attempt: RateLimitedError after the allowed attempts', async () => {
    const client = harness.client();
    inject({ method: 'GET', path: '/api/v2/ping', kind: 'rate-limit', times: Infinity });
    const error = await client.account.ping().catch((e: unknown) => e);
    assert.ok(error instanceof RateLimitedError);
    assert.equal(error.attempts, 4);
    assert.equal(logged('GET', '/api/v2/ping').length, 4);
    harness.emulator().control.clearFaults();
  });

  test('latency beyond the timeout: TimeoutError (not retried when retries are off)', async () => {
    const client = harness.client('owner', { retry: { maxAttempts: 1 } });
    inject({ method: 'GET', path: '/api/v2/ping', kind: 'latency', latencyMs: 400 });
    const error = await client.account.ping({ timeoutMs: 100 }).catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError);
    assert.equal(error.timeoutMs, 100);
  });

  test('latency beyond the timeout on a read: the retry succeeds', async () => {
    const client = harness.client();
    inject({ method: 'GET', path: '/api/v2/ping', kind: 'latency', latencyMs: 400 });
    const ping = await client.account.ping({ timeoutMs: 150 });
    assert.equal(ping.appName, 'HCP Terraform');
  });

  test('cancelling a request to a slow server: CancelledError', async () => {
    const client = harness.client();
    inject({ method: 'GET', path: '/api/v2/ping', kind: 'latency', latencyMs: 400 });
    const controller = new AbortController();
    const pending = client.account.ping({ signal: controller.signal });
    controller.abort();
    await assert.rejects(pending, CancelledError);
  });
});
