// Contract: the deprecated /vars interface — create by relationship, list with the linked filters (both or
// neither), update only the given fields, delete; `engine` category; sensitive values never returned.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';

describe('contract: variables', () => {
  const harness = useEmulator();
  const scope = { organization: 'acme-demo', workspace: 'demo-app' };

  test('list with both filters gives the workspace\'s variables; sensitive values come back null', async () => {
    const variables = await harness.client().variables.list(scope);
    const byKey = new Map(variables.map((variable) => [variable.attributes.key, variable]));
    assert.equal(byKey.get('region')?.attributes.value, 'eu-north-1');
    assert.equal(byKey.get('region')?.attributes.category, 'engine');
    assert.equal(byKey.get('TF_LOG')?.attributes.category, 'env');
    assert.equal(byKey.get('services')?.attributes.hcl, true);
    const secret = byKey.get('AWS_SECRET_ACCESS_KEY');
    assert.equal(secret?.attributes.sensitive, true);
    assert.equal(secret?.attributes.value ?? null, null);
    assert.match(harness.requests().at(-1)!.path, /filter%5Borganization%5D%5Bname%5D=acme-demo&filter%5Bworkspace%5D%5Bname%5D=demo-app/);
  });

  test('list without filters covers every workspace the caller may read variables of', async () => {
    const variables = await harness.client().variables.list();
    const keys = new Set(variables.map((variable) => variable.attributes.key));
    assert.ok(keys.has('region') && keys.has('replicas') && keys.has('cidr_block'));
  });

  test('create by relationship, then update one field: the others stay', async () => {
    const client = harness.client();
    const created = await client.variables.create({
      workspaceId: await workspaceId(client, 'demo-app'),
      key: 'owner_email',
      value: 'ops@acme.example',
      description: 'Who to page',
      category: 'engine',
    });
    assert.match(created.id, /^var-/);
    assert.equal(created.attributes.hcl, false);
    assert.equal(created.attributes.sensitive, false);
    const updated = await client.variables.update(created.id, { value: 'sre@acme.example' });
    assert.equal(updated.attributes.value, 'sre@acme.example');
    assert.equal(updated.attributes.description, 'Who to page');
    assert.equal(updated.attributes.key, 'owner_email');
  });

  test('a sensitive variable is created write-only', async () => {
    const client = harness.client();
    const created = await client.variables.create({
      workspaceId: await workspaceId(client, 'demo-app'),
      key: 'DB_ROOT_PASSWORD',
      value: 'correct-horse-battery',
      category: 'env',
      sensitive: true,
    });
    assert.equal(created.attributes.value ?? null, null);
    const listed = (await client.variables.list(scope)).find((variable) => variable.id === created.id);
    assert.equal(listed?.attributes.value ?? null, null);
  });

  test('delete removes it', async () => {
    const client = harness.client();
    const legacy = (await client.variables.list(scope)).find((variable) => variable.attributes.key === 'legacy_flag')!;
    await client.variables.delete(legacy.id);
    const after = await client.variables.list(scope);
    assert.ok(!after.some((variable) => variable.id === legacy.id));
  });

  test('a missing key is refused with a 422 ServiceError', async () => {
    const client = harness.client();
    const error = await client.variables
      .create({ workspaceId: await workspaceId(client, 'demo-app'), key: '', category: 'engine' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 422);
  });

  test('a reader may not create variables (404)', async () => {
    const owner = harness.client();
    const error = await harness
      .client('reader')
      .variables.create({ workspaceId: await workspaceId(owner, 'demo-app'), key: 'x_var', category: 'engine' })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
  });
});
