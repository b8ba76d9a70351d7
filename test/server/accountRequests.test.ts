// Sign-in, pinning and picker requests over a real LSP session against the emulator.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ResponseError } from 'vscode-languageserver-protocol';
import { startEmulator, type RunningEmulator } from '../../emulator/src/index';
import {
  accountIdentityRequest,
  checkRunVariableRequest,
  linkFolderEditRequest,
  organizationsRequest,
  resourceAddressesRequest,
  runsChangedNotification,
  runsRequest,
  validateTokenRequest,
  watchWorkspacesNotification,
  workspaceChangedNotification,
  workspaceRequest,
  workspacesRequest,
} from '../../server/src/protocol';
import type { LinkedFolder, RunsChangedParams } from '../../server/src/protocol';
import { startSession, type LspSession } from '../helpers/lspSession';

describe('account, workspace and folder requests', () => {
  let emulator: RunningEmulator;
  let session: LspSession;
  let demoAppId: string;
  let hostname: string;
  before(async () => {
    emulator = await startEmulator({ seed: 'demo', clock: 'manual' });
    hostname = new URL(emulator.url).host;
    session = await startSession({ address: emulator.url, token: emulator.tokens.owner });
    const linked = await session.waitFor<LinkedFolder>(workspaceChangedNotification.method, (folder) => folder.state.kind === 'linked');
    assert.ok(linked.state.kind === 'linked');
    demoAppId = linked.state.workspace.id;
  });
  after(async () => {
    await session.close();
    await emulator.close();
  });

  test('validateToken names who a token is, by kind, without keeping it', async () => {
    const user = await session.connection.sendRequest(validateTokenRequest, { hostname, token: emulator.tokens.member });
    assert.equal(user.kind, 'user');
    assert.equal(user.name, 'max-member');
    const team = await session.connection.sendRequest(validateTokenRequest, { hostname: emulator.url, token: emulator.tokens.team });
    assert.equal(team.kind, 'team');
    const organization = await session.connection.sendRequest(validateTokenRequest, { hostname, token: emulator.tokens.organization });
    assert.equal(organization.kind, 'organization');
    assert.equal(organization.name, 'acme-demo');
    // A pasted token with a stray character: said so, not blamed on the network, and never echoed.
    const pasted = `${emulator.tokens.member.slice(0, 6)} é${emulator.tokens.member.slice(6)}`;
    await assert.rejects(session.connection.sendRequest(validateTokenRequest, { hostname, token: pasted }), (error: Error) => {
      assert.match(error.message, /holds a character no token has/);
      assert.doesNotMatch(error.message, /network/);
      assert.ok(!error.message.includes(emulator.tokens.member.slice(0, 6)));
      return true;
    });
    // The session's own token is untouched: the owner still sees what only the owner may.
    const runs = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId });
    assert.ok(runs.runs.length > 0);
  });

  test("accountIdentity names who the server's own token is, for the host the editor holds no token for", async () => {
    const owner = await session.connection.sendRequest(validateTokenRequest, { hostname, token: emulator.tokens.owner });
    const identity = await session.connection.sendRequest(accountIdentityRequest, { hostname });
    assert.deepEqual(identity, owner);
    // Without a hostname: the configured address's host, the same one here.
    assert.deepEqual(await session.connection.sendRequest(accountIdentityRequest, {}), owner);
    // A host the server has no token for: nothing, not an error.
    assert.equal(await session.connection.sendRequest(accountIdentityRequest, { hostname: 'tfe.elsewhere.example' }), null);
  });

  test('a refused token answers status 401 and never repeats the token', async () => {
    const made = 'made-up.atlasv1.abcdefghijklmnopqrstuvwxyz0123456789';
    await assert.rejects(session.connection.sendRequest(validateTokenRequest, { hostname, token: made }), (error: unknown) => {
      assert.ok(error instanceof ResponseError);
      assert.deepEqual(error.data, { status: 401 });
      assert.match(error.message, /refused/);
      assert.ok(!error.message.includes(made));
      return true;
    });
  });

  test('organizations and workspaces with permissions, current run and web address', async () => {
    const { organizations } = await session.connection.sendRequest(organizationsRequest, {});
    assert.deepEqual(organizations, ['acme-demo', 'acme-free']);
    const { workspaces } = await session.connection.sendRequest(workspacesRequest, { organization: 'acme-demo' });
    const names = workspaces.map((w) => w.name);
    for (const name of ['demo-app', 'staging-api', 'prod-network', 'sandbox', 'legacy-batch']) assert.ok(names.includes(name), `${name} missing: ${names.join(', ')}`);
    const demoApp = workspaces.find((w) => w.name === 'demo-app')!;
    assert.equal(demoApp.permissions.canQueueRun, true);
    assert.equal(demoApp.currentRun?.status, 'policy_checked');
    assert.ok(demoApp.webUrl?.endsWith('/app/acme-demo/workspaces/demo-app'), demoApp.webUrl);
    const one = await session.connection.sendRequest(workspaceRequest, { workspaceId: demoAppId });
    assert.equal(one.name, 'demo-app');
    assert.equal(one.organization, 'acme-demo');
    assert.equal(one.currentRun?.actions.isConfirmable, true);
    assert.equal(one.currentRun?.permissions?.canApply, true);
    await assert.rejects(session.connection.sendRequest(workspaceRequest, { workspaceId: 'ws-doesnotexist' }));
    await assert.rejects(session.connection.sendRequest(workspacesRequest, {} as never), /organization/);
  });

  test('runs carry permissions, force-execute, counts and who queued them', async () => {
    const { runs } = await session.connection.sendRequest(runsRequest, { workspaceId: demoAppId, operations: ['plan_only', 'plan_and_apply'] });
    const awaiting = runs.find((run) => run.status === 'policy_checked')!;
    assert.equal(awaiting.isForceExecutable, false);
    assert.equal(awaiting.createdBy, 'olivia-owner');
    assert.equal(typeof awaiting.resourceAdditions, 'number');
    const pending = runs.find((run) => run.status === 'pending')!;
    assert.equal(pending.isForceExecutable, true);
    assert.equal(pending.createdBy, 'max-member');
    assert.equal(pending.permissions?.canForceExecute, true);
  });

  test('a pinned workspace is watched: its changes arrive through runsChanged', async () => {
    await emulator.control.advance(1_000); // a new rate-limit second: the earlier tests spent this one
    const { workspaces } = await session.connection.sendRequest(workspacesRequest, { organization: 'acme-demo', search: 'staging' });
    const staging = workspaces.find((w) => w.name === 'staging-api')!;
    // The first list is pushed as it is (the view starts from it), then each change of a run.
    const first = session.waitForNext<RunsChangedParams>(runsChangedNotification.method, (params) => params.workspaceId === staging.id, 20_000);
    await session.connection.sendNotification(watchWorkspacesNotification, { hostname, workspaceIds: [staging.id] });
    const listed = await first;
    const live = listed.runs.find((run) => run.message === 'Release 2.4.0-rc1');
    assert.ok(live, 'the first list has the live staging run');
    const moved = session.waitForNext<RunsChangedParams>(runsChangedNotification.method, (params) => params.runs.some((run) => run.id === live.id && run.status !== live.status), 20_000);
    await emulator.control.advance(300_000);
    const notice = await moved;
    assert.notEqual(notice.runs.find((run) => run.id === live.id)!.status, live.status);
  });

  test('resource addresses of the folder, and the edit that links it elsewhere', async () => {
    const addresses = await session.connection.sendRequest(resourceAddressesRequest, { folderUri: session.folderUri });
    assert.ok(addresses.length > 0);
    assert.ok(addresses.every((a) => a.uri.startsWith(session.folderUri)));
    assert.ok(addresses.some((a) => a.kind === 'resource'));
    const { edit, file } = await session.connection.sendRequest(linkFolderEditRequest, { folderUri: session.folderUri, organization: 'acme-demo', workspaceName: 'staging-api' });
    assert.ok(file.endsWith('.tf'));
    const edits = edit.changes?.[file] ?? [];
    assert.equal(edits.length, 1);
    assert.match(edits[0]!.newText, /organization = "acme-demo"/);
    assert.match(edits[0]!.newText, /name = "staging-api"/);
    await assert.rejects(session.connection.sendRequest(resourceAddressesRequest, { folderUri: 'file:///nowhere/at/all' }), /No Terraform module folder/);
  });

  test('a run variable is checked as Queue Plan types it: refused as the command would refuse it, warned against the folder\'s code', async () => {
    const check = (key: string, value: string, folderUri: string | null = session.folderUri) => session.connection.sendRequest(checkRunVariableRequest, { key, value, ...(folderUri ? { folderUri } : {}) });
    assert.deepEqual(await check('region', '"eu-central-1"'), {});
    assert.deepEqual(await check('instance_count', '3'), {});
    const unquoted = await check('region', 'eu-central-1');
    assert.match(unquoted.error ?? '', /not an HCL literal/);
    assert.match((await check('9lives', '1')).error ?? '', /not a valid variable name/);
    assert.match((await check('region', '  ')).error ?? '', /not an HCL literal/);
    // The folder's declarations: a warning only, since the run's configuration may not be the code on disk.
    const undeclared = await check('colour', '"blue"');
    assert.equal(undeclared.error, undefined);
    assert.match(undeclared.warning ?? '', /"colour" is not declared/);
    const mistyped = await check('allowed_cidrs', '"10.0.0.0/8"');
    assert.equal(mistyped.error, undefined);
    assert.match(mistyped.warning ?? '', /declared as list\(string\)/);
    // A secret is never quoted back, even when it does not fit.
    const secret = await check('db_password', '{ hunter2 = true }');
    assert.match(secret.warning ?? '', /declared as string/);
    assert.ok(!JSON.stringify(secret).includes('hunter2'), JSON.stringify(secret));
    // Without a folder (a pinned workspace), or with one no longer open, only the value itself is checked.
    assert.deepEqual(await check('colour', '"blue"', null), {});
    assert.deepEqual(await check('colour', '"blue"', 'file:///nowhere/at/all'), {});
    await assert.rejects(session.connection.sendRequest(checkRunVariableRequest, { key: 'region' } as never), /value must be a string/);
  });
});
