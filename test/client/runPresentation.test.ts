// How runs look in the Runs view and what their menus offer: pure functions, no VS Code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { knownRunStatuses } from '../../server/src/api/runStatuses';
import type { RunSummary } from '../../server/src/protocol';
import { countdown, escapeMarkdown, knownStatuses, operationLabel, relativeTime, runContextValue, runDescription, runLabel, runTooltipMarkdown, statePresentation } from '../../client/src/runs/tree/runPresentation';

const now = Date.parse('2026-11-24T12:00:00Z');
const run = (over: Partial<RunSummary> = {}): RunSummary => ({
  id: 'run-1',
  status: 'planning',
  statusLabel: 'Planning',
  actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false },
  ...over,
});
const tokens = (value: string) => value.split(' ');

describe('run presentation', () => {
  test('every status the client knows has a themed icon; an unknown one gets the neutral look', () => {
    for (const status of knownRunStatuses) {
      const look = statePresentation(status);
      assert.notEqual(look.group, 'unknown', `${status} has no group`);
      assert.ok(look.color, `${status} has no colour`);
    }
    assert.ok(knownStatuses.length >= knownRunStatuses.length);
    assert.deepEqual(statePresentation('warp_drive_engaged'), { group: 'unknown', icon: 'circle-outline' });
    assert.equal(statePresentation('applied').icon, 'pass');
    assert.equal(statePresentation('errored').color, 'charts.red');
    assert.equal(statePresentation('applying').icon, 'sync~spin');
    assert.equal(statePresentation('policy_checked').group, 'attention');
    assert.equal(statePresentation('discarded').icon, 'circle-slash');
  });

  test('operations in words', () => {
    assert.equal(operationLabel(run()), 'plan and apply');
    assert.equal(operationLabel(run({ planOnly: true })), 'plan only');
    assert.equal(operationLabel(run({ isDestroy: true })), 'destroy');
    assert.equal(operationLabel(run({ refreshOnly: true })), 'refresh only');
    assert.equal(operationLabel(run({ savePlan: true })), 'save plan');
    assert.equal(operationLabel(run({ autoApply: true })), 'plan and auto-apply', 'applied without confirmation: not "plan and apply"');
    assert.equal(operationLabel(run({ allowEmptyApply: true })), 'empty apply');
    assert.equal(operationLabel(run({ planOnly: true, autoApply: true })), 'plan only', 'a plan-only run is never applied');
  });

  test('label, relative time and description', () => {
    assert.equal(runLabel(run({ message: 'First line\nsecond' })), 'First line');
    assert.equal(runLabel(run({ message: '  ' })), 'Run run-1');
    assert.equal(relativeTime('2026-11-24T11:59:30Z', now), 'just now');
    assert.equal(relativeTime('2026-11-24T11:50:00Z', now), '10 min ago');
    assert.equal(relativeTime('2026-11-24T09:00:00Z', now), '3 h ago');
    assert.equal(relativeTime('2026-11-20T12:00:00Z', now), '4 d ago');
    assert.equal(relativeTime('2025-01-02T12:00:00Z', now), '2025-01-02');
    assert.equal(relativeTime('not a date', now), undefined);
    assert.equal(runDescription(run({ createdAt: '2026-11-24T11:50:00Z', planOnly: true }), now), 'Planning · 10 min ago · plan only');
    assert.equal(countdown(65_000), '1:05');
  });

  test('the context value offers exactly what actions and permissions allow', () => {
    const awaiting = run({ status: 'policy_checked', planId: 'plan-1', actions: { isCancelable: false, isConfirmable: true, isDiscardable: true, isForceCancelable: false } });
    assert.deepEqual(tokens(runContextValue(awaiting, undefined, now)), ['hcpRun', 'apply', 'discard', 'details', 'browser', 'log', 'planned']);
    // The member may plan but not apply: no Apply entry, Discard stays.
    assert.ok(!tokens(runContextValue({ ...awaiting, permissions: { canApply: false } }, undefined, now)).includes('apply'));
    assert.ok(!tokens(runContextValue(awaiting, { canQueueApply: false }, now)).includes('apply'));
    const applied = run({ status: 'applied', isForceExecutable: false });
    assert.deepEqual(tokens(runContextValue(applied, undefined, now)), ['hcpRun', 'details', 'browser', 'planned']);
    const pending = run({ status: 'pending', isForceExecutable: true });
    assert.ok(tokens(runContextValue(pending, undefined, now)).includes('forceExecute'));
    assert.ok(!tokens(runContextValue({ ...pending, permissions: { canForceExecute: false } }, undefined, now)).includes('forceExecute'));
    const cooling = run({ status: 'planning', forceCancelAvailableAt: '2026-11-24T12:01:00Z', actions: { isCancelable: true, isConfirmable: false, isDiscardable: false, isForceCancelable: false } });
    assert.deepEqual(tokens(runContextValue(cooling, undefined, now)).filter((t) => t.startsWith('force') || t === 'cancel'), ['cancel', 'forceCancelWaiting']);
    assert.match(runDescription(cooling, now), /force cancel in 1:00/);
    const cooled = { ...cooling, actions: { ...cooling.actions, isForceCancelable: true } };
    assert.ok(tokens(runContextValue(cooled, undefined, Date.parse('2026-11-24T12:02:00Z'))).includes('forceCancel'));
  });

  test('the tooltip escapes what the service wrote', () => {
    const text = runTooltipMarkdown(run({ message: '[click](command:evil) <b>x</b>', createdBy: 'max', source: 'svc-ui', resourceAdditions: 2, resourceChanges: 1, resourceDestructions: 0 }), now);
    assert.ok(!text.includes('[click](command:evil)'));
    assert.ok(text.includes(escapeMarkdown('[click](command:evil)')));
    assert.match(text, /By: max/);
    assert.match(text, /Source: web UI/);
    assert.match(text, /Resources: \\\+2 \\~1 \\-0/);
  });
});
