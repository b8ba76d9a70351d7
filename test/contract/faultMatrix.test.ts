// Contract, the fault matrix (#14): every operation the client uses × every fault the emulator injects. A read
// either succeeds after a safe retry or fails with a typed error (a body that is no API document is not retried);
// a write is never sent twice (the emulator's request log is the proof: one request, plus the 429 that proved the
// first was refused) and, when it may have been done, says so instead of inviting the user to do it again; and the
// same operation works again once the fault is gone (nothing sticks: no cached failure, no stuck request).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator } from '../../emulator/src/index';
import type { RunningEmulator, TokenRole } from '../../emulator/src/index';
import { ApiError, MalformedResponseError, RateLimitedError, ServiceClient, ServiceError, collectItems } from '../../server/src/api/index';
import type { Clock, Run } from '../../server/src/api/index';
import { CancelledError } from '../../server/src/api/errors';
import { faultSpec, inapplicable, matrixFaults, matrixLatencyMs, matrixOperations } from './support/faultMatrix';
import type { MatrixFault, Scene } from './support/faultMatrix';
import { inStatus, pausedForConfirmation, plannableWorkspace } from './support/scenario';

/** Faults after which a read must succeed by retrying. A body that is no API document is an answer, not a hiccup. */
const retriedForReads = new Set<MatrixFault>(['timeout', 'status 500', 'status 502', 'status 503', 'reset before', 'reset after', 'truncate', 'html', 'rate-limit']);
const clientTimeoutMs = Math.round(matrixLatencyMs / 2);

describe('contract: fault matrix (operation × fault)', () => {
  let emulator: RunningEmulator;
  let scene: Scene;
  let runs = 0;
  const clients: ServiceClient[] = [];

  const clock = (): Clock => ({
    now: () => emulator.control.now().getTime(),
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new CancelledError('waiting before a request');
      await emulator.control.advance(Math.max(0, Math.ceil(ms)));
    },
  });
  const client = (role: TokenRole = 'owner', timeoutMs = 5_000) => {
    const made = new ServiceClient({ address: emulator.url, token: emulator.tokens[role], clock: clock(), timeoutMs, retry: { random: () => 0 } });
    clients.push(made);
    return made;
  };

  async function advanceUntil(what: string | (() => string), done: () => Promise<boolean>): Promise<void> {
    for (let step = 0; step < 400; step++) {
      if (await done()) return;
      await emulator.control.advance(250);
    }
    throw new Error(`Still waiting for ${typeof what === 'string' ? what : what()}.`);
  }

  /** Ends every unfinished run of the workspace, so a new run is not queued behind an earlier case's. */
  async function settle(owner: ServiceClient, workspaceId: string): Promise<void> {
    const open = await collectItems(owner.runs.workspacePages(workspaceId, { statusGroup: 'non_final', operations: ['plan_and_apply'] }));
    for (const run of open) {
      const actions = run.attributes.actions;
      if (actions?.['is-discardable']) await owner.runs.discard(run.id).catch(() => undefined);
      else if (actions?.['is-cancelable']) await owner.runs.cancel(run.id).catch(() => undefined);
    }
    await advanceUntil('the workspace to be free', async () =>
      (await collectItems(owner.runs.workspacePages(workspaceId, { statusGroup: 'non_final', operations: ['plan_and_apply'] }))).length === 0);
  }

  async function newRun(owner: ServiceClient, workspaceId: string, reached: (run: Run) => boolean, what: string): Promise<Run> {
    await settle(owner, workspaceId);
    // A new region each time: the plan always has a change to confirm, even after an earlier case applied one.
    const created = await owner.runs.create({ workspaceId, message: `matrix ${what}`, variables: [{ key: 'region', value: `"region-${++runs}"` }] });
    let latest = created;
    await advanceUntil(() => `${what} (${created.id} is ${latest.attributes.status})`, async () => reached((latest = (await owner.runs.get(created.id)).run)));
    return latest;
  }

  before(async () => {
    emulator = await startEmulator({ seed: 'empty', clock: 'manual' });
    const owner = client();
    const workspaceId = await plannableWorkspace(owner);
    const pausedRun = await newRun(owner, workspaceId, pausedForConfirmation, 'a paused run');
    const subscriptionId = (await owner.organization.getSubscription('acme-demo')).subscription.id;
    scene = {
      workspaceId,
      pausedRun,
      subscriptionId,
      freshPausedRun: () => newRun(owner, workspaceId, pausedForConfirmation, 'a paused run'),
      freshPlanningRun: () => newRun(owner, workspaceId, inStatus('planning'), 'a planning run'),
      refuseUnredactedPlanJson: (planId) =>
        emulator.control.injectFault({ method: 'GET', path: `/api/v2/plans/${planId}/json-output`, kind: 'status', status: 403, times: Infinity }),
    };
  });
  after(async () => {
    await Promise.all(clients.map((made) => made.close()));
    await emulator?.close();
  });

  /** Waits (bounded) until the emulator logged the faulted request: a timed-out one is handled after the client gave up. */
  async function loggedAfter(mark: number, method: string, path: string): Promise<Array<{ status: number; fault?: string }>> {
    const matching = () => emulator.control.requests().slice(mark).filter((entry) => entry.method === method && entry.path.split('?')[0] === path);
    const deadline = Date.now() + 5_000;
    while (matching().length === 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
    return matching();
  }

  for (const op of matrixOperations) {
    const isWrite = op.method !== 'GET';
    describe(op.operation, () => {
      for (const fault of matrixFaults) {
        const skip = inapplicable(op.operation, fault);
        test(`${fault}`, skip ? { skip } : {}, async () => {
          emulator.control.clearFaults();
          const setup = client();
          const { path, call } = await op.prepare(setup, scene);
          const faulted = client('owner', fault === 'timeout' ? clientTimeoutMs : 5_000);
          const mark = emulator.control.requests().length;
          const spec = faultSpec(fault, op.method, path);
          emulator.control.injectFault(spec);
          const outcome = await call(faulted).then(
            () => ({ ok: true as const }),
            (error: unknown) => ({ ok: false as const, error }),
          );
          const entries = isWrite ? await loggedAfter(mark, op.method, path) : [];
          // The timed-out request is still being handled: wait for its answer before the next case.
          if (fault === 'timeout') {
            const deadline = Date.now() + 5_000;
            while (!emulator.control.requests().slice(mark).some((e) => e.fault === 'latency') && Date.now() < deadline) {
              await new Promise((resolve) => setImmediate(resolve));
            }
          }
          emulator.control.clearFaults();
          // The case proves something only if the fault met the request (pre-signed paths are logged without their secret).
          const met = emulator.control.requests().slice(mark).some((entry) => entry.fault === spec.kind && (entry.path.split('?')[0] === path || path.startsWith('/_archivist/')));
          assert.ok(met, `${op.operation} × ${fault}: the fault was injected`);

          if (!outcome.ok) {
            const error = outcome.error;
            assert.ok(error instanceof ApiError, `${op.operation} × ${fault}: not a typed error: ${String(error)}`);
            assert.notEqual(error.kind, 'cancelled');
            assert.match(error.message, /^Could not /, 'the message says what failed');
            assert.ok(!error.message.includes(emulator.tokens.owner), 'no token in the message');
          }

          if (!isWrite) {
            if (retriedForReads.has(fault)) assert.ok(outcome.ok, `${op.operation} × ${fault}: a read is retried: ${outcome.ok ? '' : (outcome.error as Error).message}`);
            else if (!outcome.ok) assert.ok(outcome.error instanceof MalformedResponseError, `${op.operation} × ${fault}: ${String(outcome.error)}`);
          } else {
            const sent = entries.filter((entry) => entry.status !== 429);
            assert.equal(sent.length, 1, `${op.operation} × ${fault}: sent once (log: ${JSON.stringify(entries)})`);
            // (A pre-signed upload URL is outside the API: the emulator sends no 429 there.)
            if (fault === 'rate-limit') assert.ok(entries.slice(0, -1).every((entry) => entry.status === 429), 'only 429s came before');
            else assert.equal(entries.length, 1, `${op.operation} × ${fault}: never resent (log: ${JSON.stringify(entries)})`);
            if (!outcome.ok) {
              const error = outcome.error as ApiError;
              const refused = (error instanceof ServiceError && error.status < 500) || error instanceof RateLimitedError;
              assert.equal(error.mayHaveSucceeded, !refused, `${op.operation} × ${fault}: "may have succeeded" iff the service may have acted: ${error.message}`);
              if (!refused) assert.match(error.message, /may have done it anyway/);
            }
          }

          if (!isWrite) {
            // Recovery: once the fault is gone the same client reads again (no failure cached, nothing stuck).
            await call(faulted);
          }
        });
      }
    });
  }
});
