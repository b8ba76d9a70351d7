// Every hcpTerraform.server.* command over a real LSP session, changing the emulator's state (checked with a
// separate API client on another token, so the server's rate budget is its own), plus argument validation.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ExecuteCommandRequest } from 'vscode-languageserver-protocol/node';
import { ServiceClient, collectItems } from '../../server/src/api';
import type { Run } from '../../server/src/api';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import { runsChangedNotification, serverCommand, workspaceChangedNotification } from '../../server/src/protocol';
import type { LinkedFolder, RunSummary, RunsChangedParams, ServerCommandArguments, ServerCommandResults, ServerCommandVerb } from '../../server/src/protocol';
import { confirmDestructiveCommands, startSession, type LspSession } from '../helpers/lspSession';

describe('commands', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  let api: ServiceClient;
  const workspaceIds = new Map<string, string>();

  const run = <V extends ServerCommandVerb>(verb: V, args: ServerCommandArguments[V] | unknown): Promise<ServerCommandResults[V]> =>
    session.connection.sendRequest(ExecuteCommandRequest.type, { command: serverCommand(verb), arguments: [args] }) as Promise<ServerCommandResults[V]>;
  const rejection = async (promise: Promise<unknown>): Promise<{ code: number; message: string }> => {
    try {
      await promise;
    } catch (error) {
      return error as { code: number; message: string };
    }
    assert.fail('expected the command to fail');
  };
  const runsOf = async (workspace: string): Promise<Run[]> => (await api.runs.listForWorkspace(workspaceIds.get(workspace)!, { pageSize: 20 })).items;

  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    // The owners team token: another caller than the server's owner token, so checks do not eat the server's budget.
    api = new ServiceClient({ address: emulator.url, token: emulator.tokens.team });
    for (const workspace of (await api.workspaces.list('acme-demo', { pageSize: 50 })).items) workspaceIds.set(workspace.attributes.name, workspace.id);
    session = await startSession({ address: emulator.url, token: emulator.tokens.owner, answer: confirmDestructiveCommands });
    await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
  });
  after(async () => {
    await session.close();
    await api.close();
    await emulator.close();
    assert.doesNotMatch(session.stderr(), new RegExp(emulator.tokens.owner));
  });

  test('every command is advertised in executeCommandProvider', () => {
    const commands = session.initializeResult.capabilities.executeCommandProvider?.commands ?? [];
    for (const verb of ['queuePlan', 'planLocalChanges', 'applyRun', 'discardRun', 'cancelRun', 'forceCancelRun', 'forceExecuteRun', 'createChangeRequest', 'archiveChangeRequest', 'generateOrganizationToken', 'deleteOrganizationToken', 'createVariable', 'updateVariable', 'deleteVariable']) {
      assert.ok(commands.includes(`hcpTerraform.server.${verb}`), verb);
    }
  });

  test('showInfo (the command of text-only code lenses) does nothing and answers null', async () => {
    const writes = () => emulator.control.requests().filter((request) => request.method !== 'GET').length;
    const before = writes();
    assert.equal(await run('showInfo', {}), null);
    assert.equal(writes(), before, 'showInfo changed something on the service');
  });

  test('queuePlan sends every create-run attribute, run variables included', async () => {
    const summary = await run('queuePlan', {
      workspaceId: workspaceIds.get('legacy-batch')!,
      message: 'Targeted from the editor',
      targetAddrs: ['terraform_data.app_instance'],
      replaceAddrs: ['random_pet.app_name'],
      refresh: false,
      debuggingMode: true,
      allowEmptyApply: true,
      variables: [{ key: 'region', value: '"eu-north-1"' }, { key: 'instance_count', value: '2' }],
    });
    assert.equal(summary.message, 'Targeted from the editor');
    // Told in editors that ignore a command's result (before the result itself, so already received).
    const told = session.received.find((m) => m.method === 'window/showMessage' && String((m.params as { message: string }).message).includes(summary.id));
    assert.match((told?.params as { message: string } | undefined)?.message ?? '', /plan queued, run run-\S+ \(/);
    const { run: stored } = await api.runs.get(summary.id);
    assert.deepEqual(stored.attributes['target-addrs'], ['terraform_data.app_instance']);
    assert.deepEqual(stored.attributes['replace-addrs'], ['random_pet.app_name']);
    assert.equal(stored.attributes.refresh, false);
    assert.equal(stored.attributes['debugging-mode'], true);
    assert.deepEqual(stored.attributes.variables, [{ key: 'region', value: '"eu-north-1"' }, { key: 'instance_count', value: '2' }]);
  });

  test('a client that shows outcomes itself (VS Code: prompts.commandOutcomes) is not told them again', async () => {
    const own = await startSession({ address: emulator.url, token: emulator.tokens.owner, initializationOptions: { prompts: { commandOutcomes: true } }, answer: confirmDestructiveCommands });
    try {
      const summary = (await own.connection.sendRequest(ExecuteCommandRequest.type, {
        command: serverCommand('queuePlan'),
        arguments: [{ workspaceId: workspaceIds.get('legacy-batch')!, message: 'From VS Code' }],
      })) as ServerCommandResults['queuePlan'];
      assert.match(summary.id, /^run-/);
      assert.equal(own.received.filter((m) => m.method === 'window/showMessage' && String((m.params as { message: string }).message).includes(summary.id)).length, 0);
    } finally {
      await own.close();
    }
  });

  test('queuePlan promotes the configuration of another workspace, and plan-only runs take an engine version', async () => {
    const summary = await run('queuePlan', {
      workspaceId: workspaceIds.get('legacy-batch')!,
      configurationFromWorkspaceId: workspaceIds.get('demo-app')!,
      planOnly: true,
      engineVersion: '1.9.5',
    });
    const { workspace } = await api.workspaces.getById(workspaceIds.get('demo-app')!);
    const demoVersion = workspace.relationships?.['current-configuration-version']?.data;
    assert.ok(demoVersion && !Array.isArray(demoVersion));
    assert.equal(summary.configurationVersionId, demoVersion.id);
    assert.equal(summary.planOnly, true);
  });

  test('a destroy plan the workspace does not allow: the refusal names the "Allow destroy plans" setting', async () => {
    const workspaceId = workspaceIds.get('legacy-batch')!;
    const allowDestroyPlan = (allowed: boolean) =>
      fetch(`${emulator.url}/api/v2/workspaces/${workspaceId}`, {
        method: 'PATCH',
        headers: { Authorization: `Bearer ${emulator.tokens.team}`, 'Content-Type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'workspaces', attributes: { 'allow-destroy-plan': allowed } } }),
      }).then((response) => assert.equal(response.status, 200));
    await allowDestroyPlan(false);
    try {
      const refused = await rejection(run('queuePlan', { workspaceId, isDestroy: true, message: 'tear down' }));
      assert.match(refused.message, /^Could not queue the destroy plan: .*destroy plans are not allowed there \(the workspace's "Allow destroy plans" setting is off/);
    } finally {
      await allowDestroyPlan(true);
    }
  });

  test('wrong arguments get InvalidParams errors that say what to send', async () => {
    const notLiteral = await rejection(run('queuePlan', { workspaceId: 'ws-x', variables: [{ key: 'region', value: 'eu-west-1' }] }));
    assert.equal(notLiteral.code, -32602);
    assert.match(notLiteral.message, /run variable "region" is not an HCL literal.*quotes/);
    const engine = await rejection(run('queuePlan', { workspaceId: 'ws-x', engineVersion: '1.9.0' }));
    assert.match(engine.message, /engineVersion is only valid for plan-only runs/);
    const exclusive = await rejection(run('queuePlan', { workspaceId: 'ws-x', isDestroy: true, refreshOnly: true }));
    assert.match(exclusive.message, /isDestroy and refreshOnly cannot both be true/);
    const missing = await rejection(run('applyRun', { comment: 'no id' }));
    assert.match(missing.message, /runId/);
    const notObject = await rejection(run('deleteVariable', 'var-1'));
    assert.match(notObject.message, /takes one object argument/);
    const noValue = await rejection(run('createVariable', { workspaceId: 'ws-x', key: 'environment', category: 'engine' }));
    assert.match(noValue.message, /needs the value of "environment"/);
    const unknown = await rejection(session.connection.sendRequest(ExecuteCommandRequest.type, { command: 'hcpTerraform.server.launchRockets', arguments: [] }));
    assert.match(unknown.message, /Unknown command/);
  });

  test('applyRun on a run that does not await confirmation says what state it is in', async () => {
    const pending = (await runsOf('demo-app')).find((r) => r.attributes.status === 'pending');
    assert.ok(pending, 'the demo seed has a pending run on demo-app');
    const error = await rejection(run('applyRun', { runId: pending.id }));
    assert.equal(error.message, 'The run is not waiting for confirmation (it is pending).');
  });

  test('forceExecuteRun runs the pending run and discards the one blocking it; the watcher reports the change', async () => {
    const runs = await runsOf('demo-app');
    const pending = runs.find((r) => r.attributes.status === 'pending')!;
    const blocking = runs.find((r) => r.attributes.actions?.['is-confirmable'])!;
    const changed = session.waitForNext<RunsChangedParams>(runsChangedNotification.method, (params) => params.runs.some((r) => r.id === pending.id && r.status !== 'pending'), 20_000);
    const summary = await run('forceExecuteRun', { runId: pending.id });
    assert.equal(summary.id, pending.id);
    assert.equal((await api.runs.get(blocking.id)).run.attributes.status, 'discarded');
    await emulator.control.advance(5_000);
    const notice = await changed;
    assert.equal(notice.workspaceId, workspaceIds.get('demo-app'));
  });

  test('applyRun confirms a run that awaits confirmation', async () => {
    const target = (await runsOf('demo-app'))[0]!;
    // Let the force-executed run plan until it pauses for confirmation.
    for (let step = 0; step < 20 && !(await api.runs.get(target.id)).run.attributes.actions?.['is-confirmable']; step++) await emulator.control.advance(10_000);
    const summary: RunSummary = await run('applyRun', { runId: target.id, comment: 'From the editor' });
    assert.equal(summary.id, target.id);
    assert.notEqual((await api.runs.get(target.id)).run.attributes.actions?.['is-confirmable'], true);
  });

  test('discardRun discards a run held by a policy override', async () => {
    const held = (await runsOf('prod-network')).find((r) => r.attributes.status === 'policy_override')!;
    const summary = await run('discardRun', { runId: held.id, comment: 'Not now' });
    assert.equal(summary.status, 'discarded');
  });

  test('cancelRun interrupts an applying run; forceCancelRun ends it once the cool-off has passed', async () => {
    const applying = (await runsOf('demo-app'))[0]!;
    for (let step = 0; step < 60 && (await api.runs.get(applying.id)).run.attributes.status !== 'applying'; step++) await emulator.control.advance(1_000);
    assert.equal((await api.runs.get(applying.id)).run.attributes.status, 'applying');
    const early = await rejection(run('forceCancelRun', { runId: applying.id }));
    assert.match(early.message, /cancel it normally first and wait for the cool-off period to pass \(it is applying\)/);
    const canceling = await run('cancelRun', { runId: applying.id, comment: 'wrong target' });
    assert.ok(canceling.forceCancelAvailableAt, 'a canceled run says when force-cancel becomes possible');
    // The apply waits for its operation in flight (20 s); the cool-off (10 s) passes first.
    await emulator.control.advance(11_000);
    assert.equal((await api.runs.get(applying.id)).run.attributes.status, 'applying');
    const forced = await run('forceCancelRun', { runId: applying.id, comment: 'stuck' });
    assert.equal(forced.status, 'canceled');
  });

  test('createChangeRequest and archiveChangeRequest', async () => {
    const created = await run('createChangeRequest', { organization: 'acme-demo', workspaceId: workspaceIds.get('demo-app')!, subject: 'TODO: rotate the db password', message: 'From `main.tf`' });
    assert.ok(created.id);
    const all = await collectItems(api.changeRequests.pages('demo-app'));
    const mine = all.find((cr) => cr.attributes.subject === 'TODO: rotate the db password');
    assert.ok(mine, 'the change request exists on demo-app');
    const archived = await run('archiveChangeRequest', { changeRequestId: mine.id });
    assert.equal(archived.archived, true);
    const again = await rejection(run('archiveChangeRequest', { changeRequestId: mine.id }));
    assert.ok(again.message.length > 0);
  });

  test('generateOrganizationToken returns the secret once and never logs it; deleteOrganizationToken removes it', async () => {
    const generated = await run('generateOrganizationToken', { organization: 'acme-demo' });
    assert.match(generated.token, /\S{10,}/);
    const orgClient = new ServiceClient({ address: emulator.url, token: generated.token });
    try {
      assert.ok((await orgClient.workspaces.list('acme-demo')).items.length > 0, 'the new organization token works');
      assert.deepEqual(await run('deleteOrganizationToken', { organization: 'acme-demo' }), { deleted: true });
      await assert.rejects(orgClient.workspaces.list('acme-demo'), /401|token/);
    } finally {
      await orgClient.close();
    }
    assert.doesNotMatch(session.stderr(), new RegExp(generated.token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    assert.ok(!JSON.stringify(session.received).includes(generated.token), 'no notification carries the secret');
    assert.ok(session.received.some((m) => m.method === 'window/showMessage' && /organization token generated/.test(String((m.params as { message: string }).message))));
  });

  test('deleting an organization token that does not exist says so, instead of blaming permissions', async () => {
    // The previous test deleted it (or none was ever generated): the service answers 404 either way.
    const none = await rejection(run('deleteOrganizationToken', { organization: 'acme-demo' }));
    assert.match(none.message, /acme-demo has no organization token to delete/);
    assert.doesNotMatch(none.message, /may not/);
  });

  test('createVariable, updateVariable and deleteVariable change the workspace variables', async () => {
    const workspaceId = workspaceIds.get('demo-app')!;
    const created = await run('createVariable', { workspaceId, key: 'environment', category: 'engine', value: 'staging', description: 'Set from a quick fix' });
    assert.equal(created.value, 'staging');
    const list = () => api.variables.list({ organization: 'acme-demo', workspace: 'demo-app' });
    assert.equal((await list()).find((v) => v.attributes.key === 'environment')?.attributes.value, 'staging');
    const updated = await run('updateVariable', { workspaceId, variableId: created.id, sensitive: true });
    assert.equal(updated.sensitive, true);
    assert.equal(updated.value, undefined, 'a sensitive value is never returned');
    assert.equal((await list()).find((v) => v.attributes.key === 'environment')?.attributes.sensitive, true);
    assert.deepEqual(await run('deleteVariable', { workspaceId, variableId: created.id }), { deleted: true });
    assert.equal((await list()).find((v) => v.attributes.key === 'environment'), undefined);
    const missing = await rejection(run('deleteVariable', { workspaceId, variableId: created.id }));
    assert.match(missing.message, /not found/);
  });

  test('planLocalChanges uploads the folder, queues a plan-only run and reports work-done progress', async () => {
    const before = emulator.control.requests().length;
    const summary = await run('planLocalChanges', { folderUri: session.folderUri, workspaceId: workspaceIds.get('demo-app')! });
    assert.equal(summary.planOnly, true);
    const requests = emulator.control.requests().slice(before).map((r) => `${r.method} ${r.path.split('?')[0]}`);
    const create = requests.findIndex((r) => r.startsWith('POST /api/v2/workspaces/') && r.endsWith('/configuration-versions'));
    const upload = requests.findIndex((r) => r.startsWith('PUT '));
    const queue = requests.findIndex((r) => r === 'POST /api/v2/runs');
    assert.ok(create >= 0 && upload > create && queue > upload, requests.join('\n'));
    assert.ok(summary.configurationVersionId);
    const version = await api.configurationVersions.get(summary.configurationVersionId);
    assert.equal(version.attributes.speculative, true);
    assert.equal(version.attributes.status, 'uploaded');
    const created = session.received.filter((m) => m.method === 'window/workDoneProgress/create').at(-1)?.params as { token: string };
    assert.ok(created, 'the server created a progress token');
    const kinds = session.received
      .filter((m) => m.method === '$/progress' && (m.params as { token: unknown }).token === created.token)
      .map((m) => (m.params as { value: { kind: string } }).value.kind);
    assert.equal(kinds[0], 'begin');
    assert.ok(kinds.includes('report'));
    assert.equal(kinds.at(-1), 'end');
  });

  test('planLocalChanges refuses a folder that does not exist', async () => {
    const error = await rejection(run('planLocalChanges', { folderUri: 'file:///no/such/folder', workspaceId: workspaceIds.get('demo-app')! }));
    assert.match(error.message, /is not a folder/);
  });
});
