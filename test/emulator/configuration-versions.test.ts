import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, beforeEach, describe, test } from 'node:test';
import { pack } from 'tar-stream';
import { maxUnpackedBytes, readTarGz } from '../../emulator/src/store/archive';
import { startCore, workspaceId, type CoreHarness } from './core-harness';

async function tarGz(files: Record<string, string>): Promise<Buffer> {
  const archive = pack();
  for (const [name, content] of Object.entries(files)) archive.entry({ name }, content);
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return gzipSync(Buffer.concat(chunks));
}

describe('readTarGz', () => {
  test('reads every file of a .tar.gz, paths relative to the root', async () => {
    const files = await readTarGz(await tarGz({ 'main.tf': 'resource "x" "y" {}', './modules/a/variables.tf': 'variable "a" {}' }));
    assert.deepEqual([...files.keys()].sort(), ['main.tf', 'modules/a/variables.tf']);
    assert.equal(files.get('main.tf')!.toString(), 'resource "x" "y" {}');
  });

  test('says what is wrong with an empty, non-gzip or non-tar upload', async () => {
    await assert.rejects(readTarGz(Buffer.alloc(0)), /empty/);
    await assert.rejects(readTarGz(Buffer.from('plain text')), /not gzip-compressed/);
    await assert.rejects(readTarGz(gzipSync(Buffer.from('not a tar archive at all, just words'.repeat(20)))), /tar/);
  });
});

describe('configuration versions', () => {
  let h: CoreHarness;
  let demoApp: string;
  before(async () => {
    h = await startCore();
    demoApp = await workspaceId(h, 'demo-app');
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  const create = (attributes: Record<string, unknown> = {}, token = 'owner') =>
    h.api('POST', `/workspaces/${demoApp}/configuration-versions`, { token, body: { data: { type: 'configuration-versions', attributes } } });

  test('create answers 201, pending, with a one-time upload URL', async () => {
    const result = await create({ 'auto-queue-runs': false });
    assert.equal(result.status, 201);
    const version = result.body.data;
    assert.match(version.id, /^cv-/);
    assert.equal(version.attributes.status, 'pending');
    assert.equal(version.attributes['auto-queue-runs'], false);
    assert.equal(version.attributes.speculative, false);
    assert.ok(version.attributes['upload-url'].startsWith(`${h.emulator.url}/`));
    const shown = await h.api('GET', `/configuration-versions/${version.id}`);
    assert.equal(shown.body.data.attributes.status, 'pending');
    assert.equal('upload-url' in shown.body.data.attributes, false, 'the upload URL is shown only once');
  });

  test('uploading a .tar.gz without a token makes it uploaded and the workspace\'s latest', async () => {
    const version = (await create({ 'auto-queue-runs': false })).body.data;
    const upload = await fetch(version.attributes['upload-url'], { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: await tarGz({ 'main.tf': 'variable "region" {}' }) });
    assert.equal(upload.status, 200);
    const shown = await h.api('GET', `/configuration-versions/${version.id}`);
    assert.equal(shown.body.data.attributes.status, 'uploaded');
    assert.ok(shown.body.data.attributes['status-timestamps']['uploaded-at']);
    const workspace = await h.api('GET', `/workspaces/${demoApp}`);
    assert.equal(workspace.body.data.relationships['current-configuration-version'].data.id, version.id);
    const again = await fetch(version.attributes['upload-url'], { method: 'PUT', body: await tarGz({ 'main.tf': '' }) });
    assert.equal(again.status, 409, 'an upload URL is good for one upload');
  });

  test('an upload that is not a .tar.gz errors the version with a clear message', async () => {
    const version = (await create({ 'auto-queue-runs': false })).body.data;
    const upload = await fetch(version.attributes['upload-url'], { method: 'PUT', body: 'just some text' });
    assert.equal(upload.status, 422);
    const body = (await upload.json()) as { errors: Array<{ detail: string }> };
    assert.match(body.errors[0].detail, /gzip/);
    const shown = await h.api('GET', `/configuration-versions/${version.id}`);
    assert.equal(shown.body.data.attributes.status, 'errored');
    assert.match(shown.body.data.attributes['error-message'], /gzip/);
  });

  test('an archive that unpacks past the limit (a gzip bomb) is 413, and the emulator never holds it', async () => {
    const version = (await create({ 'auto-queue-runs': false })).body.data;
    // 300 MiB of zeros gzip to about 300 KiB: the bytes sent are small, what they unpack to is not.
    const bomb = gzipSync(Buffer.alloc(maxUnpackedBytes + 1024 * 1024), { level: 9 });
    assert.ok(bomb.length < 2 * 1024 * 1024);
    const upload = await fetch(version.attributes['upload-url'], { method: 'PUT', body: bomb });
    assert.equal(upload.status, 413);
    assert.match(((await upload.json()) as { errors: Array<{ detail: string }> }).errors[0].detail, /unpacks to more than 256 MiB/);
    assert.equal((await h.api('GET', `/configuration-versions/${version.id}`)).body.data.attributes.status, 'errored');
  });

  test('with auto-queue-runs the upload queues a run', async () => {
    const runsBefore = (await h.api('GET', `/workspaces/${demoApp}/runs`)).body.data.length;
    const version = (await create()).body.data;
    assert.equal(version.attributes['auto-queue-runs'], true, 'the default');
    await fetch(version.attributes['upload-url'], { method: 'PUT', body: await tarGz({ 'main.tf': 'resource "null_resource" "a" {}' }) });
    const runs = (await h.api('GET', `/workspaces/${demoApp}/runs?include=configuration_version`)).body;
    assert.equal(runs.data.length, runsBefore + 1);
    assert.equal(runs.data[0].relationships['configuration-version'].data.id, version.id);
  });

  test('list of a workspace\'s versions, newest first; ingress attributes of the VCS-sourced one', async () => {
    const list = await h.api('GET', `/workspaces/${demoApp}/configuration-versions`);
    assert.equal(list.status, 200);
    const seeded = list.body.data.find((v: any) => v.attributes.source === 'github');
    assert.ok(seeded);
    const ingress = await h.api('GET', `/configuration-versions/${seeded.id}/ingress-attributes`);
    assert.equal(ingress.body.data.type, 'ingress-attributes');
    assert.equal(ingress.body.data.attributes.branch, 'main');
    const included = await h.api('GET', `/configuration-versions/${seeded.id}?include=ingress_attributes`);
    assert.equal(included.body.included[0].id, ingress.body.data.id);
  });

  test('download returns the uploaded files as a .tar.gz', async () => {
    const version = (await create({ 'auto-queue-runs': false })).body.data;
    await fetch(version.attributes['upload-url'], { method: 'PUT', body: await tarGz({ 'main.tf': 'output "x" { value = 1 }' }) });
    const download = await fetch(`${h.emulator.url}/api/v2/configuration-versions/${version.id}/download`, { headers: { Authorization: `Bearer ${h.emulator.tokens.reader}` } });
    assert.equal(download.status, 200);
    const files = await readTarGz(Buffer.from(await download.arrayBuffer()));
    assert.equal(files.get('main.tf')!.toString(), 'output "x" { value = 1 }');
  });

  test('readers and organization tokens may not create versions; readers may read them', async () => {
    assert.equal((await create({}, 'reader')).status, 404);
    assert.equal((await create({}, 'organization')).status, 404);
    const list = await h.api('GET', `/workspaces/${demoApp}/configuration-versions`, { token: 'reader' });
    assert.equal(list.status, 200);
    assert.equal((await h.api('GET', `/configuration-versions/${list.body.data[0].id}`, { token: 'reader' })).status, 200);
  });

  test('an unknown upload URL is 404', async () => {
    const response = await fetch(`${h.emulator.url}/_uploads/not-a-real-secret`, { method: 'PUT', body: 'x' });
    assert.equal(response.status, 404);
  });
});
