// Contract: the five run actions with every error row of the spec's section 7 (apply 409; discard 409;
// cancel 409/404; force-cancel 409/404; force-execute 403/409/404) and the organization-token 404.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, collectItems, isForceCancelable, meaningOf } from '../../server/src/api/index';
import type { OperationName, Run, ServiceClient } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';

/** Awaits a call that must fail with a ServiceError of `status` whose meaning is the spec's row for `operation`. */
async function expectSpecError(call: Promise<unknown>, operation: OperationName, status: number): Promise<ServiceError> {
  const error = await call.then(
    () => assert.fail(`expected ${operation} to fail with ${status}`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ServiceError, `expected a ServiceError, got ${String(error)}`);
  assert.equal(error.status, status);
  assert.equal(error.operation, operation);
  assert.equal(error.meaning, meaningOf(operation, status));
  return error;
}

async function runsOf(client: ServiceClient, workspace: string): Promise<Run[]> {
  return collectItems(client.runs.workspacePages(await workspaceId(client, workspace)));
}

describe('contract: run actions', () => {
  const harness = useEmulator();
  const status = async (client: ServiceClient, runId: string) => (await client.runs.get(runId)).run.attributes.status;

  /** demo-app's run paused for confirmation, and the run queued behind it. */
  async function demoAppQueue(client: ServiceClient) {
    const runs = await runsOf(client, 'demo-app');
    const paused = runs.find((run) => run.attributes.actions?.['is-confirmable'])!;
    const pending = runs.find((run) => run.attributes.status === 'pending')!;
    assert.ok(paused && pending, 'the demo seed has a paused run and a pending one on demo-app');
    return { paused, pending };
  }

  /** A new run on staging-api (auto-apply) once the seeded one has finished, advanced until `until`. */
  async function stagingRunIn(client: ServiceClient, until: string): Promise<string> {
    const staging = await workspaceId(client, 'staging-api');
    await harness.advanceUntil('the seeded staging run to finish', async () =>
      (await runsOf(client, 'staging-api')).every((run) => ['applied', 'errored', 'canceled', 'discarded'].includes(run.attributes.status)),
    );
    const run = await client.runs.create({ workspaceId: staging, message: `to ${until}` });
    await harness.advanceUntil(`the run to reach ${until}`, async () => (await status(client, run.id)) === until, 250);
    return run.id;
  }

  test('apply: 202 on a run paused for confirmation, and the run goes on to applied', async () => {
    const client = harness.client('owner');
    const { paused } = await demoAppQueue(client);
    await client.runs.apply(paused.id, { comment: 'Ship it' });
    assert.equal(harness.requests().at(-1)!.status, 202);
    await harness.advanceUntil('the apply to finish', async () => (await status(client, paused.id)) === 'applied');
  });

  test('spec §7 apply 409: the run is not paused for confirmation', async () => {
    const client = harness.client('owner');
    const { pending } = await demoAppQueue(client);
    await expectSpecError(client.runs.apply(pending.id), 'applyRun', 409);
  });

  test('discard: 202 on a paused run; the pending run behind it proceeds', async () => {
    const client = harness.client('owner');
    const { paused, pending } = await demoAppQueue(client);
    await client.runs.discard(paused.id, { comment: 'Not today' });
    assert.equal(await status(client, paused.id), 'discarded');
    await harness.advanceUntil('the queued run to start', async () => (await status(client, pending.id)) !== 'pending');
  });

  test('spec §7 discard 409: the run is not paused for confirmation or priority', async () => {
    const client = harness.client('owner');
    const applied = (await runsOf(client, 'demo-app')).find((run) => run.attributes.status === 'applied')!;
    await expectSpecError(client.runs.discard(applied.id), 'discardRun', 409);
  });

  test('cancel: 202 while planning; the run ends canceled', async () => {
    const client = harness.client('owner');
    const runId = await stagingRunIn(client, 'planning');
    await client.runs.cancel(runId);
    await harness.advanceUntil('the run to stop', async () => (await status(client, runId)) === 'canceled');
  });

  test('spec §7 cancel 409: the run is not planning or applying', async () => {
    const client = harness.client('owner');
    const applied = (await runsOf(client, 'demo-app')).find((run) => run.attributes.status === 'applied')!;
    await expectSpecError(client.runs.cancel(applied.id), 'cancelRun', 409);
  });

  test('spec §7 cancel 404: run not found, or the caller may not cancel it', async () => {
    const client = harness.client('owner');
    await expectSpecError(client.runs.cancel('run-doesnotexist0000'), 'cancelRun', 404);
    const runId = await stagingRunIn(client, 'planning');
    await expectSpecError(harness.client('reader').runs.cancel(runId), 'cancelRun', 404);
  });

  test('force-cancel: 409 before a normal cancel; after cancel + cool-off it is allowed (202) and ends the run', async () => {
    const client = harness.client('owner');
    const runId = await stagingRunIn(client, 'applying');
    await expectSpecError(client.runs.forceCancel(runId), 'forceCancelRun', 409);
    await client.runs.cancel(runId);
    const afterCancel = (await client.runs.get(runId)).run;
    assert.equal(isForceCancelable(afterCancel), false);
    // Still applying: the interrupted apply finishes its operation in flight; the cool-off has not passed yet.
    await expectSpecError(client.runs.forceCancel(runId), 'forceCancelRun', 409);
    await harness.advanceUntil('force-cancel to become available', async () => isForceCancelable((await client.runs.get(runId)).run), 1000, 30);
    await client.runs.forceCancel(runId, { comment: 'Stuck' });
    assert.equal(harness.requests().at(-1)!.status, 202);
    await harness.advanceUntil('the run to end', async () => ['canceled', 'force_canceled'].includes(await status(client, runId)), 250, 20);
  });

  test('spec §7 force-cancel 404: run not found, or the caller lacks admin access', async () => {
    const client = harness.client('owner');
    await expectSpecError(client.runs.forceCancel('run-doesnotexist0000'), 'forceCancelRun', 404);
    const runId = await stagingRunIn(client, 'applying');
    // max-member has write (not admin) access to staging-api.
    await expectSpecError(harness.client('member').runs.forceCancel(runId), 'forceCancelRun', 404);
  });

  test('force-execute: 202 on a pending run behind a discardable one; the blocker is discarded', async () => {
    const client = harness.client('owner');
    const { paused, pending } = await demoAppQueue(client);
    await client.runs.forceExecute(pending.id);
    assert.equal(harness.requests().at(-1)!.status, 202);
    assert.equal(await status(client, paused.id), 'discarded');
    await harness.advanceUntil('the forced run to start', async () => (await status(client, pending.id)) !== 'pending');
  });

  test('spec §7 force-execute 403: the run is not pending', async () => {
    const client = harness.client('owner');
    const { paused } = await demoAppQueue(client);
    await expectSpecError(client.runs.forceExecute(paused.id), 'forceExecuteRun', 403);
  });

  test('spec §7 force-execute 409: the run locking the workspace is not discardable', async () => {
    const client = harness.client('owner');
    const blocking = await stagingRunIn(client, 'planning');
    const queued = await client.runs.create({ workspaceId: await workspaceId(client, 'staging-api'), message: 'behind' });
    assert.equal(queued.attributes.status, 'pending');
    assert.equal(await status(client, blocking), 'planning');
    await expectSpecError(client.runs.forceExecute(queued.id), 'forceExecuteRun', 409);
  });

  test('spec §7 force-execute 404: run not found', async () => {
    await expectSpecError(harness.client('owner').runs.forceExecute('run-doesnotexist0000'), 'forceExecuteRun', 404);
  });

  test('organization tokens may not do any run action (404, nothing changes)', async () => {
    const owner = harness.client('owner');
    const { paused, pending } = await demoAppQueue(owner);
    const organization = harness.client('organization');
    await expectSpecError(organization.runs.apply(paused.id), 'applyRun', 404);
    await expectSpecError(organization.runs.discard(paused.id), 'discardRun', 404);
    await expectSpecError(organization.runs.cancel(paused.id), 'cancelRun', 404);
    await expectSpecError(organization.runs.forceCancel(paused.id), 'forceCancelRun', 404);
    await expectSpecError(organization.runs.forceExecute(pending.id), 'forceExecuteRun', 404);
    assert.equal(await status(owner, paused.id), paused.attributes.status);
  });

  test('a member who may queue plans but not apply gets 404 on apply', async () => {
    const { paused } = await demoAppQueue(harness.client('owner'));
    const error = await expectSpecError(harness.client('member').runs.apply(paused.id), 'applyRun', 404);
    assert.match(error.message, /organization tokens never can|may not/);
  });
});
