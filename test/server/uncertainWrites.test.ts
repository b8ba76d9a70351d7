// #14 items 10 and 11 over a real LSP session: a queuePlan or run action whose answer was lost is never sent again;
// the server reads the state back and says what is there (done → the run, with a warning; not done → an error that
// says so; unreadable → "may have", look before retrying). An accepted action whose read-back fails is reported as
// accepted, not as an error. The emulator's request log proves each write was sent once.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import type { ShowMessageParams } from 'vscode-languageserver-protocol/node';
import { ServiceClient, isFinalRunStatus } from '../../server/src/api';
import type { Run } from '../../server/src/api';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import type { FaultSpec } from '../../emulator/src/http/faults';
import { serverCommand } from '../../server/src/protocol';
import type { ServerCommandArguments, ServerCommandResults, ServerCommandVerb } from '../../server/src/protocol';
import { plannableWorkspace } from '../contract/support/scenario';
import { startSession, type LspSession } from '../helpers/lspSession';

describe('writes whose answer was lost (#14 items 10, 11)', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  let api: ServiceClient;
  let workspaceId: string;
  let mark = 0;
  let count = 0;

  const run = <V extends ServerCommandVerb>(verb: V, args: ServerCommandArguments[V]): Promise<ServerCommandResults[V]> =>
    session.connection.sendRequest(ExecuteCommandRequest.type, { command: serverCommand(verb), arguments: [args] }) as Promise<ServerCommandResults[V]>;
  const rejection = (promise: Promise<unknown>) => promise.then(() => assert.fail('expected the command to fail'), (error: { message: string }) => error);
  const inject = (fault: FaultSpec) => {
    mark = emulator.control.requests().length;
    emulator.control.injectFault(fault);
  };
  const sent = (method: string, path: string) => emulator.control.requests().slice(mark).filter((entry) => entry.method === method && entry.path.split('?')[0] === path);
  const earlier: string[] = [];

  async function advanceUntil(what: string, done: () => Promise<boolean>): Promise<void> {
    for (let step = 0; step < 400; step++) {
      if (await done()) return;
      await emulator.control.advance(250);
    }
    throw new Error(`Still waiting for ${what}.`);
  }

  /** A run paused for confirmation, alone on the workspace (the earlier tests' runs are ended first). */
  async function pausedRun(): Promise<Run> {
    for (const id of earlier) {
      const { run: open } = await api.runs.get(id);
      if (open.attributes.actions?.['is-discardable']) await api.runs.discard(id);
      else if (open.attributes.actions?.['is-cancelable']) await api.runs.cancel(id);
      await advanceUntil(`run ${id} to end`, async () => isFinalRunStatus((await api.runs.get(id)).run.attributes.status));
    }
    const created = await api.runs.create({ workspaceId, message: `paused ${++count}`, variables: [{ key: 'region', value: `"r-${count}"` }] });
    earlier.push(created.id);
    let latest = created;
    await advanceUntil('a paused run', async () => (latest = (await api.runs.get(created.id)).run).attributes.actions?.['is-confirmable'] === true);
    return latest;
  }

  before(async () => {
    emulator = await startEmulator({ seed: 'empty', clock: 'manual' });
    // The owners team token: another caller than the server's, so the test's checks do not eat the server's budget.
    // Its clock is the emulator's: a rate-limit wait advances emulator time instead of sleeping.
    api = new ServiceClient({
      address: emulator.url,
      token: emulator.tokens.team,
      clock: { now: () => emulator.control.now().getTime(), sleep: (ms) => emulator.control.advance(Math.max(0, Math.ceil(ms))) },
    });
    workspaceId = await plannableWorkspace(api);
    // A client that confirms destructive commands itself (VS Code): these tests count the requests each write sends.
    session = await startSession({ address: emulator.url, token: emulator.tokens.owner, initializationOptions: { prompts: { confirmations: true } } });
  });
  beforeEach(() => emulator.control.clearFaults());
  after(async () => {
    await session.close();
    await api.close();
    await emulator.close();
    assert.doesNotMatch(session.stderr(), new RegExp(emulator.tokens.owner));
  });

  test('queuePlan, connection reset after the run was created: the run is found by its message and reported, with a warning', async () => {
    const warned = session.waitForNext<ShowMessageParams>('window/showMessage', (params) => /not sent twice/.test(params.message));
    inject({ method: 'POST', path: '/api/v2/runs', kind: 'reset', beforeHandling: false });
    const summary = await run('queuePlan', { workspaceId, message: 'lost answer 1', planOnly: true });
    assert.equal(summary.message, 'lost answer 1');
    assert.equal(sent('POST', '/api/v2/runs').length, 1, 'never resent');
    assert.match((await warned).message, /the connection was closed.*run run-\S+ with your message is on the workspace/s);
    // The warning says it was done: no second notice saying the plan was queued (sent before the answer, if at all).
    const told = session.received.filter((m) => m.method === 'window/showMessage' && String((m.params as ShowMessageParams).message).includes(summary.id));
    assert.deepEqual(told.map((m) => (m.params as ShowMessageParams).type), [2], 'one notice, the warning');
  });

  test('queuePlan, 503 before the service acted: "not queued" (no run with that message), sent once, nothing created', async () => {
    inject({ method: 'POST', path: '/api/v2/runs', kind: 'status', status: 503 });
    const error = await rejection(run('queuePlan', { workspaceId, message: 'lost answer 2', planOnly: true }));
    assert.match(error.message, /No run with the message "lost answer 2" is on the workspace, so the plan was not queued; it was not sent again/);
    assert.equal(sent('POST', '/api/v2/runs').length, 1);
    assert.equal((await api.runs.listForWorkspace(workspaceId, { operations: ['plan_only'] })).items.filter((r) => r.attributes.message === 'lost answer 2').length, 0);
  });

  test('queuePlan, truncated 201 and the runs cannot be read back: "may have been queued", look before queuing again', async () => {
    inject({ method: 'POST', path: '/api/v2/runs', kind: 'truncate' });
    // Every read of the list fails (the server's run watcher lists the workspace too, and must not take the only one).
    emulator.control.injectFault({ method: 'GET', path: `/api/v2/workspaces/${workspaceId}/runs`, kind: 'malformed', times: Infinity });
    const error = await rejection(run('queuePlan', { workspaceId, message: 'lost answer 3', planOnly: true }));
    assert.match(error.message, /may have been queued anyway.*could not be read to check.*It was not sent again: look at the Runs view/s);
    assert.equal(sent('POST', '/api/v2/runs').length, 1);
  });

  test('applyRun, 500 after the service applied: the run is read back, reported as applied, sent once', async () => {
    const paused = await pausedRun();
    const warned = session.waitForNext<ShowMessageParams>('window/showMessage', (params) => params.message.includes(paused.id));
    inject({ path: `/api/v2/runs/${paused.id}/actions/apply`, kind: 'status', status: 500, beforeHandling: false });
    const summary = await run('applyRun', { runId: paused.id });
    assert.equal(summary.id, paused.id);
    assert.equal(summary.actions.isConfirmable, false);
    assert.equal(sent('POST', `/api/v2/runs/${paused.id}/actions/apply`).length, 1);
    assert.match((await warned).message, /internal server error.*But run run-\S+ is now .*: it was done, and not sent twice/s);
  });

  test('discardRun, reset before the service acted: the run is still paused, so "not discarded", sent once', async () => {
    const paused = await pausedRun();
    inject({ path: `/api/v2/runs/${paused.id}/actions/discard`, kind: 'reset' });
    const error = await rejection(run('discardRun', { runId: paused.id }));
    assert.match(error.message, /so it was not discarded; it was not sent again/);
    assert.equal(sent('POST', `/api/v2/runs/${paused.id}/actions/discard`).length, 1);
    assert.equal((await api.runs.get(paused.id)).run.attributes.actions?.['is-confirmable'], true);
  });

  test('applyRun accepted, then the run cannot be read: the accepted apply is the answer, not an error (item 11)', async () => {
    const paused = await pausedRun();
    inject({ method: 'GET', path: `/api/v2/runs/${paused.id}`, kind: 'malformed', times: Infinity });
    const summary = await run('applyRun', { runId: paused.id });
    assert.equal(summary.id, paused.id);
    assert.equal(summary.statusLabel, 'Apply accepted; status not read yet');
    assert.equal(sent('POST', `/api/v2/runs/${paused.id}/actions/apply`).length, 1);
    emulator.control.clearFaults();
    assert.notEqual((await api.runs.get(paused.id)).run.attributes.actions?.['is-confirmable'], true, 'the apply happened');
  });
});
