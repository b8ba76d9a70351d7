// Contract: change requests — list by workspace name (default page size 20, archived ones marked), show,
// archive, create through explorer bulk-actions (records a team notification), top paid edition only.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ServiceError, isArchived } from '../../server/src/api/index';
import { useEmulator, workspaceId } from './support/harness';

describe('contract: change requests', () => {
  const harness = useEmulator();

  test('list by workspace name: open and archived ones, archived ones marked, default page size 20', async () => {
    const page = await harness.client().changeRequests.list('demo-app');
    assert.equal(page.items.length, 5);
    assert.equal(page.items.filter(isArchived).length, 2);
    assert.equal(page.pagination?.['page-size'], 20);
    assert.equal(harness.requests().at(-1)!.path, '/api/v2/workspaces/demo-app/change-requests?page%5Bnumber%5D=1');
  });

  test('page[size] is honoured', async () => {
    const page = await harness.client().changeRequests.list('demo-app', { pageSize: 2 });
    assert.equal(page.items.length, 2);
    assert.equal(page.nextPage, 2);
  });

  test('show, then archive: the archived change request comes back marked', async () => {
    const client = harness.client();
    const open = (await client.changeRequests.list('demo-app')).items.find((cr) => !isArchived(cr))!;
    const shown = await client.changeRequests.get(open.id);
    assert.equal(shown.attributes.subject, open.attributes.subject);
    const archived = await client.changeRequests.archive(open.id);
    assert.equal(isArchived(archived), true);
    assert.equal(isArchived(await client.changeRequests.get(open.id)), true);
  });

  test('create via bulk-actions with target ids: it appears on the workspace and notifies teams', async () => {
    const client = harness.client();
    const created = await client.changeRequests.create('acme-demo', {
      subject: 'Declare owner_email',
      message: 'The code uses `var.owner_email` but never declares it.',
      targetIds: [await workspaceId(client, 'demo-app')],
    });
    assert.ok(created.id);
    const logged = harness.requests().at(-1)!;
    assert.equal(logged.path, '/api/v2/organizations/acme-demo/explorer/bulk-actions');
    assert.equal(logged.status, 201);
    const subjects = (await client.changeRequests.list('demo-app')).items.map((cr) => cr.attributes.subject);
    assert.ok(subjects.includes('Declare owner_email'));
    assert.ok(harness.emulator().control.notifications().length >= 1);
  });

  test('create with a missing subject is a 422', async () => {
    const client = harness.client();
    const error = await client.changeRequests
      .create('acme-demo', { subject: '', message: 'x', targetIds: [await workspaceId(client, 'demo-app')] })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 422);
  });

  test('an organization without the top paid edition has no change requests (404)', async () => {
    const client = harness.client();
    const error = await client.changeRequests
      .create('acme-free', { subject: 's', message: 'm', targetIds: [await workspaceId(client, 'hello-world', 'acme-free')] })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
  });

  test('an unknown change request is a 404', async () => {
    const error = await harness.client().changeRequests.get('wscr-doesnotexist000').catch((e: unknown) => e);
    assert.ok(error instanceof ServiceError);
    assert.equal(error.status, 404);
  });
});
