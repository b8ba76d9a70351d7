// TerraformParser.parseInSlices: a whole-file parse a millisecond at a time, the event loop free between slices, so
// that requests are answered while tree-sitter recovers from a large broken file (0.3-1.5 s for 1 MB).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadTerraformParser } from '../../server/src/model';
import type { TerraformParser } from '../../server/src/model';
import { runtimeOf } from '../../server/src/model/treeSitter';
import type { Tree } from '../../server/src/model/treeSitter';
import { testParser } from './helpers';

/** 300 blocks with a stray closing brace in the middle: ~50 ms of error recovery, many slices. */
function brokenText(blocks = 300): string {
  const texts = Array.from({ length: blocks }, (_, index) => `resource "terraform_data" "r_${index}" {\n  input = {\n    name = var.v_${index}\n  }\n\n  triggers_replace = [var.w_${index}]\n}\n`);
  texts[blocks / 2] = texts[blocks / 2].replace('\n\n', '\n  }\n');
  return texts.join('\n');
}

const never = { cancelled: () => false };

/** Counts the turns of the event loop that pass until `work` resolves. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ turns: number; value: T }> {
  let turns = 0;
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  try {
    return { value: await work(), turns };
  } finally {
    ticking = false;
  }
}

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
