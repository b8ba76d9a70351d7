// Contract: configuration versions — create (upload-url only in that response), upload a real .tar.gz to the
// pre-signed URL without the token, read the status; an auto-queueing upload starts a run.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, collectItems, relatedId } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';
import { tarGz } from './support/archive';

const configuration = {
  'main.tf': 'resource "terraform_data" "app" {\n  input = var.region\n}\n',
  'variables.tf': 'variable "region" {\n  type    = string\n  default = "eu-west-1"\n}\n',
};

describe('contract: configuration versions', () => {
  const harness = useEmulator();

  test('create gives a pending version with an upload-url; later reads hide the url', async () => {
    const client = harness.client();
    const created = await client.configurationVersions.create(await workspaceId(client, 'legacy-batch'), { autoQueueRuns: false });
    assert.equal(created.attributes.status, 'pending');
    assert.equal(created.attributes['auto-queue-runs'], false);
    assert.match(created.attributes['upload-url'] ?? '', /^http:\/\/127\.0\.0\.1:\d+\//);
    const read = await client.configurationVersions.get(created.id);
    assert.equal(read.attributes['upload-url'] ?? undefined, undefined);
  });

  test('upload a .tar.gz: the version becomes uploaded; the upload request carried no token', async () => {
    const client = harness.client();
    const created = await client.configurationVersions.create(await workspaceId(client, 'legacy-batch'), { autoQueueRuns: false });
    await client.configurationVersions.upload(created.attributes['upload-url']!, await tarGz(configuration));
    const upload = harness.requests().at(-1)!;
    assert.equal(upload.method, 'PUT');
    assert.equal(upload.tokenRole, undefined, 'the pre-signed upload is sent without the API token');
    const settled = await client.configurationVersions.waitUntilProcessed(created.id);
    assert.equal(settled.attributes.status, 'uploaded');
  });

  test('an auto-queueing upload queues a run on that configuration version', async () => {
    const client = harness.client();
    const legacy = await workspaceId(client, 'legacy-batch');
    const created = await client.configurationVersions.create(legacy, { autoQueueRuns: true });
    await client.configurationVersions.upload(created.attributes['upload-url']!, await tarGz(configuration));
    const runs = await collectItems(client.runs.workspacePages(legacy));
    assert.ok(runs.some((run) => relatedId(run, 'configuration-version') === created.id));
  });

  test('a speculative version gives plan-only runs', async () => {
    const client = harness.client();
    const legacy = await workspaceId(client, 'legacy-batch');
    const created = await client.configurationVersions.create(legacy, { speculative: true, autoQueueRuns: false });
    assert.equal(created.attributes.speculative, true);
    await client.configurationVersions.upload(created.attributes['upload-url']!, await tarGz(configuration));
    const run = await client.runs.create({ workspaceId: legacy, configurationVersionId: created.id });
    assert.equal(run.attributes['plan-only'], true);
  });

  test('an archive that is not a .tar.gz is refused (422) and the version errors', async () => {
    const client = harness.client();
    const created = await client.configurationVersions.create(await workspaceId(client, 'legacy-batch'), { autoQueueRuns: false });
    const error = await client.configurationVersions
      .upload(created.attributes['upload-url']!, new TextEncoder().encode('not an archive'))
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 422);
    assert.equal(error.operation, 'uploadConfiguration');
    assert.equal((await client.configurationVersions.get(created.id)).attributes.status, 'errored');
  });

  test('organization tokens may not create configuration versions (404)', async () => {
    const owner = harness.client();
    const error = await harness.client('organization').configurationVersions.create(await workspaceId(owner, 'legacy-batch')).catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
  });
});
