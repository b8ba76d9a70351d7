// views/staleList.ts's LastReads, which the Variables and Change Requests views keep their lists in: what a failed read
// keeps, and that a token change is final even for a read already under way.
import './fakes/installFakeVscode';
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LastReads } from '../../client/src/views/staleList';

const workspace = { hostname: 'app.terraform.io', id: 'ws-1' };
const refused = async (): Promise<string[]> => {
  throw new Error("Could not list the workspace's variables: the connection was refused");
};

describe('LastReads', () => {
  test('a failed read keeps the items and the time of the last good one, with the reason once', async () => {
    const reads = new LastReads<string>();
    const good = await reads.read(workspace, async () => ['a', 'b']);
    const failed = await reads.read(workspace, refused);
    assert.deepEqual(failed, { items: ['a', 'b'], readAt: good.readAt, error: 'the connection was refused' });
    assert.deepEqual(await reads.read(workspace, async () => ['c']), { items: ['c'], readAt: reads.get(workspace)!.readAt });
  });

  test('a read under way when the token changes is not kept: the previous account\'s items never come back', async () => {
    const reads = new LastReads<string>();
    let answer!: (items: string[]) => void;
    const reading = reads.read(workspace, () => new Promise<string[]>((resolve) => (answer = resolve)));
    reads.forget();
    answer(['previous account']);
    await reading;
    assert.equal(reads.get(workspace), undefined);
    assert.deepEqual(await reads.read(workspace, refused), { items: [], error: 'the connection was refused' });
  });
});
