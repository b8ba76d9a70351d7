import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { startCore, workspaceId, type CoreHarness } from './core-harness';

const demoAppFilter = 'filter%5Bworkspace%5D%5Bname%5D=demo-app&filter%5Borganization%5D%5Bname%5D=acme-demo';

describe('variables (deprecated /vars)', () => {
  let h: CoreHarness;
  let demoApp: string;
  const create = (attributes: Record<string, unknown>, options: { token?: string; workspace?: string } = {}) =>
    h.api('POST', '/vars', {
      token: options.token,
      body: { data: { type: 'vars', attributes, relationships: { workspace: { data: { type: 'workspaces', id: options.workspace ?? demoApp } } } } },
    });
  const listDemoApp = async (token = 'owner') => (await h.api('GET', `/vars?${demoAppFilter}`, { token })).body.data as any[];

  before(async () => {
    h = await startCore();
    demoApp = await workspaceId(h, 'demo-app');
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  test('the seeded demo-app variables follow the demo contract; the sensitive value is never returned', async () => {
    const vars = await listDemoApp('reader');
    const byKey = new Map(vars.map((v) => [`${v.attributes.category}:${v.attributes.key}`, v.attributes]));
    assert.deepEqual([byKey.get('engine:instance_count').value, byKey.get('engine:instance_count').hcl], ['3', true]);
    assert.equal(byKey.get('engine:region').value, 'eu-north-1');
    assert.deepEqual([byKey.get('engine:db_password').value, byKey.get('engine:db_password').sensitive], ['hunter2-demo', false]);
    assert.deepEqual([byKey.get('engine:services').hcl, byKey.get('engine:services').value], [true, '{ web = { port = 80, public = true }, api = { port = 8080, public = false } }']);
    assert.equal(byKey.get('engine:legacy_flag').value, 'true');
    assert.equal(byKey.get('env:TF_VAR_enable_monitoring').value, 'true');
    assert.equal(byKey.get('env:TF_LOG').value, 'INFO');
    assert.deepEqual([byKey.get('env:AWS_SECRET_ACCESS_KEY').sensitive, byKey.get('env:AWS_SECRET_ACCESS_KEY').value], [true, null]);
    assert.equal(vars.length, 8);
    const raw = (await h.api('GET', `/vars?${demoAppFilter}`)).text;
    assert.equal(raw.includes('demo-secret-access-key'), false);
    assert.equal(vars[0].relationships.configurable.data.id, demoApp);
    assert.equal(vars[0].links.self, `/api/v2/vars/${vars[0].id}`);
  });

  test('create by relationship: 201 with defaults (value "", hcl false, sensitive false)', async () => {
    const result = await create({ key: 'new_engine_var', category: 'engine' });
    assert.equal(result.status, 201);
    assert.match(result.body.data.id, /^var-/);
    assert.deepEqual(
      { ...result.body.data.attributes, 'created-at': undefined, 'version-id': undefined },
      { key: 'new_engine_var', value: '', description: null, sensitive: false, category: 'engine', hcl: false, 'created-at': undefined, 'version-id': undefined },
    );
  });

  test('create by the deprecated filter body', async () => {
    const result = await h.api('POST', '/vars', {
      body: {
        data: { type: 'vars', attributes: { key: 'FROM_FILTER', value: 'x', category: 'env' } },
        filter: { workspace: { name: 'demo-app' }, organization: { name: 'acme-demo' } },
      },
    });
    assert.equal(result.status, 201);
    assert.equal(result.body.data.relationships.configurable.data.id, demoApp);
  });

  test('key and category are required; category is engine or env and "terraform" is read as engine', async () => {
    const noKey = await create({ category: 'engine' });
    assert.equal(noKey.status, 422);
    assert.equal(noKey.body.errors[0].source.pointer, '/data/attributes/key');
    const noCategory = await create({ key: 'k1' });
    assert.equal(noCategory.status, 422);
    assert.equal(noCategory.body.errors[0].source.pointer, '/data/attributes/category');
    const wrongCategory = await create({ key: 'k2', category: 'policy-set' });
    assert.equal(wrongCategory.status, 422);
    assert.match(wrongCategory.body.errors[0].detail, /"engine" or "env"/);
    const legacy = await create({ key: 'k3', category: 'terraform' });
    assert.equal(legacy.status, 201);
    assert.equal(legacy.body.data.attributes.category, 'engine');
    const wrongType = await create({ key: 'k4', category: 'env', hcl: 'yes' });
    assert.equal(wrongType.status, 422);
    assert.equal(wrongType.body.errors[0].source.pointer, '/data/attributes/hcl');
    const duplicate = await create({ key: 'k3', category: 'engine' });
    assert.equal(duplicate.status, 422);
    assert.match(duplicate.body.errors[0].detail, /already been taken/);
    const noWorkspace = await h.api('POST', '/vars', { body: { data: { type: 'vars', attributes: { key: 'k5', category: 'env' } } } });
    assert.equal(noWorkspace.status, 422);
    assert.equal(noWorkspace.body.errors[0].source.pointer, '/data/relationships/workspace');
  });

  test('a sensitive value is written once and never read back, not even in the create response', async () => {
    const result = await create({ key: 'SECRET_ONE', value: 's3cr3t-value', category: 'env', sensitive: true });
    assert.equal(result.status, 201);
    assert.equal(result.body.data.attributes.value, null);
    assert.equal(result.text.includes('s3cr3t-value'), false);
    const listed = (await h.api('GET', `/vars?${demoAppFilter}`)).text;
    assert.equal(listed.includes('s3cr3t-value'), false);
    const shown = await h.api('GET', `/vars/${result.body.data.id}`);
    assert.equal(shown.body.data.attributes.value, null);
    const made = await h.api('PATCH', `/vars/${result.body.data.id}`, { body: { data: { type: 'vars', id: result.body.data.id, attributes: { sensitive: false } } } });
    assert.equal(made.status, 422, 'a sensitive variable cannot be made readable');
    assert.equal(made.body.errors[0].source.pointer, '/data/attributes/sensitive');
    // With a new value it can: the old secret is replaced, never revealed.
    const replaced = await h.api('PATCH', `/vars/${result.body.data.id}`, { body: { data: { type: 'vars', id: result.body.data.id, attributes: { sensitive: false, value: 'now-public' } } } });
    assert.equal(replaced.status, 200);
    assert.deepEqual([replaced.body.data.attributes.sensitive, replaced.body.data.attributes.value], [false, 'now-public']);
    assert.equal(replaced.text.includes('s3cr3t-value'), false);
  });

  test('list filters are linked: one without the other is 422; neither lists what the caller may read', async () => {
    const onlyWorkspace = await h.api('GET', '/vars?filter%5Bworkspace%5D%5Bname%5D=demo-app');
    assert.equal(onlyWorkspace.status, 422);
    assert.match(onlyWorkspace.body.errors[0].detail, /filter\[organization\]\[name\]/);
    assert.equal((await h.api('GET', '/vars?filter[organization][name]=acme-demo')).status, 422);
    const all = (await h.api('GET', '/vars', { token: 'reader' })).body.data as any[];
    const workspaces = new Set(all.map((v) => v.relationships.configurable.data.id));
    assert.ok(workspaces.has(demoApp));
    const hello = await workspaceId(h, 'hello-world', 'acme-free');
    assert.equal(workspaces.has(hello), false, 'rita cannot read acme-free');
    assert.ok((await h.api('GET', '/vars')).body.data.some((v: any) => v.relationships.configurable.data.id === hello), 'olivia can');
    assert.equal((await h.api('GET', `/vars?filter[workspace][name]=hello-world&filter[organization][name]=acme-free`, { token: 'reader' })).status, 404);
  });

  test('update changes only the given attributes', async () => {
    const created = await create({ key: 'partial', value: 'one', category: 'engine', description: 'keep me', hcl: true });
    const id = created.body.data.id;
    const updated = await h.api('PATCH', `/vars/${id}`, { body: { data: { type: 'vars', id, attributes: { value: 'two' } } } });
    assert.equal(updated.status, 200);
    assert.deepEqual(
      [updated.body.data.attributes.key, updated.body.data.attributes.value, updated.body.data.attributes.description, updated.body.data.attributes.hcl, updated.body.data.attributes.category],
      ['partial', 'two', 'keep me', true, 'engine'],
    );
    const rejected = await h.api('PATCH', `/vars/${id}`, { body: { data: { type: 'vars', id, attributes: { value: 'three', category: 'nope' } } } });
    assert.equal(rejected.status, 422);
    assert.equal((await h.api('GET', `/vars/${id}`)).body.data.attributes.value, 'two', 'a rejected update changes nothing');
    const mismatched = await h.api('PATCH', `/vars/${id}`, { body: { data: { type: 'vars', id: 'var-other', attributes: {} } } });
    assert.equal(mismatched.status, 422);
  });

  test('writing needs write access: member (plan) and reader get 404, the organization token may', async () => {
    const id = (await create({ key: 'guarded', value: 'a', category: 'env' })).body.data.id;
    for (const role of ['member', 'reader']) {
      assert.equal((await h.api('PATCH', `/vars/${id}`, { token: role, body: { data: { type: 'vars', id, attributes: { value: 'b' } } } })).status, 404, role);
      assert.equal((await h.api('DELETE', `/vars/${id}`, { token: role })).status, 404, role);
      assert.equal((await create({ key: `by_${role}`, category: 'env' }, { token: role })).status, 404, role);
    }
    assert.equal((await h.api('PATCH', `/vars/${id}`, { token: 'organization', body: { data: { type: 'vars', id, attributes: { value: 'c' } } } })).status, 200);
  });

  test('delete answers 204 and the variable is gone', async () => {
    const id = (await create({ key: 'short_lived', category: 'engine' })).body.data.id;
    const deleted = await h.api('DELETE', `/vars/${id}`);
    assert.equal(deleted.status, 204);
    assert.equal((await h.api('GET', `/vars/${id}`)).status, 404);
    assert.equal((await listDemoApp()).some((v) => v.id === id), false);
    assert.equal((await h.api('DELETE', `/vars/${id}`)).status, 404);
  });

  test('the workspace-scoped list shows the same variables', async () => {
    const scoped = await h.api('GET', `/workspaces/${demoApp}/vars`);
    assert.equal(scoped.status, 200);
    assert.deepEqual(scoped.body.data.map((v: any) => v.id).sort(), (await listDemoApp()).map((v) => v.id).sort());
  });

  test('the workspace-scoped interface creates, shows, updates and deletes, as go-tfe and the CLI\'s users call it', async () => {
    const made = await h.api('POST', `/workspaces/${demoApp}/vars`, { body: { data: { type: 'vars', attributes: { key: 'scoped', value: '"one"', category: 'terraform', hcl: true } } } });
    assert.equal(made.status, 201);
    const id = made.body.data.id;
    // In the real service's words there (go-tfe's callers match `terraform`); the spec's interface says `engine`.
    assert.deepEqual([made.body.data.attributes.category, made.body.data.relationships.configurable.data.id], ['terraform', demoApp]);
    assert.equal(made.body.data.links.self, `/api/v2/workspaces/${demoApp}/vars/${id}`);
    const shown = (await h.api('GET', `/workspaces/${demoApp}/vars/${id}`)).body.data.attributes;
    assert.deepEqual([shown.value, shown.category], ['"one"', 'terraform']);
    assert.equal((await h.api('GET', `/vars/${id}`)).body.data.attributes.category, 'engine');
    const listed = (await h.api('GET', `/workspaces/${demoApp}/vars`)).body.data.map((v: any) => v.attributes.category);
    assert.ok(listed.includes('terraform') && !listed.includes('engine'), listed.join());
    const updated = await h.api('PATCH', `/workspaces/${demoApp}/vars/${id}`, { body: { data: { type: 'vars', id, attributes: { value: '"two"' } } } });
    assert.deepEqual([updated.status, updated.body.data.attributes.value, updated.body.data.attributes.hcl, updated.body.data.attributes.category], [200, '"two"', true, 'terraform']);
    assert.equal((await h.api('POST', `/workspaces/${demoApp}/vars`, { body: { data: { type: 'vars', attributes: { key: 'scoped', category: 'engine' } } } })).status, 422, 'keys are unique');
    assert.equal((await h.api('POST', `/workspaces/${demoApp}/vars`, { token: 'reader', body: { data: { type: 'vars', attributes: { key: 'by_reader', category: 'env' } } } })).status, 404);
    const other = await workspaceId(h, 'hello-world', 'acme-free');
    assert.equal((await h.api('GET', `/workspaces/${other}/vars/${id}`)).status, 404, 'a variable is found only under its own workspace');
    assert.equal((await h.api('DELETE', `/workspaces/${demoApp}/vars/${id}`)).status, 204);
    assert.equal((await h.api('GET', `/vars/${id}`)).status, 404);
  });
});
