import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { orderChangeRequests } from '../../emulator/src/routes/changeRequests';
import type { ChangeRequest } from '../../emulator/src/store/model';
import { startCore, workspaceId, type CoreHarness } from './core-harness';

const bulk = (fields: Record<string, unknown>) => ({ data: { type: 'bulk_actions', attributes: fields } });
const changeRequestInputs = { action_type: 'change_request', action_inputs: { subject: 'Rotate keys', message: 'Please **rotate**.' } };

describe('change requests', () => {
  let h: CoreHarness;
  let demoApp: string;
  before(async () => {
    h = await startCore();
    demoApp = await workspaceId(h, 'demo-app');
  });
  after(() => h.close());
  beforeEach(() => h.emulator.control.advance(1_000));

  test('list by workspace NAME: open ones first, archived ones after, marked', async () => {
    const result = await h.api('GET', '/workspaces/demo-app/change-requests', { token: 'reader' });
    assert.equal(result.status, 200);
    const items = result.body.data as any[];
    assert.equal(items.length, 5);
    assert.equal(items[0].type, 'workspace-change-requests');
    assert.deepEqual(items.map((c) => c.attributes.archived), [false, false, false, true, true]);
    assert.deepEqual(items.slice(0, 3).map((c) => c.attributes.subject), ['Make replica_count a number', 'Mark db_password as sensitive in the workspace', 'Remove legacy_flag']);
    // The services value is fixed in the seed: its request is archived.
    assert.ok(items.slice(3).some((c) => c.attributes.subject === 'Fix the services HCL value'));
    assert.ok(items[3].attributes['archived-at']);
    assert.equal(items[0].attributes['archived-at'], null);
    assert.equal(items[0].relationships.workspace.data.id, demoApp);
    assert.equal(result.body.meta.pagination['page-size'], 20, 'default page size 20');
    assert.equal(result.body.meta.pagination['total-count'], 5);
  });

  test('the list also takes a workspace id, pages, and filters on archive', async () => {
    const byId = await h.api('GET', `/workspaces/${demoApp}/change-requests?page%5Bsize%5D=2&page%5Bnumber%5D=3`);
    assert.equal(byId.body.data.length, 1);
    assert.equal(byId.body.meta.pagination['total-pages'], 3);
    const archived = await h.api('GET', '/workspaces/demo-app/change-requests?archive=true');
    assert.ok(archived.body.data.every((c: any) => c.attributes.archived));
    assert.equal(archived.body.data.length, 2);
  });

  test('show by id on both paths; unknown ids, outsiders and the free edition get 404', async () => {
    const first = (await h.api('GET', '/workspaces/demo-app/change-requests')).body.data[0];
    const shown = await h.api('GET', `/workspaces/change-requests/${first.id}`);
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body.data, first);
    assert.deepEqual((await h.api('GET', `/change-requests/${first.id}`)).body.data, first);
    assert.equal((await h.api('GET', '/workspaces/change-requests/wscr-missing000000000')).status, 404);
    assert.equal((await h.api('GET', '/workspaces/hello-world/change-requests')).status, 404, 'acme-free is not on the top edition');
    const created = await h.api('POST', '/organizations/acme-free/explorer/bulk-actions', { body: bulk({ ...changeRequestInputs, target_ids: [await workspaceId(h, 'hello-world', 'acme-free')] }) });
    assert.equal(created.status, 404);
  });

  test('archive: 200 with the archived resource, then it sorts with the archived ones; archiving twice is 400', async () => {
    const target = (await h.api('GET', '/workspaces/staging-api/change-requests')).body.data[0];
    assert.equal((await h.api('POST', `/workspaces/change-requests/${target.id}`, { token: 'reader' })).status, 404, 'readers may not archive');
    const archived = await h.api('POST', `/workspaces/change-requests/${target.id}`);
    assert.equal(archived.status, 200);
    assert.equal(archived.body.data.attributes.archived, true);
    assert.ok(archived.body.data.attributes['archived-at']);
    assert.equal((await h.api('POST', `/workspaces/change-requests/${target.id}`)).status, 400);
    const open = await h.api('GET', '/workspaces/staging-api/change-requests?archive=false');
    assert.equal(open.body.data.length, 0);
  });

  test('create through bulk-actions with target_ids: 201, the change request exists, and teams are notified', async () => {
    const before = h.emulator.control.notifications().length;
    const result = await h.api('POST', '/organizations/acme-demo/explorer/bulk-actions', { body: bulk({ ...changeRequestInputs, target_ids: [demoApp] }) });
    assert.equal(result.status, 201);
    assert.equal(result.body.data.type, 'explorer_bulk_actions');
    assert.equal(result.body.data.attributes.action_type, 'change_request');
    assert.deepEqual(result.body.data.attributes.action_inputs, changeRequestInputs.action_inputs);
    const list = (await h.api('GET', '/workspaces/demo-app/change-requests')).body.data;
    assert.equal(list[0].attributes.subject, 'Rotate keys', 'the newest open one comes first');
    assert.equal(list[0].attributes.message, 'Please **rotate**.');
    const notifications = h.emulator.control.notifications().slice(before);
    assert.equal(notifications.length, 1);
    assert.equal(notifications[0].kind, 'change-request-created');
    assert.equal(notifications[0].workspace, 'demo-app');
    assert.equal(notifications[0].changeRequestId, list[0].id);
    assert.deepEqual(notifications[0].teams.sort(), ['auditors', 'developers', 'owners']);
  });

  test('create with a query instead of target_ids, keys directly under data (older docs)', async () => {
    const result = await h.api('POST', '/organizations/acme-demo/explorer/bulk-actions', {
      body: { data: { ...changeRequestInputs, query: { type: 'workspaces', filter: [{ workspace_name: { contains: ['prod-'] } }] } } },
    });
    assert.equal(result.status, 201);
    assert.deepEqual(result.body.data.attributes.target_ids, [await workspaceId(h, 'prod-network')]);
  });

  test('an ill-formed query is 422 naming the key, never a query that matches every workspace', async () => {
    const before = (await h.api('GET', `/workspaces/${demoApp}/change-requests`)).body.data.length;
    const cases: Array<[unknown, string]> = [
      [{ type: 'workspaces', filters: [{ workspace_name: { contains: ['prod-'] } }] }, '/data/query/filters'],
      [{ type: 'workspaces', filter: [] }, '/data/query/filter'],
      [{ type: 'workspaces', filter: [{ workspace_name: { contain: ['prod-'] } }] }, '/data/query/filter/0/workspace_name/contain'],
      [{ type: 'workspaces', filter: [{ workspace_name: { contains: ['prod-'] }, tag: 'x' }] }, '/data/query/filter/0/tag'],
    ];
    for (const [query, pointer] of cases) {
      const result = await h.api('POST', '/organizations/acme-demo/explorer/bulk-actions', { body: { data: { ...changeRequestInputs, query } } });
      assert.equal(result.status, 422, JSON.stringify(query));
      assert.equal(result.body.errors[0].source.pointer, pointer);
    }
    assert.equal((await h.api('GET', `/workspaces/${demoApp}/change-requests`)).body.data.length, before, 'nothing was created');
  });

  test('422 for a missing subject or message, a wrong action type, or no targets', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ action_type: 'change_request', action_inputs: { message: 'm' }, target_ids: [demoApp] }, '/data/attributes/action_inputs/subject'],
      [{ action_type: 'change_request', action_inputs: { subject: 's', message: '' }, target_ids: [demoApp] }, '/data/attributes/action_inputs/message'],
      [{ action_type: 'delete_everything', action_inputs: { subject: 's', message: 'm' }, target_ids: [demoApp] }, '/data/attributes/action_type'],
      [{ action_type: 'change_request', action_inputs: { subject: 's', message: 'm' } }, '/data/attributes/target_ids'],
    ];
    for (const [fields, pointer] of cases) {
      const result = await h.api('POST', '/organizations/acme-demo/explorer/bulk-actions', { body: bulk(fields) });
      assert.equal(result.status, 422, pointer);
      assert.equal(result.body.errors[0].source.pointer, pointer);
    }
  });

  test('creating needs admin on the targets: member (plan on demo-app) gets 404', async () => {
    const result = await h.api('POST', '/organizations/acme-demo/explorer/bulk-actions', { token: 'member', body: bulk({ ...changeRequestInputs, target_ids: [demoApp] }) });
    assert.equal(result.status, 404);
  });
});

describe('orderChangeRequests', () => {
  const at = (day: number) => new Date(Date.UTC(2026, 0, day));
  const request = (id: string, created: number, archived: number | null): ChangeRequest => ({
    id, workspaceId: 'ws-1', subject: id, message: '', createdAt: at(created), updatedAt: at(created), createdByUserId: null,
    archivedAt: archived === null ? null : at(archived), archivedByUserId: null,
  });
  test('open newest-first, then archived by most recent archiving', () => {
    const ordered = orderChangeRequests([request('a', 1, 9), request('b', 5, null), request('c', 2, 20), request('d', 7, null)]);
    assert.deepEqual(ordered.map((r) => r.id), ['d', 'b', 'c', 'a']);
  });
});
