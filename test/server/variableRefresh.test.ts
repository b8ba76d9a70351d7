// The variable refresh keeps unchanged variables (same objects) and an unchanged list (same array).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SnapshotVariable } from '../../server/src/features/host';
import { mergeVariables } from '../../server/src/workspaces/variableRefresh';

const variable = (id: string, value: string): SnapshotVariable => ({ id, key: id.replace('var-', ''), value, category: 'engine', hcl: false, sensitive: false });

test('a refresh that finds nothing new keeps the same array; a changed variable is the only new object', () => {
  const first = [variable('var-a', '1'), variable('var-b', '2'), variable('var-c', '3')];
  const again = mergeVariables(first, [variable('var-a', '1'), variable('var-b', '2'), variable('var-c', '3')]);
  assert.equal(again, first, 'same list: no new snapshot');

  const changed = mergeVariables(first, [variable('var-a', '1'), variable('var-b', 'two'), variable('var-c', '3')]);
  assert.notEqual(changed, first);
  assert.equal(changed[0], first[0]);
  assert.equal(changed[2], first[2]);
  assert.equal(changed[1].value, 'two');

  const removed = mergeVariables(first, [variable('var-a', '1'), variable('var-c', '3')]);
  assert.deepEqual(removed.map((v) => v.id), ['var-a', 'var-c']);
  assert.equal(removed[1], first[2]);
  assert.equal(mergeVariables(undefined, first), first);
});
