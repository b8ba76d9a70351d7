// Schema tolerance: what the service adds (new statuses, extra fields, other spellings) is kept, not an error;
// the real service's `terraform` variable category reads as the spec's `engine`.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runDocumentSchema, forceCancelAvailableAt, isForceCancelable } from '../../server/src/api/schemas/runs';
import { variableSchema } from '../../server/src/api/schemas/variables';
import { changeRequestSchema, isArchived } from '../../server/src/api/schemas/changeRequests';
import { runStatusLabel, isFinalRunStatus, isKnownRunStatus } from '../../server/src/api/runStatuses';
import { decodeLogChunk } from '../../server/src/api/phases';
import { runResource, sendJson, startTestServer } from './support/testServer';
import { testClient } from './support/clientFactory';

describe('schema tolerance', () => {
  test('an unknown run status and unknown members pass through unchanged', () => {
    const parsed = runDocumentSchema.parse({
      data: {
        id: 'run-1',
        type: 'runs',
        attributes: { status: 'warp_drive_engaged', 'brand-new-field': { nested: true }, actions: { 'is-cancelable': true, 'is-teleportable': false } },
        relationships: { plan: { data: { id: 'plan-1', type: 'plans' }, links: { related: '/api/v2/runs/run-1/plan' } } },
      },
      meta: { extra: 1 },
    });
    assert.equal(parsed.data.attributes.status, 'warp_drive_engaged');
    assert.deepEqual((parsed.data.attributes as Record<string, unknown>)['brand-new-field'], { nested: true });
    assert.equal((parsed.data.attributes.actions as Record<string, unknown>)['is-teleportable'], false);
    assert.equal((parsed as Record<string, unknown>)['meta'] !== undefined, true);
  });

  test('status labels: known ones read well, unknown ones are humanised, finality is known', () => {
    assert.equal(runStatusLabel('plan_queued'), 'Plan queued');
    assert.equal(runStatusLabel('warp_drive_engaged'), 'Warp drive engaged');
    assert.equal(isKnownRunStatus('warp_drive_engaged'), false);
    assert.equal(isFinalRunStatus('planned_and_finished'), true);
    assert.equal(isFinalRunStatus('planned'), false);
  });

  test('force-cancel fields are read in either spelling and place', () => {
    const spec = runDocumentSchema.parse({ data: runResource('run-1', { 'is-force-cancelable': true, force_cancel_available_at: '2026-01-01T00:00:00Z' }) });
    const real = runDocumentSchema.parse({
      data: runResource('run-2', { actions: { 'is-force-cancelable': true }, 'force-cancel-available-at': '2026-02-01T00:00:00Z' }),
    });
    assert.equal(isForceCancelable(spec.data), true);
    assert.equal(forceCancelAvailableAt(spec.data), '2026-01-01T00:00:00Z');
    assert.equal(isForceCancelable(real.data), true);
    assert.equal(forceCancelAvailableAt(real.data), '2026-02-01T00:00:00Z');
    assert.equal(isForceCancelable(runDocumentSchema.parse({ data: runResource('run-3') }).data), false);
  });

  test('variable category: `terraform` reads as `engine`; env and unknown categories are kept', () => {
    const variable = (category: string) =>
      variableSchema.parse({ id: 'var-1', type: 'vars', attributes: { key: 'region', value: 'eu', category, hcl: false, sensitive: false } });
    assert.equal(variable('terraform').attributes.category, 'engine');
    assert.equal(variable('engine').attributes.category, 'engine');
    assert.equal(variable('env').attributes.category, 'env');
    assert.equal(variable('policy-set').attributes.category, 'policy-set');
  });

  test('a sensitive variable with a null value is valid', () => {
    const parsed = variableSchema.parse({ id: 'var-2', type: 'vars', attributes: { key: 'secret', value: null, category: 'env', sensitive: true } });
    assert.equal(parsed.attributes.value, null);
  });

  test('a variable without a key or category is malformed', () => {
    assert.equal(variableSchema.safeParse({ id: 'var-3', type: 'vars', attributes: { value: 'x', category: 'env' } }).success, false);
    assert.equal(variableSchema.safeParse({ id: 'var-3', type: 'vars', attributes: { key: 'x' } }).success, false);
  });

  test('change requests are archived by any of the markings the sources show', () => {
    const cr = (attributes: Record<string, unknown>, relationships: Record<string, unknown> = {}) =>
      changeRequestSchema.parse({ id: 'wscr-1', type: 'workspace-change-requests', attributes: { subject: 's', ...attributes }, relationships });
    assert.equal(isArchived(cr({})), false);
    assert.equal(isArchived(cr({ 'archived-at': null, 'archived-by': null })), false);
    assert.equal(isArchived(cr({ 'archived-at': '2026-01-01T00:00:00Z' })), true);
    assert.equal(isArchived(cr({ 'archived-by': 'user-1' })), true);
    assert.equal(isArchived(cr({ archived: true })), true);
    assert.equal(isArchived(cr({}, { 'archived-by-user': { data: { id: 'user-1', type: 'users' } } })), true);
  });

  test('subscription: the feature set is found in `included` and typed', async () => {
    const server = await startTestServer((_request, response) =>
      sendJson(response, 200, {
        data: {
          id: 'sub-1',
          type: 'subscriptions',
          attributes: { 'is-active': true, 'runs-ceiling': 10, 'contract-user-limit': null, 'hcp-new-thing': 'x' },
          relationships: { 'feature-set': { data: { id: 'fs-1', type: 'feature-sets' } }, 'billing-account': { data: null } },
        },
        included: [
          { id: 'fs-0', type: 'other', attributes: {} },
          { id: 'fs-1', type: 'feature-sets', attributes: { name: 'Plus', 'cost-estimation': true, 'run-tasks': true, 'user-limit': null } },
        ],
      }),
    );
    const { client } = testClient(server.url);
    const { subscription, featureSet } = await client.organization.getSubscription('acme');
    assert.equal(subscription.id, 'sub-1');
    assert.equal(subscription.attributes['runs-ceiling'], 10);
    assert.equal(featureSet?.id, 'fs-1');
    assert.equal(featureSet?.attributes.name, 'Plus');
    assert.equal(featureSet?.attributes['cost-estimation'], true);
    await client.close();
    await server.close();
  });
});

describe('log chunks', () => {
  test('STX at the start and ETX at the end are removed; ETX marks completion', () => {
    const first = decodeLogChunk(Buffer.from('\x02Initializing...\n'), 0);
    assert.deepEqual(first, { text: 'Initializing...\n', nextOffset: 17, complete: false });
    const last = decodeLogChunk(Buffer.from('Apply complete!\n\x03'), 17);
    assert.deepEqual(last, { text: 'Apply complete!\n', nextOffset: 34, complete: true });
  });

  test('a multi-byte character split across reads is returned whole, with the offset before it', () => {
    const bytes = Buffer.from('\x02Plan: café', 'utf8');
    const cut = bytes.subarray(0, bytes.length - 1); // half of the é
    const chunk = decodeLogChunk(cut, 0);
    assert.equal(chunk.text, 'Plan: caf');
    assert.equal(chunk.nextOffset, bytes.length - 2);
    const rest = decodeLogChunk(bytes.subarray(chunk.nextOffset), chunk.nextOffset);
    assert.equal(rest.text, 'é');
  });
});
