// Contract: workspaces — list with search[name], show by organization + name and by id, lock state, current run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, collectItems, currentRunId, includedCurrentRun, workspaceLock } from '../../server/src/api/index';
import { useEmulator } from './support/harness';

describe('contract: workspaces', () => {
  const harness = useEmulator();

  test('list with search[name] narrows the organization\'s workspaces', async () => {
    const client = harness.client();
    const all = await collectItems(client.workspaces.pages('acme-demo'));
    const names = all.map((workspace) => workspace.attributes.name).sort();
    assert.deepEqual(names, ['demo-app', 'legacy-batch', 'prod-network', 'sandbox', 'staging-api']);
    const found = await client.workspaces.list('acme-demo', { searchName: 'staging' });
    assert.deepEqual(found.items.map((workspace) => workspace.attributes.name), ['staging-api']);
    assert.ok(harness.requests().at(-1)!.path.includes('search%5Bname%5D=staging'));
  });

  test('show by organization + name and by id give the same workspace', async () => {
    const client = harness.client();
    const byName = await client.workspaces.getByName('acme-demo', 'demo-app');
    const byId = await client.workspaces.getById(byName.workspace.id);
    assert.equal(byId.workspace.attributes.name, 'demo-app');
    assert.equal(byId.workspace.id, byName.workspace.id);
  });

  test('lock state: sandbox is locked by a user with a reason', async () => {
    const { workspace } = await harness.client().workspaces.getByName('acme-demo', 'sandbox');
    const lock = workspaceLock(workspace);
    assert.equal(lock.locked, true);
    assert.match(lock.reason ?? '', /Maintenance/);
    assert.equal(lock.lockedBy?.type, 'users');
  });

  test('current run: its id from the relationship leads to a run of that workspace', async () => {
    const client = harness.client();
    // include=current_run is accepted; the emulator does not materialise the run in `included` (yet), so the
    // helper must then give undefined rather than a wrong resource.
    const document = await client.workspaces.getByName('acme-demo', 'demo-app', { include: ['current_run'] });
    const runId = currentRunId(document.workspace);
    assert.match(runId ?? '', /^run-/);
    const included = includedCurrentRun(document);
    assert.ok(included === undefined || included.id === runId);
    const { run } = await client.runs.get(runId!);
    assert.equal(run.relationships?.['workspace']?.data && !Array.isArray(run.relationships['workspace'].data) ? run.relationships['workspace'].data.id : undefined, document.workspace.id);
  });

  test('an unknown workspace, or one in an organization the caller is not in, is a 404', async () => {
    const missing = await harness.client().workspaces.getByName('acme-demo', 'no-such-ws').catch((e: unknown) => e);
    assert.ok(missing instanceof ServiceError);
    assert.equal(missing.status, 404);
    const foreign = await harness.client('member').workspaces.getByName('acme-free', 'hello-world').catch((e: unknown) => e);
    assert.ok(foreign instanceof ServiceError);
    assert.equal(foreign.status, 404);
  });
});
