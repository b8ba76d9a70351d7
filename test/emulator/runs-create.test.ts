// POST /runs (spec §4.2, §7): defaults, validation with clear 422s, and 404 for whoever may not queue.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { addConfigurationVersion } from '../../emulator/src/seeds/builders';
import { defaultRunMessage } from '../../emulator/src/runs';
import { runBody, startHarness, type Harness } from './runs-harness';

describe('POST /runs', () => {
  let h: Harness;
  const create = (attributes: Record<string, unknown>, options: { token?: string; relationships?: Record<string, unknown>; workspaceId?: string } = {}) =>
    h.api('POST', '/api/v2/runs', {
      token: options.token,
      body: runBody(options.workspaceId ?? h.workspace.id, attributes, options.relationships ?? {}),
    });
  const cvRelationship = (id: string) => ({ 'configuration-version': { data: { type: 'configuration-versions', id } } });

  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());
  beforeEach(() => {
    h.engine.reset();
    h.workspace.autoApply = false;
    h.workspace.latestConfigurationVersionId = h.version.id;
  });

  test('201 with the documented defaults', async () => {
    const result = await create({});
    assert.equal(result.status, 201);
    const attributes = result.body.data.attributes;
    assert.equal(result.body.data.type, 'runs');
    assert.match(result.body.data.id, /^run-[0-9A-Za-z]{16}$/);
    assert.equal(attributes.message, defaultRunMessage);
    assert.equal(attributes.source, 'svc-api');
    assert.equal(attributes['trigger-reason'], 'manual');
    assert.equal(attributes['auto-apply'], false);
    assert.equal(attributes.refresh, true);
    assert.equal(attributes['refresh-only'], false);
    assert.equal(attributes['is-destroy'], false);
    assert.equal(attributes['plan-only'], false);
    assert.equal(attributes['save-plan'], false);
    assert.equal(attributes['debugging-mode'], false);
    assert.deepEqual(attributes.variables, []);
    assert.equal(attributes['engine-version'], h.workspace.terraformVersion);
    assert.equal(result.body.data.relationships['configuration-version'].data.id, h.version.id);
    assert.equal(result.body.data.relationships['created-by'].data.id, h.people.owner.id);
    assert.equal(result.body.data.links.self, `/api/v2/runs/${result.body.data.id}`);
  });

  test('auto-apply defaults to the workspace setting, and an explicit value wins', async () => {
    h.workspace.autoApply = true;
    assert.equal((await create({})).body.data.attributes['auto-apply'], true);
    assert.equal((await create({ 'auto-apply': false })).body.data.attributes['auto-apply'], false);
  });

  test('plan-only defaults from the configuration version (a speculative version makes a plan-only run)', async () => {
    const speculative = addConfigurationVersion(h.store, h.workspace, 'speculative', { speculative: true });
    const result = await create({}, { relationships: cvRelationship(speculative.id) });
    assert.equal(result.body.data.attributes['plan-only'], true);
  });

  test('the default configuration version is the one most recently created or used for a run in the workspace', async () => {
    const older = h.version;
    const newer = addConfigurationVersion(h.store, h.workspace, 'v2');
    assert.equal((await create({})).body.data.relationships['configuration-version'].data.id, newer.id);
    await create({}, { relationships: cvRelationship(older.id) });
    assert.equal((await create({})).body.data.relationships['configuration-version'].data.id, older.id);
  });

  test('a configuration version from another workspace of the organization may be promoted', async () => {
    const { version } = h.addWorkspace('staging');
    const result = await create({}, { relationships: cvRelationship(version.id) });
    assert.equal(result.status, 201);
    assert.equal(result.body.data.relationships['configuration-version'].data.id, version.id);
  });

  test('422 for a configuration version still being processed; 404 for one that does not exist', async () => {
    const pending = addConfigurationVersion(h.store, h.workspace, 'pending', { status: 'pending' });
    const result = await create({}, { relationships: cvRelationship(pending.id) });
    assert.equal(result.status, 422);
    assert.equal(result.body.errors[0].detail, 'Configuration version is still being processed.');
    assert.equal((await create({}, { relationships: cvRelationship('cv-nothere00000000') })).status, 404);
  });

  test('422 when is-destroy and refresh-only are both true', async () => {
    const result = await create({ 'is-destroy': true, 'refresh-only': true });
    assert.equal(result.status, 422);
    assert.equal(result.body.errors[0].source.pointer, '/data/attributes/refresh-only');
    assert.match(result.body.errors[0].detail, /cannot both be true/);
  });

  test('engine-version is accepted only for plan-only runs, and only a version the organization has', async () => {
    const notPlanOnly = await create({ 'engine-version': '1.8.5' });
    assert.equal(notPlanOnly.status, 422);
    assert.equal(notPlanOnly.body.errors[0].source.pointer, '/data/attributes/engine-version');
    const ok = await create({ 'engine-version': '1.8.5', 'plan-only': true });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.data.attributes['engine-version'], '1.8.5');
    const unknown = await create({ 'engine-version': '0.1.0', 'plan-only': true });
    assert.equal(unknown.status, 422);
    assert.match(unknown.body.errors[0].detail, /not available/);
  });

  test('run variables must be HCL literals; the error names the key but never echoes the value', async () => {
    const good = await create({
      variables: [
        { key: 'region', value: '"eu-west-1"' },
        { key: 'count', value: '3' },
        { key: 'tags', value: '{ team = "web", tier = 2 }' },
        { key: 'cidrs', value: '["10.0.0.0/8"]' },
      ],
    });
    assert.equal(good.status, 201);
    assert.deepEqual(good.body.data.attributes.variables[0], { key: 'region', value: '"eu-west-1"' });
    for (const value of ['eu-west-1', 'var.other', '"${var.x}"', '{ a = ', 'upper("x")']) {
      const bad = await create({ variables: [{ key: 'secret_thing', value }] });
      assert.equal(bad.status, 422, value);
      assert.equal(bad.body.errors[0].source.pointer, '/data/attributes/variables/0/value');
      assert.match(bad.body.errors[0].detail, /secret_thing/);
      assert.ok(!bad.text.includes(value), `the value ${value} must not be echoed`);
    }
    assert.equal((await create({ variables: [{ key: 'x' }] })).status, 422);
    assert.equal((await create({ variables: 'region=1' })).status, 422);
  });

  test('422 with a pointer for wrong types and a missing workspace; 422 for a body that is not JSON either (spec §7: malformed body)', async () => {
    const wrongType = await create({ 'is-destroy': 'yes' });
    assert.equal(wrongType.status, 422);
    assert.equal(wrongType.body.errors[0].source.pointer, '/data/attributes/is-destroy');
    assert.equal((await create({ 'target-addrs': 'aws_instance.web' })).status, 422);
    const noWorkspace = await h.api('POST', '/api/v2/runs', { body: { data: { type: 'runs', attributes: {} } } });
    assert.equal(noWorkspace.status, 422);
    assert.equal(noWorkspace.body.errors[0].source.pointer, '/data/relationships/workspace/data/id');
    assert.equal((await h.api('POST', '/api/v2/runs', { body: { nothing: true } })).status, 422);
    const response = await fetch(`${h.url}/api/v2/runs`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.tokens.owner}`, 'Content-Type': 'application/vnd.api+json' },
      body: '{"data": ',
    });
    assert.equal(response.status, 422);
    // Elsewhere, where the spec gives no status, a body that is not JSON stays a 400.
    const elsewhere = await fetch(`${h.url}/api/v2/vars`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${h.tokens.owner}`, 'Content-Type': 'application/vnd.api+json' },
      body: '{"data": ',
    });
    assert.equal(elsewhere.status, 400);
  });

  test('404 for an unknown workspace, a reader and the organization token; 201 for a member (may queue plans)', async () => {
    assert.equal((await create({}, { workspaceId: 'ws-doesnotexist0000' })).status, 404);
    assert.equal((await create({}, { token: 'reader' })).status, 404);
    const orgToken = await create({}, { token: 'organization' });
    assert.equal(orgToken.status, 404);
    assert.deepEqual(orgToken.body.errors[0].title, 'not found');
    assert.equal((await create({}, { token: 'member' })).status, 201);
    assert.equal((await create({}, { token: 'team' })).status, 201);
  });

  test('a destroy plan: 404 where allow-destroy-plan is off or for a member (plan access), as can-queue-destroy says', async () => {
    const workspaceDocument = async (token?: string) => (await h.api('GET', `/api/v2/workspaces/${h.workspace.id}`, { token })).body.data.attributes;
    try {
      assert.equal((await workspaceDocument())['allow-destroy-plan'], true, 'on by default');
      assert.equal((await workspaceDocument()).permissions['can-queue-destroy'], true);
      assert.equal((await create({ 'is-destroy': true })).status, 201);
      assert.equal((await workspaceDocument('member')).permissions['can-queue-destroy'], false);
      assert.equal((await create({ 'is-destroy': true }, { token: 'member' })).status, 404);

      const patched = await h.api('PATCH', `/api/v2/workspaces/${h.workspace.id}`, { body: { data: { type: 'workspaces', attributes: { 'allow-destroy-plan': false } } } });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.data.attributes['allow-destroy-plan'], false);
      assert.equal(patched.body.data.attributes.permissions['can-queue-destroy'], false);
      const refused = await create({ 'is-destroy': true });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.errors[0].title, 'not found');
      assert.equal((await create({})).status, 201, 'other runs are still queued');
    } finally {
      h.workspace.allowDestroyPlan = undefined;
    }
  });

  test('415 without the JSON:API content type', async () => {
    const result = await h.api('POST', '/api/v2/runs', { body: runBody(h.workspace.id), contentType: 'application/json' });
    assert.equal(result.status, 415);
  });

  test('target-addrs narrows the plan and replace-addrs forces replacement', async () => {
    const targeted = (await create({ 'target-addrs': ['aws_instance.web'] })).body.data.id;
    await h.clock.advance(60_000);
    const plan = (await h.api('GET', `/api/v2/runs/${targeted}/plan`)).body.data.attributes;
    assert.equal(plan['resource-additions'], 1);
    await h.api('POST', `/api/v2/runs/${targeted}/actions/discard`);
    const replacing = (await create({ 'replace-addrs': ['aws_s3_bucket.assets'] })).body.data;
    assert.deepEqual(replacing.attributes['replace-addrs'], ['aws_s3_bucket.assets']);
    await h.clock.advance(60_000);
    const replacePlan = (await h.api('GET', `/api/v2/runs/${replacing.id}/plan`)).body.data.attributes;
    assert.equal(replacePlan['resource-destructions'], 1);
  });
});
