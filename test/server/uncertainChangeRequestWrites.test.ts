// #14 item 10 for change requests: a create (explorer bulk action) or an archive whose answer was lost is never
// sent again; the server reads the target workspaces' change requests (or the change request by id) and says what is
// there: done → the normal answer with a warning; not done → an error saying so; unreadable → "may have", look first.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { collectItems } from '../../server/src/api';
import type { ChangeRequest } from '../../server/src/api';
import { startLostAnswerHarness, type LostAnswerHarness } from '../helpers/lostAnswerHarness';

describe('change request writes whose answer was lost (#14 item 10)', () => {
  let h: LostAnswerHarness;
  const ids = new Map<string, string>();
  let count = 0;
  const create = '/api/v2/organizations/acme-demo/explorer/bulk-actions';
  const titled = async (workspace: string, subject: string): Promise<ChangeRequest[]> =>
    (await collectItems(h.api.changeRequests.pages(workspace))).filter((cr) => cr.attributes.subject === subject);
  const openOne = async (): Promise<ChangeRequest> => {
    const subject = `to archive ${++count}`;
    await h.api.changeRequests.create('acme-demo', { subject, message: 'm', targetIds: [ids.get('demo-app')!] });
    return (await titled('demo-app', subject))[0]!;
  };

  before(async () => {
    h = await startLostAnswerHarness();
    for (const workspace of (await h.api.workspaces.list('acme-demo', { pageSize: 50 })).items) ids.set(workspace.attributes.name, workspace.id);
  });
  beforeEach(() => h.nextSecond());
  after(() => h?.close());

  test('create on two workspaces, 500 after the service created them: found on both and returned, with a warning, sent once', async () => {
    const other = [...ids.keys()].find((name) => name !== 'demo-app')!;
    const warned = h.nextWarning(/not sent twice/);
    h.inject({ method: 'POST', path: create, kind: 'status', status: 500, beforeHandling: false });
    const created = await h.run('createChangeRequest', { organization: 'acme-demo', workspaceId: ids.get('demo-app')!, workspaceIds: [ids.get(other)!], subject: 'lost 1', message: 'Rotate it' });
    const onDemo = await titled('demo-app', 'lost 1');
    assert.equal(onDemo.length, 1, 'created once');
    assert.equal(created.id, onDemo[0]!.id);
    assert.equal((await titled(other, 'lost 1')).length, 1);
    assert.equal(h.sent('POST', create), 1, 'never resent');
    assert.match(await warned, new RegExp(`internal server error.*But the change request "lost 1" is on demo-app, ${other}: it was done, and not sent twice`, 'is'));
  });

  test('create, reset before the service acted: "not created", sent once, none there', async () => {
    h.inject({ method: 'POST', path: create, kind: 'reset' });
    const error = await h.rejection(h.run('createChangeRequest', { organization: 'acme-demo', workspaceId: ids.get('demo-app')!, subject: 'lost 2', message: 'Rotate it' }));
    assert.match(error.message, /No open change request "lost 2" is on workspace demo-app, so it was not created; it was not sent again\. Create it again/);
    assert.equal(h.sent('POST', create), 1);
    assert.equal((await titled('demo-app', 'lost 2')).length, 0);
  });

  test('create, truncated answer and the change requests cannot be read: "may have been created", look first', async () => {
    h.inject({ method: 'POST', path: create, kind: 'truncate' }, { method: 'GET', path: /\/change-requests$/, kind: 'malformed', times: Infinity });
    const error = await h.rejection(h.run('createChangeRequest', { organization: 'acme-demo', workspaceId: ids.get('demo-app')!, subject: 'lost 3', message: 'Rotate it' }));
    assert.match(error.message, /The change request "lost 3" may have been created anyway, and the workspace's change requests could not be read to check \(.+\)\. It was not sent again: look at the Change Requests view/);
    assert.equal(h.sent('POST', create), 1);
    h.emulator.control.clearFaults();
    assert.equal((await titled('demo-app', 'lost 3')).length, 1, 'the service did create it');
  });

  test('archive, reset after the service archived it: the archived change request is returned, with a warning, sent once', async () => {
    const open = await openOne();
    const path = `/api/v2/workspaces/change-requests/${open.id}`;
    const warned = h.nextWarning(new RegExp(open.id));
    h.inject({ method: 'POST', path, kind: 'reset', beforeHandling: false });
    const archived = await h.run('archiveChangeRequest', { changeRequestId: open.id });
    assert.equal(archived.id, open.id);
    assert.equal(archived.archived, true);
    assert.equal(h.sent('POST', path), 1);
    assert.match(await warned, new RegExp(`But change request ${open.id} is archived: it was done, and not sent twice`));
  });

  test('archive, 503 before the service acted: "still open, not archived", sent once', async () => {
    const open = await openOne();
    const path = `/api/v2/workspaces/change-requests/${open.id}`;
    h.inject({ method: 'POST', path, kind: 'status', status: 503 });
    const error = await h.rejection(h.run('archiveChangeRequest', { changeRequestId: open.id }));
    assert.match(error.message, new RegExp(`Change request "${open.attributes.subject}" is still open, so it was not archived; it was not sent again`));
    assert.equal(h.sent('POST', path), 1);
  });

  test('archive, answer lost and the change request cannot be read: "may have been archived"', async () => {
    const open = await openOne();
    const path = `/api/v2/workspaces/change-requests/${open.id}`;
    h.inject({ method: 'POST', path, kind: 'status', status: 500, beforeHandling: false }, { method: 'GET', path, kind: 'malformed', times: Infinity });
    const error = await h.rejection(h.run('archiveChangeRequest', { changeRequestId: open.id }));
    assert.match(error.message, new RegExp(`Change request ${open.id} may have been archived anyway, and it could not be read to check.*It was not sent again`, 's'));
    assert.equal(h.sent('POST', path), 1);
  });
});
