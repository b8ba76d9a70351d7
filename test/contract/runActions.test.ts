// Contract: the five run actions with every error row of the spec's section 7 (apply 409; discard 409;
// cancel 409/404; force-cancel 409/404; force-execute 403/409/404) and the organization-token 404.
// Runs are built by each test on the empty seed (see support/scenario.ts), so no test depends on seeded runs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, isForceCancelable, meaningOf } from '../../server/src/api/index';
import type { OperationName } from '../../server/src/api/index';
import { useEmulator } from './support/harness';
import { inStatus, pausedForConfirmation, plannableWorkspace, runStatus, runUntil } from './support/scenario';

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

describe('contract: run actions', () => {
  const harness = useEmulator({ seed: 'empty' });
  const finished = ['applied', 'errored', 'canceled', 'force_canceled', 'discarded'];

  /** A run paused for confirmation, and a second run queued behind it. */
  async function pausedAndQueued() {
    const client = harness.client('owner');
    const workspace = await plannableWorkspace(client);
    const paused = await runUntil(harness, client, workspace, 'confirmation', pausedForConfirmation);
    const pending = await client.runs.create({ workspaceId: workspace, message: 'queued behind' });
    assert.equal(pending.attributes.status, 'pending');
    return { client, workspace, paused, pending };
  }

  test('apply: 202 on a run paused for confirmation, and the run goes on to applied', async () => {
    const { client, paused } = await pausedAndQueued();
    await client.runs.apply(paused.id, { comment: 'Ship it' });
    assert.equal(harness.requests().at(-1)!.status, 202);
    await harness.advanceUntil('the apply to finish', async () => (await runStatus(client, paused.id)) === 'applied');
  });

  test('spec §7 apply 409: the run is not paused for confirmation', async () => {
    const { client, pending } = await pausedAndQueued();
    await expectSpecError(client.runs.apply(pending.id), 'applyRun', 409);
  });

  test('discard: 202 on a paused run; the pending run behind it proceeds', async () => {
    const { client, paused, pending } = await pausedAndQueued();
    await client.runs.discard(paused.id, { comment: 'Not today' });
    assert.equal(await runStatus(client, paused.id), 'discarded');
    await harness.advanceUntil('the queued run to start', async () => (await runStatus(client, pending.id)) !== 'pending');
  });

  test('spec §7 discard 409: the run is not paused for confirmation or priority', async () => {
    const { client, paused } = await pausedAndQueued();
    await client.runs.discard(paused.id);
    await expectSpecError(client.runs.discard(paused.id), 'discardRun', 409);
  });

  test('cancel: 202 while planning; the run ends canceled', async () => {
    const client = harness.client('owner');
    const planning = await runUntil(harness, client, await plannableWorkspace(client), 'planning', inStatus('planning'));
    await client.runs.cancel(planning.id);
    await harness.advanceUntil('the run to stop', async () => (await runStatus(client, planning.id)) === 'canceled');
  });

  test('spec §7 cancel 409: the run is not planning or applying', async () => {
    const { client, paused } = await pausedAndQueued();
    await expectSpecError(client.runs.cancel(paused.id), 'cancelRun', 409);
  });

  test('spec §7 cancel 404: run not found, or the caller may not cancel it', async () => {
    const client = harness.client('owner');
    await expectSpecError(client.runs.cancel('run-doesnotexist0000'), 'cancelRun', 404);
    const planning = await runUntil(harness, client, await plannableWorkspace(client), 'planning', inStatus('planning'));
    await expectSpecError(harness.client('reader').runs.cancel(planning.id), 'cancelRun', 404);
  });

  test('force-cancel: 409 before a normal cancel; after cancel + cool-off it is allowed (202) and ends the run', async () => {
    const { client, paused } = await pausedAndQueued();
    await client.runs.apply(paused.id);
    await harness.advanceUntil('applying', async () => (await runStatus(client, paused.id)) === 'applying', 250);
    await expectSpecError(client.runs.forceCancel(paused.id), 'forceCancelRun', 409);
    await client.runs.cancel(paused.id);
    assert.equal(isForceCancelable((await client.runs.get(paused.id)).run), false);
    // The interrupted apply finishes the operation in flight; the cool-off has not passed yet.
    await expectSpecError(client.runs.forceCancel(paused.id), 'forceCancelRun', 409);
    await harness.advanceUntil('force-cancel to become available', async () => isForceCancelable((await client.runs.get(paused.id)).run), 1000, 30);
    await client.runs.forceCancel(paused.id, { comment: 'Stuck' });
    assert.equal(harness.requests().at(-1)!.status, 202);
    await harness.advanceUntil('the run to end', async () => ['canceled', 'force_canceled'].includes(await runStatus(client, paused.id)), 250, 20);
  });

  test('spec §7 force-cancel 404: run not found, or the caller lacks admin access', async () => {
    const client = harness.client('owner');
    await expectSpecError(client.runs.forceCancel('run-doesnotexist0000'), 'forceCancelRun', 404);
    const planning = await runUntil(harness, client, await plannableWorkspace(client), 'planning', inStatus('planning'));
    // The member may queue plans on demo-app, nothing more.
    await expectSpecError(harness.client('member').runs.forceCancel(planning.id), 'forceCancelRun', 404);
  });

  test('force-execute: 202 on a pending run behind a discardable one; the blocker is discarded', async () => {
    const { client, paused, pending } = await pausedAndQueued();
    await client.runs.forceExecute(pending.id);
    assert.equal(harness.requests().at(-1)!.status, 202);
    assert.equal(await runStatus(client, paused.id), 'discarded');
    await harness.advanceUntil('the forced run to start', async () => (await runStatus(client, pending.id)) !== 'pending');
  });

  test('spec §7 force-execute 403: the run is not pending', async () => {
    const { client, paused } = await pausedAndQueued();
    await expectSpecError(client.runs.forceExecute(paused.id), 'forceExecuteRun', 403);
  });

  test('spec §7 force-execute 409: the run locking the workspace is not discardable', async () => {
    const client = harness.client('owner');
    const workspace = await plannableWorkspace(client);
    const blocking = await runUntil(harness, client, workspace, 'planning', inStatus('planning'));
    const queued = await client.runs.create({ workspaceId: workspace, message: 'behind' });
    assert.equal(queued.attributes.status, 'pending');
    await expectSpecError(client.runs.forceExecute(queued.id), 'forceExecuteRun', 409);
    assert.equal(await runStatus(client, blocking.id), 'planning');
  });

  test('spec §7 force-execute 404: run not found', async () => {
    await expectSpecError(harness.client('owner').runs.forceExecute('run-doesnotexist0000'), 'forceExecuteRun', 404);
  });

  test('organization tokens may not do any run action (404, nothing changes)', async () => {
    const { client, paused, pending } = await pausedAndQueued();
    const organization = harness.client('organization');
    await expectSpecError(organization.runs.apply(paused.id), 'applyRun', 404);
    await expectSpecError(organization.runs.discard(paused.id), 'discardRun', 404);
    await expectSpecError(organization.runs.cancel(paused.id), 'cancelRun', 404);
    await expectSpecError(organization.runs.forceCancel(paused.id), 'forceCancelRun', 404);
    await expectSpecError(organization.runs.forceExecute(pending.id), 'forceExecuteRun', 404);
    assert.equal(await runStatus(client, paused.id), paused.attributes.status);
    assert.ok(!finished.includes(await runStatus(client, pending.id)));
  });

  test('a member who may queue plans but not apply gets 404 on apply', async () => {
    const { paused } = await pausedAndQueued();
    const error = await expectSpecError(harness.client('member').runs.apply(paused.id), 'applyRun', 404);
    assert.match(error.message, /organization tokens never can|may not/);
  });
});
