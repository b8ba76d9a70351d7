// The custom requests behind the client's views, over a real LSP session against the emulator.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import {
  changeRequestsRequest,
  runDetailsRequest,
  runsChangedNotification,
  runsRequest,
  subscriptionRequest,
  variablesRequest,
  workspaceChangedNotification,
} from '../../server/src/protocol';
import type { LinkedFolder, RunsChangedParams } from '../../server/src/protocol';
import { startSession, type LspSession } from '../helpers/lspSession';

describe('view requests', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  let demoAppId: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    const linked = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
    assert.ok(linked.state.kind === 'linked');
    demoAppId = linked.state.workspace.id;
  });
  after(async () => {
    await session.close();
    await emulator.close();
  });

  test('runs of a workspace, with filters and pages', async () => {
    const all = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, pageSize: 2, operations: ['plan_only', 'plan_and_apply', 'save_plan', 'refresh_only', 'destroy', 'empty_apply'] });
    assert.equal(all.runs.length, 2);
    assert.equal(all.page.current, 1);
    assert.equal(all.page.next, 2);
    assert.equal(all.page.totalCount, 5);
    const second = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, pageSize: 2, pageNumber: 2, operations: ['plan_only', 'plan_and_apply'] });
    assert.equal(second.page.current, 2);
    assert.ok(second.runs.every((run) => !all.runs.some((first) => first.id === run.id)));
    const pending = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, statuses: ['pending'] });
    assert.deepEqual(pending.runs.map((run) => run.status), ['pending']);
    assert.equal(pending.runs[0]!.statusLabel, 'Pending');
    const organization = await session.connection.sendRequest(runsRequest, { organization: 'acme-demo', workspaceNames: ['prod-network'] });
    assert.ok(organization.runs.length >= 1);
    assert.ok(organization.runs.every((run) => run.workspaceId !== demoAppId));
  });

  test('the "Plan only" filter lists the plan-only runs, which the service shows only when every operation is named', async () => {
    const planOnly = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, operations: ['plan_only'] });
    assert.deepEqual(planOnly.runs.map((run) => run.message), ['Speculative plan from a pull request']);
    assert.ok(planOnly.runs.every((run) => run.planOnly));
    assert.equal(planOnly.page.totalCount, undefined, 'the service counted every operation, not the plan-only runs');
    const withApplies = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, operations: ['plan_only', 'plan_and_apply'] });
    assert.ok(withApplies.runs.some((run) => run.planOnly), 'plan-only runs are missing when asked with another operation');
    assert.ok(withApplies.runs.some((run) => !run.planOnly));
    const applies = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, operations: ['plan_and_apply'] });
    assert.ok(applies.runs.length > 0 && applies.runs.every((run) => !run.planOnly));
  });

  test('run details with the plan and its log text', async () => {
    const { runs } = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, statuses: ['applied'] });
    const details = await session.connection.sendRequest(runDetailsRequest, { runId: runs[0]!.id, planLogOffset: 0, applyLogOffset: 0 });
    assert.equal(details.run.id, runs[0]!.id);
    assert.equal(details.plan?.status, 'finished');
    assert.ok(details.plan?.log?.complete, 'a finished plan has a complete log');
    assert.match(details.plan!.log!.text, /Plan:|No changes/);
    assert.ok(details.apply?.log?.text.length);
    const without = await session.connection.sendRequest(runDetailsRequest, { runId: runs[0]!.id });
    assert.equal(without.plan?.log, undefined, 'no log unless asked for');
  });

  test('an active run shown in details is followed, so its view updates through runsChanged', async () => {
    const { runs } = await session.connection.sendRequest(runsRequest, { organization: 'acme-demo', workspaceNames: ['staging-api'], statusGroup: 'non_final' });
    const active = runs[0]!;
    assert.ok(active, 'staging-api is auto-applying in the demo seed');
    await session.connection.sendRequest(runDetailsRequest, { runId: active.id });
    const changed = session.waitForNext<RunsChangedParams>(runsChangedNotification.method, (params) => params.runs.some((run) => run.id === active.id), 20_000);
    await emulator.control.advance(120_000);
    const notice = await changed;
    assert.notEqual(notice.runs.find((run) => run.id === active.id)!.status, active.status);
  });

  test('change requests by workspace name, paged', async () => {
    const first = await session.connection.sendRequest(changeRequestsRequest, { workspaceName: 'demo-app', pageSize: 2 });
    assert.equal(first.changeRequests.length, 2);
    assert.equal(first.page.next, 2);
    const all = await session.connection.sendRequest(changeRequestsRequest, { workspaceName: 'demo-app', pageSize: 20 });
    assert.equal(all.changeRequests.length, 5);
    assert.equal(all.changeRequests.filter((cr) => cr.archived).length, 2);
  });

  test('variables never include a sensitive value', async () => {
    const variables = await session.connection.sendRequest(variablesRequest, { workspaceId: demoAppId });
    const secret = variables.find((variable) => variable.key === 'AWS_SECRET_ACCESS_KEY');
    assert.ok(secret && secret.sensitive && secret.value === undefined);
    assert.equal(variables.find((variable) => variable.key === 'region')?.value, 'eu-north-1');
    assert.ok(!JSON.stringify(session.received).includes('demo-secret-access-key-never-shown'));
  });

  test('the subscription and its feature set', async () => {
    const result = await session.connection.sendRequest(subscriptionRequest, { organization: 'acme-demo' });
    assert.ok(result.available);
    assert.equal(typeof result.subscription.id, 'string');
    assert.equal(result.featureSet?.flags['cost-estimation'], true);
  });

  test('bad parameters get an error that says what to send', async () => {
    await assert.rejects(session.connection.sendRequest(runsRequest, {}), /workspaceId.*organization/);
    await assert.rejects(session.connection.sendRequest(runDetailsRequest, { runId: '' }), /runId/);
    await assert.rejects(session.connection.sendRequest(runDetailsRequest, { runId: 'run-doesnotexist0000' }), /not found/);
    // Checked before anything reaches the service: the field, what was wrong, InvalidParams.
    const before = emulator.control.requests().length;
    await assert.rejects(session.connection.sendRequest(runsRequest, { workspaceId: 42 } as never), (error: { code: number; message: string }) => {
      assert.equal(error.code, -32602);
      assert.equal(error.message, 'hcpTerraform/runs: workspaceId must be a string, not a number.');
      return true;
    });
    await assert.rejects(session.connection.sendRequest(runsRequest, { workspaceId: 'ws-x', pageSize: 'ten' } as never), /pageSize must be a number/);
    await assert.rejects(session.connection.sendRequest(runDetailsRequest, null as never), /hcpTerraform\/runDetails takes one object as params, not null/);
    assert.equal(emulator.control.requests().length, before, 'an ill-formed request reached the service');
  });
});

describe('view requests on Terraform Enterprise', () => {
  test('no subscription interface there: the answer says so instead of failing', async () => {
    const emulator = await startEmulator({ seed: 'demo', clock: 'manual', edition: 'enterprise' });
    const session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    try {
      const result = await session.connection.sendRequest(subscriptionRequest, { organization: 'acme-demo' });
      assert.equal(result.available, false);
      assert.ok(!result.available && /Terraform Enterprise/.test(result.reason));
      // The 404 is normal there: the folder is still linked and its snapshot knows there is no feature set.
      await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
    } finally {
      await session.close();
      await emulator.close();
    }
  });
});
