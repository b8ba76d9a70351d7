// TerraformParser.parseInSlices: a whole-file parse a millisecond at a time, the event loop free between slices, so
// that requests are answered while tree-sitter recovers from a large broken file (0.3-1.5 s for 1 MB); and the
// parsers it takes (server/src/model/slicingParsers.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadTerraformParser } from '../../server/src/model';
import type { TerraformParser } from '../../server/src/model';
import { SlicingParsers, stoppedParserResetMs } from '../../server/src/model/slicingParsers';
import { runtimeOf } from '../../server/src/model/treeSitter';
import type { Parser } from '../../server/src/model/treeSitter';
import type { Tree } from '../../server/src/model/treeSitter';
import { testParser } from './helpers';
import { turnsDuring } from '../helpers/eventLoopTurns';

/** 300 blocks with a stray closing brace in the middle: ~50 ms of error recovery, many slices. */
function brokenText(blocks = 300): string {
  const texts = Array.from({ length: blocks }, (_, index) => `resource "terraform_data" "r_${index}" {\n  input = {\n    name = var.v_${index}\n  }\n\n  triggers_replace = [var.w_${index}]\n}\n`);
  texts[blocks / 2] = texts[blocks / 2].replace('\n\n', '\n  }\n');
  return texts.join('\n');
}

const never = { cancelled: () => false };

function sameTree(parser: TerraformParser, tree: Tree | undefined, text: string): void {
  assert.ok(tree, 'a tree');
  const whole = parser.parse(text);
  try {
    assert.equal(tree.rootNode.toString(), whole.rootNode.toString());
  } finally {
    whole.delete();
    tree.delete();
  }
}

describe('a parse in slices', () => {
  test('gives the tree a parse in one piece gives, with the event loop turning between its slices', async () => {
    const parser = await testParser();
    const text = brokenText();
    const { turns, value } = await turnsDuring(() => parser.parseInSlices(text, undefined, never));
    assert.ok(turns >= 10, `the event loop turned ${turns} times during ~50 ms of parsing`);
    sameTree(parser, value, text);
  });

  test('re-uses an edited old tree as parse does', async () => {
    const parser = await testParser();
    const before = brokenText();
    const old = parser.parse(before);
    const at = before.indexOf('var.v_7') + 'var.v_7'.length;
    const after = before.slice(0, at) + '7' + before.slice(at);
    const point = { row: before.slice(0, at).split('\n').length - 1, column: at - before.lastIndexOf('\n', at - 1) - 1 };
    const { Edit } = runtimeOf(old.language);
    old.edit(new Edit({ startIndex: at, oldEndIndex: at, newEndIndex: at + 1, startPosition: point, oldEndPosition: point, newEndPosition: { row: point.row, column: point.column + 1 } }));
    try {
      sameTree(parser, await parser.parseInSlices(after, old, never), after);
    } finally {
      old.delete();
    }
  });

  test('stopped by its control it gives nothing, and the next parse starts afresh instead of resuming it', async () => {
    const parser = await testParser();
    let asked = 0;
    const stopped = await parser.parseInSlices(brokenText(), undefined, { cancelled: () => ++asked > 0 });
    assert.equal(stopped, undefined);
    assert.equal(asked, 1, 'asked after its first slice');
    // Resumed, the half-done parse of the broken text would go on over this one's characters.
    const other = Array.from({ length: 50 }, (_, index) => `variable "v_${index}" {\n  default = ${index}\n}\n`).join('\n');
    sameTree(parser, await parser.parseInSlices(other, undefined, never), other);
  });

  test('two at once (documents of two folders) each give the tree of their own text', async () => {
    const parser = await testParser();
    const first = brokenText();
    const second = brokenText().replaceAll('resource', 'data');
    const [firstTree, secondTree] = await Promise.all([parser.parseInSlices(first, undefined, never), parser.parseInSlices(second, undefined, never)]);
    sameTree(parser, firstTree, first);
    sameTree(parser, secondTree, second);
  });

  test('a recycle of the runtime meanwhile stops it (the old runtime, its parser and old trees are gone)', async () => {
    const parser = await loadTerraformParser(); // its own: the shared one is never recycled
    const recycled = parser.recycle(() => undefined);
    const tree = await parser.parseInSlices(brokenText(), undefined, never);
    await recycled;
    assert.equal(tree, undefined);
    const text = brokenText(20);
    sameTree(parser, await parser.parseInSlices(text, undefined, never), text);
  });
});

describe('the parsers of parses in slices', () => {
  /** Parsers that count their resets and deletes, and timers the test fires by hand. */
  function parsers() {
    const made: Array<{ resets: number; deleted: boolean }> = [];
    const timers: Array<{ ms: number; run: () => void; cancelled: boolean }> = [];
    const pool = new SlicingParsers(
      () => {
        const counts = { resets: 0, deleted: false };
        made.push(counts);
        return { reset: () => counts.resets++, delete: () => (counts.deleted = true), counts } as unknown as Parser;
      },
      (ms, run) => {
        const timer = { ms, run, cancelled: false };
        timers.push(timer);
        return () => (timer.cancelled = true);
      },
    );
    return { pool, made, timers };
  }

  test('one per parse under way; one that stopped half-done is reset when next taken, not when given back', () => {
    const { pool, made } = parsers();
    const first = pool.take();
    const second = pool.take();
    assert.notEqual(first, second);
    pool.give(first, true);
    assert.equal(made[0].resets, 0, 'not in the way of the change that stopped it');
    assert.equal(pool.take(), first);
    assert.equal(made[0].resets, 1);
    pool.give(second, false);
    assert.equal(pool.take(), second);
    assert.equal(made[1].resets, 0, 'its parse ended: nothing to reset');
  });

  test(`one that stopped and stays idle is reset after ${stoppedParserResetMs} ms (its half-done parse holds memory), once`, () => {
    const { pool, made, timers } = parsers();
    const parser = pool.take();
    pool.give(parser, true);
    assert.deepEqual(timers.map((timer) => timer.ms), [stoppedParserResetMs]);
    timers[0].run();
    assert.equal(made[0].resets, 1);
    assert.equal(pool.take(), parser);
    assert.equal(made[0].resets, 1, 'not reset twice');
    pool.give(parser, true);
    pool.take();
    assert.equal(timers[1].cancelled, true, 'taken again before its timer: the timer is cancelled');
  });

  test('disposed with its runtime: the idle ones are deleted, and the ones in use when given back', () => {
    const { pool, made } = parsers();
    const idle = pool.take();
    const inUse = pool.take();
    pool.give(idle, true);
    pool.dispose();
    assert.equal(made[0].deleted, true);
    assert.equal(made[1].deleted, false);
    pool.give(inUse, true);
    assert.equal(made[1].deleted, true);
  });
});
