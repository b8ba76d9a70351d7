// Contract: create run with every attribute of spec §4.2, read it back with every include, and the
// section-7 rows of create (404, 422) and details (404) — including organization tokens.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, meaningOf, relatedId } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';

describe('contract: runs', () => {
  const harness = useEmulator();

  test('create with every attribute: 201, pending, and the attributes come back as sent', async () => {
    const client = harness.client('owner');
    const demoApp = await client.workspaces.getByName('acme-demo', 'demo-app');
    const configurationVersionId = relatedId(demoApp.workspace, 'current-configuration-version');
    assert.match(configurationVersionId ?? '', /^cv-/);
    const run = await client.runs.create({
      workspaceId: demoApp.workspace.id,
      configurationVersionId,
      message: 'Every attribute',
      allowEmptyApply: true,
      allowConfigGeneration: true,
      autoApply: false,
      debuggingMode: true,
      isDestroy: false,
      refresh: false,
      refreshOnly: false,
      replaceAddrs: ['terraform_data.app[0]'],
      targetAddrs: ['terraform_data.app', 'random_pet.name'],
      variables: [{ key: 'region', value: '"eu-west-3"' }],
      planOnly: true,
      savePlan: false,
      engineVersion: demoApp.workspace.attributes['terraform-version']!,
    });
    assert.equal(harness.requests().at(-1)!.status, 201);
    const attributes = run.attributes;
    assert.equal(attributes.status, 'pending');
    assert.equal(attributes.message, 'Every attribute');
    assert.equal(attributes['allow-empty-apply'], true);
    assert.equal(attributes['allow-config-generation'], true);
    assert.equal(attributes['debugging-mode'], true);
    assert.equal(attributes.refresh, false);
    assert.equal(attributes['plan-only'], true);
    assert.deepEqual(attributes['target-addrs'], ['terraform_data.app', 'random_pet.name']);
    assert.deepEqual(attributes['replace-addrs'], ['terraform_data.app[0]']);
    assert.deepEqual(attributes.variables, [{ key: 'region', value: '"eu-west-3"' }]);
    assert.equal(relatedId(run, 'workspace'), demoApp.workspace.id);
    assert.equal(relatedId(run, 'configuration-version'), configurationVersionId);
  });

  test('create with only the workspace takes the spec defaults (message, refresh, workspace auto-apply)', async () => {
    const client = harness.client('owner');
    const run = await client.runs.create({ workspaceId: await workspaceId(client, 'legacy-batch') });
    assert.match(run.attributes.message ?? '', /API/);
    assert.equal(run.attributes.refresh, true);
    assert.equal(run.attributes['is-destroy'], false);
    assert.equal(run.attributes['auto-apply'], false);
    assert.match(relatedId(run, 'configuration-version') ?? '', /^cv-/);
  });

  test('destroy and save-plan runs are created as such', async () => {
    const client = harness.client('owner');
    const legacy = await workspaceId(client, 'legacy-batch');
    const destroy = await client.runs.create({ workspaceId: legacy, isDestroy: true });
    assert.equal(destroy.attributes['is-destroy'], true);
    const saved = await client.runs.create({ workspaceId: legacy, savePlan: true });
    assert.equal(saved.attributes['save-plan'], true);
  });

  test('details with every include give the related resources in `included`', async () => {
    const client = harness.client('owner');
    const runs = await client.runs.listForWorkspace(await workspaceId(client, 'demo-app'));
    const runId = runs.items.find((run) => run.attributes.status === 'applied')!.id;
    const { run, included } = await client.runs.get(runId, {
      include: ['plan', 'apply', 'created_by', 'cost_estimate', 'configuration_version', 'configuration_version.ingress_attributes'],
    });
    assert.equal(run.id, runId);
    const types = new Set(included.map((resource) => resource.type));
    for (const type of ['plans', 'applies', 'users', 'cost-estimates', 'configuration-versions', 'ingress-attributes']) {
      assert.ok(types.has(type), `included has no ${type}: ${[...types].join(', ')}`);
    }
    assert.equal(included.find((resource) => resource.type === 'plans')?.id, relatedId(run, 'plan'));
  });

  test('spec §7 create 404: unknown workspace', async () => {
    const error = await harness.client('owner').runs.create({ workspaceId: 'ws-doesnotexist0000' }).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
    assert.equal(error.meaning, meaningOf('createRun', 404));
  });

  test('spec §7 create 404: organization tokens may not create runs', async () => {
    const owner = harness.client('owner');
    const before = (await owner.runs.listForWorkspace(await workspaceId(owner, 'legacy-batch'))).items.length;
    const error = await harness
      .client('organization')
      .runs.create({ workspaceId: await workspaceId(owner, 'legacy-batch') })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
    assert.equal((await owner.runs.listForWorkspace(await workspaceId(owner, 'legacy-batch'))).items.length, before);
  });

  test('spec §7 create 422: malformed body (is-destroy with refresh-only; engine-version without plan-only)', async () => {
    const client = harness.client('owner');
    const legacy = await workspaceId(client, 'legacy-batch');
    for (const input of [{ isDestroy: true, refreshOnly: true }, { engineVersion: '1.9.5' }]) {
      const error = await client.runs.create({ workspaceId: legacy, ...input }).catch((e: unknown) => e);
      assert.ok(error instanceof ServiceError);
      assert.equal(error.status, 422);
      assert.equal(error.meaning, meaningOf('createRun', 422));
      assert.ok(error.detail, 'the service says which attribute is wrong');
    }
  });

  test('a reader may not create runs (404)', async () => {
    const owner = harness.client('owner');
    const error = await harness.client('reader').runs.create({ workspaceId: await workspaceId(owner, 'demo-app') }).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
  });

  test('spec §7 details 404: run not found, or not visible to the caller', async () => {
    const missing = await harness.client('owner').runs.get('run-doesnotexist0000').catch((e: unknown) => e);
    assert.ok(missing instanceof ServiceError);
    assert.equal(missing.status, 404);
    assert.equal(missing.meaning, meaningOf('getRun', 404));
    const owner = harness.client('owner');
    const freeRun = (await owner.runs.listForOrganization('acme-free')).items[0]!;
    const hidden = await harness.client('member').runs.get(freeRun.id).catch((e: unknown) => e);
    assert.ok(hidden instanceof ServiceError);
    assert.equal(hidden.status, 404);
  });
});
