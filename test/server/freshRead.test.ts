// A run's details read while a change of that run is reported are read again, so a view is never handed a state
// older than the runsChanged notification it already had.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { freshRead, maxFreshReads } from '../../server/src/workspaces/freshRead';

describe('freshRead', () => {
  test('no change reported meanwhile: one read, its answer', async () => {
    let reads = 0;
    const answer = await freshRead(() => 3, async () => `read ${++reads}`);
    assert.equal(answer, 'read 1');
    assert.equal(reads, 1);
  });

  test('a change reported while it read (the client may have it already): read once more, and answer that', async () => {
    let reported = 0;
    let reads = 0;
    const answer = await freshRead(
      () => reported,
      async () => {
        reads++;
        if (reads === 1) reported++; // the watcher reports the run's next state before this read answers
        return reads === 1 ? 'planning' : 'policy_checked';
      },
    );
    assert.equal(answer, 'policy_checked');
    assert.equal(reads, 2);
  });

  test('a run that keeps changing while it is read is read at most maxFreshReads times', async () => {
    let reported = 0;
    let reads = 0;
    await freshRead(
      () => reported,
      async () => {
        reads++;
        reported++;
        return reads;
      },
    );
    assert.equal(reads, maxFreshReads);
  });

  test('a change during the second read too: a third read, and its answer', async () => {
    let reported = 0;
    let reads = 0;
    const answer = await freshRead(
      () => reported,
      async () => {
        reads++;
        if (reads <= 2) reported++;
        return `read ${reads}`;
      },
    );
    assert.equal(answer, 'read 3');
  });
});
