import assert from 'node:assert/strict';
import { test } from 'node:test';
import { wholeParseDelay } from '../../server/src/documents/syncTiming';

test('an edit that needs the whole file parsed waits twice what the last parse took, between 10 and 50 ms', () => {
  assert.equal(wholeParseDelay(undefined), 10);
  assert.equal(wholeParseDelay(3), 10); // a small file
  assert.equal(wholeParseDelay(20), 40); // a 1 MB file: the requests sent with the next keystroke go first
  assert.equal(wholeParseDelay(400), 50);
});
