import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunSummary } from '../../../server/src/protocol';
import { decideRunNotification, parseNotificationSetting, type NotificationContext } from '../../../client/src/runNotificationDecision';

function run(status: string, extra: Partial<RunSummary> = {}): RunSummary {
  const confirmable = ['planned', 'cost_estimated', 'policy_checked', 'policy_override'].includes(status);
  return {
    id: 'run-1',
    status,
    statusLabel: status,
    message: 'Add a bucket',
    actions: { isCancelable: false, isConfirmable: confirmable, isDiscardable: confirmable, isForceCancelable: false },
    ...extra,
  };
}
const mine: NotificationContext = { setting: 'mine', mine: true, linked: true, workspaceName: 'demo-app', alreadyNotified: new Set() };

describe('run notifications', () => {
  test('a run needing confirmation offers Apply, Discard and Show', () => {
    const decision = decideRunNotification(run('policy_checked'), mine);
    assert.deepEqual(decision?.buttons, ['Apply', 'Discard', 'Show']);
    assert.equal(decision?.severity, 'information');
    assert.equal(decision?.key, 'run-1:needs-confirmation');
    assert.equal(decision?.message, 'HCP Terraform: demo-app: run "Add a bucket" needs confirmation (policy_checked).');
  });

  test('buttons follow what the caller may do', () => {
    const decision = decideRunNotification(run('planned', { permissions: { canApply: false, canDiscard: true } }), mine);
    assert.deepEqual(decision?.buttons, ['Discard', 'Show']);
  });

  test('a confirmable status the caller cannot confirm is not news', () => {
    const planned = run('planned', { actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false } });
    assert.equal(decideRunNotification(planned, mine), undefined);
  });

  test('errored is an error with Show Log; applied is information with Show', () => {
    assert.deepEqual(decideRunNotification(run('errored'), mine)?.buttons, ['Show Log']);
    assert.equal(decideRunNotification(run('errored'), mine)?.severity, 'error');
    assert.equal(decideRunNotification(run('applied'), mine)?.message, 'HCP Terraform: demo-app: run "Add a bucket" applied.');
  });

  test('states in between say nothing', () => {
    for (const status of ['pending', 'planning', 'apply_queued', 'applying', 'discarded', 'planned_and_finished']) assert.equal(decideRunNotification(run(status), mine), undefined, status);
  });

  test('never twice for the same run and moment, even across confirmable statuses', () => {
    const first = decideRunNotification(run('planned'), mine);
    assert.ok(first);
    const notified = new Set([first.key]);
    assert.equal(decideRunNotification(run('policy_checked'), { ...mine, alreadyNotified: notified }), undefined);
    assert.ok(decideRunNotification(run('applied'), { ...mine, alreadyNotified: notified }));
  });

  test('off says nothing; mine only this window\'s runs; all also other runs of linked workspaces', () => {
    assert.equal(decideRunNotification(run('applied'), { ...mine, setting: 'off' }), undefined);
    assert.equal(decideRunNotification(run('applied'), { ...mine, mine: false }), undefined);
    assert.ok(decideRunNotification(run('applied'), { ...mine, mine: false, setting: 'all' }));
    assert.equal(decideRunNotification(run('applied'), { ...mine, mine: false, setting: 'all', linked: false }), undefined);
    assert.ok(decideRunNotification(run('applied'), { ...mine, setting: 'all', linked: false }), 'this window\'s run in a pinned workspace');
  });

  test('with all, another\'s run that reached its state before the window started is old news', () => {
    const since = Date.parse('2026-01-01T12:00:00Z');
    const old = run('applied', { statusChangedAt: '2026-01-01T11:00:00Z' });
    assert.equal(decideRunNotification(old, { ...mine, mine: false, setting: 'all', since }), undefined);
    assert.ok(decideRunNotification(old, { ...mine, since }), 'this window\'s own run is always news');
    assert.ok(decideRunNotification(run('applied', { statusChangedAt: '2026-01-01T12:30:00Z' }), { ...mine, mine: false, setting: 'all', since }));
  });

  test('the setting reads anything unexpected as mine', () => {
    assert.equal(parseNotificationSetting('all'), 'all');
    assert.equal(parseNotificationSetting('off'), 'off');
    assert.equal(parseNotificationSetting('loud'), 'mine');
    assert.equal(parseNotificationSetting(undefined), 'mine');
  });
});
