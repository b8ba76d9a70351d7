// The Runs view's "Resource changes": order, description, tooltip (never a sensitive value), and which runs offer
// Show Plan on Code. No VS Code.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RunSummary } from '../../server/src/protocol';
import type { PlannedChange } from '../../client/src/runs/model';
import { attributeLines, changeDescription, changeIcon, changeTooltipMarkdown, sortedChanges } from '../../client/src/runs/tree/resourceChangePresentation';
import { planFinished, runContextValue } from '../../client/src/runs/tree/runPresentation';

const change = (over: Partial<PlannedChange> = {}): PlannedChange => ({ address: 'terraform_data.db', action: 'update', attributes: [], ...over });
const run = (over: Partial<RunSummary> = {}): RunSummary => ({
  id: 'run-1',
  status: 'planning',
  statusLabel: 'Planning',
  actions: { isCancelable: false, isConfirmable: false, isDiscardable: false, isForceCancelable: false },
  ...over,
});

describe('resource changes in the Runs view', () => {
  test('replacements and deletions first, then creations, updates, reads, no-ops; by address within each', () => {
    const sorted = sortedChanges([change({ address: 'b', action: 'create' }), change({ address: 'z', action: 'no-op' }), change({ address: 'a', action: 'create' }), change({ address: 'r', action: 'replace' }), change({ address: 'd', action: 'delete' })]);
    assert.deepEqual(sorted.map((c) => c.address), ['r', 'd', 'a', 'b', 'z']);
  });

  test('the description is the action with Terraform\'s symbol and the reason; the icon its colour', () => {
    assert.equal(changeDescription(change({ action: 'replace', reason: 'requested' })), '-/+ replace (requested)');
    assert.deepEqual(changeIcon('create'), { icon: 'diff-added', color: 'gitDecoration.addedResourceForeground' });
  });

  test('the tooltip lists what changes, never a sensitive value, and says when a value is known only after apply', () => {
    const lines = attributeLines(change({
      attributes: [
        { name: 'input', before: { a: 1 }, after: { a: 2 } },
        { name: 'password', before: 'hunter2', after: 'hunter3', sensitive: true },
        { name: 'id', before: 'x', unknownAfter: true },
      ],
    }));
    assert.deepEqual(lines, ['input: {"a":1} → {"a":2}', 'password: (sensitive)', 'id: "x" → (known after apply)']);
    const markdown = changeTooltipMarkdown(change({ attributes: [{ name: 'password', after: 'hunter3', sensitive: true }] }));
    assert.doesNotMatch(markdown, /hunter/);
    assert.match(changeTooltipMarkdown(change()), /No block/);
    assert.match(changeTooltipMarkdown(change({ uri: 'file:///a/main.tf' })), /open its block/);
  });

  test('a created resource shows its values, a deleted one what it had; long values are cut', () => {
    assert.deepEqual(attributeLines(change({ action: 'create', attributes: [{ name: 'n', after: 3 }] })), ['n: 3']);
    assert.deepEqual(attributeLines(change({ action: 'delete', attributes: [{ name: 'n', before: 'x'.repeat(100) }] })), [`n: "${'x'.repeat(58)}…`]);
  });

  test('a run offers Show Plan on Code once its plan finished', () => {
    assert.equal(planFinished(run()), false);
    assert.equal(planFinished(run({ status: 'planned' })), true);
    assert.equal(planFinished(run({ status: 'applied' })), true);
    assert.equal(planFinished(run({ status: 'discarded' })), false);
    assert.equal(planFinished(run({ status: 'discarded', statusTimestamps: { 'planned-at': '2026-01-01T00:00:00Z' } })), true);
    assert.ok(runContextValue(run({ status: 'planned_and_finished' }), undefined, 0).split(' ').includes('planned'));
    assert.ok(!runContextValue(run(), undefined, 0).split(' ').includes('planned'));
  });
});
