import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modelUpdateDelay, modelUpdateDelayMs } from '../../server/src/documents/sync';

test('the model follows a change at once when its updates are cheap, later when the last one was costly, never past 50 ms', () => {
  assert.equal(modelUpdateDelay(undefined), modelUpdateDelayMs);
  assert.equal(modelUpdateDelay(1.5), modelUpdateDelayMs); // an edit read from its block alone
  assert.equal(modelUpdateDelay(20), 40); // a 1 MB file re-parsed: the requests sent with the next keystroke go first
  assert.equal(modelUpdateDelay(400), 50);
});
