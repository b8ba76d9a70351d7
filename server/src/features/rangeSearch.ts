// Finds the item whose range holds a position by binary search instead of a scan: hover asks this on every
// keystroke, and a 1 MB file has 24,000 `var.` references. The items must be in document order with ranges that do
// not overlap: a file's references are (contributions.ts; test/model/incremental.test.ts checks it after every edit).
import { comparePositions, rangeContains } from '../model';
import type { Position, Range } from '../model';

export function itemAt<T>(itemsInOrder: readonly T[], rangeOf: (item: T) => Range, position: Position): T | undefined {
  // The last item starting at or before the position is the one that can hold it.
  let low = 0;
  let high = itemsInOrder.length - 1;
  let candidate = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (comparePositions(rangeOf(itemsInOrder[middle]).start, position) <= 0) {
      candidate = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  // Ranges that touch (one ends where the next starts) both hold that position: the later one wins. An empty range
  // at another's end can hide the earlier one, so look back while a range still reaches the position.
  for (let index = candidate; index >= 0; index--) {
    const range = rangeOf(itemsInOrder[index]);
    if (rangeContains(range, position)) return itemsInOrder[index];
    if (comparePositions(range.end, position) < 0) break;
  }
  return undefined;
}
