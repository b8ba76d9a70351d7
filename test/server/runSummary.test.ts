// What the server passes on of a run document: every option it was queued with, and run variables' keys without
// their values (a value may be a secret; the summary reaches the trace and the views).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { summarizeRun } from '../../server/src/workspaces/runSummary';

test('a run summary carries auto-apply, the other create options and the run variables\' keys, never their values', () => {
  const summary = summarizeRun({
    id: 'run-1',
    type: 'runs',
    attributes: {
      status: 'applied',
      'auto-apply': true,
      'allow-empty-apply': false,
      'allow-config-generation': true,
      'debugging-mode': true,
      refresh: false,
      variables: [{ key: 'region', value: '"eu-secret-value"' }],
    },
  } as never);
  assert.equal(summary.autoApply, true);
  assert.equal(summary.allowEmptyApply, false);
  assert.equal(summary.allowConfigGeneration, true);
  assert.equal(summary.debuggingMode, true);
  assert.equal(summary.refresh, false);
  assert.deepEqual(summary.variableKeys, ['region']);
  assert.ok(!JSON.stringify(summary).includes('eu-secret-value'));
});
