// A run's actions as features offer them (code actions, the code lens): the run's flags, less what the caller's
// permissions on it forbid. A member's token saw Apply and Discard on a run it may not apply, and got a vague refusal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Run } from '../../server/src/api';
import { snapshotRun } from '../../server/src/workspaces/runSummary';

function pausedRun(permissions?: Record<string, boolean>): Run {
  return {
    id: 'run-1',
    type: 'runs',
    attributes: {
      status: 'planned',
      actions: { 'is-confirmable': true, 'is-discardable': true, 'is-cancelable': false, 'is-force-cancelable': false },
      ...(permissions ? { permissions } : {}),
    },
  } as unknown as Run;
}

test('a permission the caller lacks takes the action away; one not said leaves it', () => {
  assert.deepEqual(snapshotRun(pausedRun({ 'can-apply': false, 'can-discard': false })).actions, { isConfirmable: false, isDiscardable: false, isCancelable: false, isForceCancelable: false });
  assert.deepEqual(snapshotRun(pausedRun({ 'can-apply': true, 'can-discard': false })).actions, { isConfirmable: true, isDiscardable: false, isCancelable: false, isForceCancelable: false });
  assert.deepEqual(snapshotRun(pausedRun()).actions, { isConfirmable: true, isDiscardable: true, isCancelable: false, isForceCancelable: false });
});
