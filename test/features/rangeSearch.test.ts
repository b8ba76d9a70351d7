import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { itemAt } from '../../server/src/features/rangeSearch';
import { comparePositions, rangeContains } from '../../server/src/model';
import type { Position, Range } from '../../server/src/model';

interface Item {
  id: number;
  range: Range;
}

/** Non-overlapping, non-touching ranges on a few lines, in a shuffled order. */
const layouts = fc
  .array(fc.record({ line: fc.nat(20), start: fc.nat(60), length: fc.nat(8) }), { maxLength: 40 })
  .map((specs) => {
    const taken = new Map<number, Array<[number, number]>>();
    const items: Item[] = [];
    for (const spec of specs) {
      const end = spec.start + spec.length;
      const onLine = taken.get(spec.line) ?? [];
      if (onLine.some(([from, to]) => spec.start <= to + 1 && from <= end + 1)) continue;
      onLine.push([spec.start, end]);
      taken.set(spec.line, onLine);
      items.push({ id: items.length, range: { start: { line: spec.line, character: spec.start }, end: { line: spec.line, character: end } } });
    }
    return items;
  });

const scan = (items: Item[], position: Position) => items.find((item) => rangeContains(item.range, position));

describe('itemAt: the item whose range holds a position, by binary search', () => {
  test('finds what a scan finds, at every position on and around the ranges', () => {
    fc.assert(
      fc.property(layouts, (items) => {
        const list = [...items].sort((a, b) => comparePositions(a.range.start, b.range.start));
        for (let line = 0; line <= 21; line++) {
          for (let character = 0; character <= 70; character++) {
            const position = { line, character };
            assert.equal(itemAt(list, (item) => item.range, position)?.id, scan(list, position)?.id, `at ${line}:${character}`);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  test('an empty list and a position before every range find nothing', () => {
    assert.equal(itemAt<Item>([], (item) => item.range, { line: 0, character: 0 }), undefined);
    const items = [{ id: 0, range: { start: { line: 3, character: 4 }, end: { line: 3, character: 9 } } }];
    assert.equal(itemAt(items, (item) => item.range, { line: 3, character: 3 }), undefined);
    assert.equal(itemAt(items, (item) => item.range, { line: 3, character: 9 })?.id, 0);
    assert.equal(itemAt(items, (item) => item.range, { line: 3, character: 10 }), undefined);
  });
});
