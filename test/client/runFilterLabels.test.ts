// The Runs view's filters as people read them: the "Filter runs by" picker and the view's message show labels
// ("Plan only"), never the service's values (`plan_only`).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { currentFilterLabels, describeFilters } from '../../client/src/runs/tree/runFilterLabels';

describe('run filter labels', () => {
  test('the picker describes each filter by its labels, "any" when unset', () => {
    assert.deepEqual(currentFilterLabels({}), { status: 'any', operation: 'any', source: 'any' });
    assert.deepEqual(currentFilterLabels({ statusGroup: 'non_final', operations: ['plan_only', 'destroy'], sources: ['svc-ui'] }), {
      status: 'Active',
      operation: 'Plan only, Destroy',
      source: 'Web UI',
    });
  });

  test('a value the client has no label for is shown as the service sent it', () => {
    assert.equal(currentFilterLabels({ operations: ['future_operation'] }).operation, 'future_operation');
  });

  test('the view\'s message names the filters by label', () => {
    assert.equal(describeFilters({}), undefined);
    assert.equal(describeFilters({ statusGroup: 'final', operations: ['plan_only'], sources: ['svc-api'] }), 'Filtered by status: Finished · operation: Plan only · source: API');
  });
});
