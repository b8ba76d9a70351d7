// #14 item 10 for workspace variables: a create, update or delete whose answer was lost is never sent again; the
// server lists the workspace's variables and says what is there (done → the normal answer with a warning; not done →
// an error saying so; unreadable → "may have", look before retrying). No message ever carries a value.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Variable } from '../../server/src/api';
import { startLostAnswerHarness, type LostAnswerHarness } from '../helpers/lostAnswerHarness';

describe('variable writes whose answer was lost (#14 item 10)', () => {
  let h: LostAnswerHarness;
  let workspaceId: string;
  let keys = 0;
  const secretValue = 'hunter2-very-secret';
  const list = () => h.api.variables.list({ organization: 'acme-demo', workspace: 'demo-app' });
  const byKey = async (key: string) => (await list()).find((v) => v.attributes.key === key);
  const unreadableVariables = { method: 'GET', path: '/api/v2/vars', kind: 'malformed', times: Infinity } as const;
  const fresh = async (sensitive = false): Promise<Variable> =>
    h.api.variables.create({ workspaceId, key: `lost_${++keys}`, category: 'env', value: sensitive ? secretValue : 'plain', sensitive });

  before(async () => {
    h = await startLostAnswerHarness();
    workspaceId = (await h.api.workspaces.list('acme-demo', { pageSize: 50 })).items.find((w) => w.attributes.name === 'demo-app')!.id;
  });
  beforeEach(() => h.nextSecond());
  after(() => h?.close());

  test('create, 500 after the service stored it: the variable is found by key and category and returned, with a warning, sent once', async () => {
    const warned = h.nextWarning(/not sent twice/);
    h.inject({ method: 'POST', path: '/api/v2/vars', kind: 'status', status: 500, beforeHandling: false });
    const created = await h.run('createVariable', { workspaceId, key: 'lost_create_done', category: 'engine', value: '"eu"', hcl: true, sensitive: true });
    assert.equal(created.key, 'lost_create_done');
    assert.equal(created.sensitive, true);
    assert.equal(created.value, undefined);
    assert.equal(h.sent('POST', '/api/v2/vars'), 1, 'never resent');
    const message = await warned;
    assert.match(message, /internal server error.*But the engine variable "lost_create_done" is on the workspace: it was done, and not sent twice/is);
    assert.doesNotMatch(message, /"eu"/);
  });

  test('create, reset before the service acted: "not created", sent once, nothing there', async () => {
    h.inject({ method: 'POST', path: '/api/v2/vars', kind: 'reset' });
    const error = await h.rejection(h.run('createVariable', { workspaceId, key: 'lost_create_not', category: 'env', value: secretValue, sensitive: true }));
    assert.match(error.message, /No env variable "lost_create_not" is on the workspace, so it was not created; it was not sent again/);
    assert.doesNotMatch(error.message, new RegExp(secretValue));
    assert.equal(h.sent('POST', '/api/v2/vars'), 1);
    assert.equal(await byKey('lost_create_not'), undefined);
  });

  test('create, 503 before the service acted while another variable has that key: "not the one sent", nothing created', async () => {
    const existing = await fresh();
    h.inject({ method: 'POST', path: '/api/v2/vars', kind: 'status', status: 503 });
    const error = await h.rejection(h.run('createVariable', { workspaceId, key: existing.attributes.key, category: 'env', value: 'other', description: 'mine' }));
    assert.match(error.message, new RegExp(`already has a env variable "${existing.attributes.key}" \\(${existing.id}\\), but its description and value are not what was sent.*nothing was created; it was not sent again`));
    assert.doesNotMatch(error.message, /other|plain/);
    assert.equal(h.sent('POST', '/api/v2/vars'), 1);
  });

  test('create, answer lost and the variables cannot be read: "may have been created", look before trying again', async () => {
    h.inject({ method: 'POST', path: '/api/v2/vars', kind: 'truncate' }, unreadableVariables);
    const error = await h.rejection(h.run('createVariable', { workspaceId, key: 'lost_create_unknown', category: 'env', value: secretValue, sensitive: true }));
    assert.match(error.message, /The variable may have been created anyway, and the workspace's variables could not be read to check \(.+\)\. It was not sent again: look at the Variables view/);
    assert.doesNotMatch(error.message, new RegExp(secretValue));
    assert.equal(h.sent('POST', '/api/v2/vars'), 1);
    h.emulator.control.clearFaults();
    assert.ok(await byKey('lost_create_unknown'), 'the service did create it');
  });

  test('update, 502 after the service changed it: the variable shows the change and is returned, sent once', async () => {
    const variable = await fresh();
    const warned = h.nextWarning(new RegExp(variable.id));
    h.inject({ method: 'PATCH', path: `/api/v2/vars/${variable.id}`, kind: 'status', status: 502, beforeHandling: false });
    const updated = await h.run('updateVariable', { workspaceId, variableId: variable.id, value: 'changed', description: 'now described' });
    assert.equal(updated.value, 'changed');
    assert.equal(updated.description, 'now described');
    assert.equal(h.sent('PATCH', `/api/v2/vars/${variable.id}`), 1);
    assert.match(await warned, new RegExp(`But variable ${variable.id} shows the change: it was done, and not sent twice`));
  });

  test('update, reset before the service acted: "not updated" naming the fields (never the values), sent once', async () => {
    const variable = await fresh();
    h.inject({ method: 'PATCH', path: `/api/v2/vars/${variable.id}`, kind: 'reset' });
    const error = await h.rejection(h.run('updateVariable', { workspaceId, variableId: variable.id, value: 'changed-too', hcl: true }));
    assert.match(error.message, new RegExp(`Variable "${variable.attributes.key}" does not show the change \\(its hcl and value are not what was sent\\), so it was not updated; it was not sent again`));
    assert.doesNotMatch(error.message, /changed-too|plain/);
    assert.equal(h.sent('PATCH', `/api/v2/vars/${variable.id}`), 1);
    assert.equal((await byKey(variable.attributes.key))?.attributes.value, 'plain');
  });

  test('update of a sensitive value, 500 after: the value cannot be read back, so "cannot be checked", never echoed, sent once', async () => {
    const variable = await fresh(true);
    h.inject({ method: 'PATCH', path: `/api/v2/vars/${variable.id}`, kind: 'status', status: 500, beforeHandling: false });
    const error = await h.rejection(h.run('updateVariable', { workspaceId, variableId: variable.id, value: `${secretValue}-2` }));
    assert.match(error.message, /is sensitive, so its value cannot be read back to check whether the new one was stored\. It was not sent again: set the value again/);
    assert.doesNotMatch(error.message, new RegExp(secretValue));
    assert.equal(h.sent('PATCH', `/api/v2/vars/${variable.id}`), 1);
  });

  test('update, answer lost and the variables cannot be read: "may have been updated"', async () => {
    const variable = await fresh();
    h.inject({ method: 'PATCH', path: `/api/v2/vars/${variable.id}`, kind: 'status', status: 500, beforeHandling: false }, unreadableVariables);
    const error = await h.rejection(h.run('updateVariable', { workspaceId, variableId: variable.id, description: 'x' }));
    assert.match(error.message, /The variable may have been updated anyway, and the workspace's variables could not be read to check.*It was not sent again/s);
    assert.equal(h.sent('PATCH', `/api/v2/vars/${variable.id}`), 1);
  });

  test('delete, reset after the service deleted it: reported deleted, with a warning, sent once', async () => {
    const variable = await fresh();
    const warned = h.nextWarning(new RegExp(variable.id));
    h.inject({ method: 'DELETE', path: `/api/v2/vars/${variable.id}`, kind: 'reset', beforeHandling: false });
    assert.deepEqual(await h.run('deleteVariable', { workspaceId, variableId: variable.id }), { deleted: true });
    assert.equal(h.sent('DELETE', `/api/v2/vars/${variable.id}`), 1);
    assert.match(await warned, new RegExp(`But variable ${variable.id} is no longer on the workspace: it was done, and not sent twice`));
  });

  test('delete, 503 before the service acted: "still on the workspace, not deleted", sent once', async () => {
    const variable = await fresh();
    h.inject({ method: 'DELETE', path: `/api/v2/vars/${variable.id}`, kind: 'status', status: 503 });
    const error = await h.rejection(h.run('deleteVariable', { workspaceId, variableId: variable.id }));
    assert.match(error.message, new RegExp(`Variable "${variable.attributes.key}" is still on the workspace, so it was not deleted; it was not sent again`));
    assert.equal(h.sent('DELETE', `/api/v2/vars/${variable.id}`), 1);
    assert.ok(await byKey(variable.attributes.key));
  });

  test('delete, answer lost and the variables cannot be read: "may have been deleted"', async () => {
    const variable = await fresh();
    h.inject({ method: 'DELETE', path: `/api/v2/vars/${variable.id}`, kind: 'status', status: 500, beforeHandling: false }, unreadableVariables);
    const error = await h.rejection(h.run('deleteVariable', { workspaceId, variableId: variable.id }));
    assert.match(error.message, /The variable may have been deleted anyway, and the workspace's variables could not be read to check.*look at the Variables view/s);
    assert.equal(h.sent('DELETE', `/api/v2/vars/${variable.id}`), 1);
  });
});
