// State versions over HTTP: the lock rule, serial and lineage, MD5, uploads through the returned URLs, the current
// one, its outputs with sensitive values only on their own read, and a remote apply writing the next one.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { pack } from 'tar-stream';
import { startCore, workspaceId, type CoreHarness } from './core-harness';

const stateFile = (serial: number, lineage: string, outputs: Record<string, unknown> = {}) =>
  Buffer.from(JSON.stringify({ version: 4, terraform_version: '1.11.4', serial, lineage, outputs, resources: [] }));
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const create = (serial: number, bytes: Buffer | undefined, lineage = 'lin-1', extra: Record<string, unknown> = {}) => ({
  data: { type: 'state-versions', attributes: { serial, md5: md5(bytes ?? Buffer.alloc(0)), lineage, ...(bytes ? { state: bytes.toString('base64') } : {}), ...extra } },
});

describe('state versions', () => {
  let h: CoreHarness;
  let sandbox: string;
  before(async () => {
    h = await startCore({ seed: 'empty' });
    sandbox = await workspaceId(h, 'demo-app');
  });
  after(() => h.close());

  test('a workspace without state has no current state version (404)', async () => {
    assert.equal((await h.api('GET', `/workspaces/${sandbox}/current-state-version`)).status, 404);
    assert.equal((await h.api('GET', `/workspaces/${sandbox}/current-state-version-outputs`)).status, 404);
  });

  test('creating one needs the caller\'s lock on the workspace (409 otherwise)', async () => {
    const refused = await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(1, stateFile(1, 'lin-1')) });
    assert.equal(refused.status, 409);
    assert.match(refused.text, /locked by you/);
  });

  test('inline state: finalized at once, current, with outputs; sensitive values only on the output\'s own read', async () => {
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/actions/lock`, { body: { reason: 'state push' } })).status, 200);
    const bytes = stateFile(1, 'lin-1', { region: { value: 'eu', type: 'string' }, password: { value: 'hunter2', type: 'string', sensitive: true } });
    const made = await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(1, bytes) });
    assert.equal(made.status, 201);
    assert.equal(made.body.data.attributes.status, 'finalized');
    const current = await h.api('GET', `/workspaces/${sandbox}/current-state-version`);
    assert.equal(current.body.data.id, made.body.data.id);
    const download = await fetch(current.body.data.attributes['hosted-state-download-url']);
    assert.equal(Buffer.from(await download.arrayBuffer()).toString(), bytes.toString(), 'the download URL serves the state, with no token');
    const outputs = await h.api('GET', `/workspaces/${sandbox}/current-state-version-outputs`);
    const byName = Object.fromEntries(outputs.body.data.map((o: any) => [o.attributes.name, o]));
    assert.equal(byName.region.attributes.value, 'eu');
    assert.equal(byName.password.attributes.sensitive, true);
    assert.equal(byName.password.attributes.value, null, 'a sensitive value is not in the list');
    const one = await h.api('GET', `/state-version-outputs/${byName.password.id}`);
    assert.equal(one.body.data.attributes.value, 'hunter2');
  });

  test('serial must grow, lineage must match, the MD5 must be the state\'s', async () => {
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(1, stateFile(1, 'lin-1')) })).status, 409);
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(2, stateFile(2, 'other'), 'other') })).status, 409);
    const wrong = create(2, stateFile(2, 'lin-1'));
    wrong.data.attributes.md5 = '0'.repeat(32);
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: wrong })).status, 422);
  });

  test('without inline state: pending with upload URLs, finalized by the upload', async () => {
    const bytes = stateFile(2, 'lin-1');
    const made = await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: { data: { type: 'state-versions', attributes: { serial: 2, md5: md5(bytes), lineage: 'lin-1' } } } });
    assert.equal(made.status, 201);
    assert.equal(made.body.data.attributes.status, 'pending');
    const upload = await fetch(made.body.data.attributes['hosted-state-upload-url'], { method: 'PUT', body: bytes });
    assert.equal(upload.status, 200);
    const read = await h.api('GET', `/state-versions/${made.body.data.id}`);
    assert.equal(read.body.data.attributes.status, 'finalized');
    assert.equal(read.body.data.attributes['hosted-state-upload-url'], undefined, 'upload URLs are not shown once finalized');
    const list = await h.api('GET', '/state-versions?filter[organization][name]=acme-demo&filter[workspace][name]=demo-app');
    assert.deepEqual(list.body.data.map((v: any) => v.attributes.serial), [2, 1]);
    await h.api('POST', `/workspaces/${sandbox}/actions/unlock`);
  });

  test('a remote apply writes the next state version (serial + 1, lineage kept)', async () => {
    const before = (await h.api('GET', `/workspaces/${sandbox}/current-state-version`)).body.data;
    const version = await h.api('POST', `/workspaces/${sandbox}/configuration-versions`, { body: { data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } } } });
    const archive = pack();
    archive.entry({ name: 'main.tf' }, 'resource "terraform_data" "marker" {\n  input = "x"\n}\n');
    archive.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of archive) chunks.push(chunk as Buffer);
    assert.equal((await fetch(version.body.data.attributes['upload-url'], { method: 'PUT', body: gzipSync(Buffer.concat(chunks)) })).status, 200);
    const run = await h.api('POST', '/runs', { body: { data: { type: 'runs', attributes: { 'auto-apply': true }, relationships: { workspace: { data: { type: 'workspaces', id: sandbox } } } } } });
    assert.equal(run.status, 201);
    for (let i = 0; i < 60; i++) {
      await h.emulator.control.advance(10_000);
      if ((await h.api('GET', `/runs/${run.body.data.id}`)).body.data.attributes.status === 'applied') break;
    }
    assert.equal((await h.api('GET', `/runs/${run.body.data.id}`)).body.data.attributes.status, 'applied');
    const after = (await h.api('GET', `/workspaces/${sandbox}/current-state-version`)).body.data;
    assert.equal(after.attributes.serial, before.attributes.serial + 1);
    assert.equal(after.relationships.run.data.id, run.body.data.id);
    const state = JSON.parse(await (await fetch(after.attributes['hosted-state-download-url'])).text());
    assert.equal(state.lineage, 'lin-1');
  });

  test('force (state push -force) skips the serial and lineage checks: what it pushed becomes the current state', async () => {
    const serialsNow = async () => (await h.api('GET', '/state-versions?filter[organization][name]=acme-demo&filter[workspace][name]=demo-app')).body.data.map((v: any) => v.attributes.serial);
    const latest = (await serialsNow())[0];
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/actions/lock`, { body: { reason: 'state push -force' } })).status, 200);
    const older = stateFile(1, 'lin-1', { pushed: { value: 'older', type: 'string' } });
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(1, older, 'lin-1', { force: false }) })).status, 409, 'force: false checks as before');
    const forced = await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(1, older, 'lin-1', { force: true }) });
    assert.equal(forced.status, 201);
    assert.equal((await h.api('GET', `/workspaces/${sandbox}/current-state-version`)).body.data.id, forced.body.data.id, 'current although its serial is lower');

    // As the CLI pushes: announced without the file (another lineage, the same serial), then uploaded.
    const otherLineage = stateFile(1, 'lin-2');
    const announced = await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(1, undefined, 'lin-2', { force: true, md5: md5(otherLineage) }) });
    assert.equal(announced.status, 201);
    assert.equal((await fetch(announced.body.data.attributes['hosted-state-upload-url'], { method: 'PUT', body: otherLineage })).status, 200);
    const current = (await h.api('GET', `/workspaces/${sandbox}/current-state-version`)).body.data;
    assert.equal(current.id, announced.body.data.id);
    assert.equal(JSON.parse(await (await fetch(current.attributes['hosted-state-download-url'])).text()).lineage, 'lin-2');
    assert.equal((await h.api('GET', `/workspaces/${sandbox}/current-state-version-outputs`)).body.data.length, 0, 'the outputs are the pushed state\'s');
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(2, stateFile(2, 'lin-1')) })).status, 409, 'the next push follows the forced lineage');
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(2, stateFile(2, 'lin-2'), 'lin-2') })).status, 201);
    assert.deepEqual((await serialsNow()).slice(0, 4), [2, 1, 1, latest], 'the list is newest first, by creation');
    assert.equal((await h.api('POST', `/workspaces/${sandbox}/state-versions`, { body: create(3, stateFile(3, 'lin-2'), 'lin-2', { force: 'yes' }) })).status, 422);
    await h.api('POST', `/workspaces/${sandbox}/actions/unlock`);
  });
});
