// Finds the item whose range holds a position by binary search instead of a scan: hover and code actions ask this
// on every keystroke, and a 1 MB file has 24,000 `var.` references. The items' ranges must not overlap (references
// never do); the list is sorted by start once per list (a model's contribution is a new list after each edit).
import { comparePositions, rangeContains } from '../model';
import type { Position, Range } from '../model';

const sortedLists = new WeakMap<readonly object[], readonly object[]>();

export function itemAt<T extends object>(items: readonly T[], rangeOf: (item: T) => Range, position: Position): T | undefined {
  const sorted = sortedByStart(items, rangeOf);
  // The last item starting at or before the position is the only one that can hold it.
  let low = 0;
  let high = sorted.length - 1;
  let candidate = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (comparePositions(rangeOf(sorted[middle]).start, position) <= 0) {
      candidate = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  // Ranges that touch (one ends where the next starts) both hold that position: the later one wins, as a scan
  // finding the first would not, but either names the same spot. Ranges that end before the position end the search.
  for (let index = candidate; index >= 0; index--) {
    const range = rangeOf(sorted[index]);
    if (rangeContains(range, position)) return sorted[index];
    if (comparePositions(range.end, position) < 0) break;
  }
  return undefined;
}

function sortedByStart<T extends object>(items: readonly T[], rangeOf: (item: T) => Range): readonly T[] {
  const cached = sortedLists.get(items) as readonly T[] | undefined;
  if (cached) return cached;
  let sorted: readonly T[] = items;
  for (let index = 1; index < items.length; index++) {
    if (comparePositions(rangeOf(items[index - 1]).start, rangeOf(items[index]).start) > 0) {
      sorted = [...items].sort((a, b) => comparePositions(rangeOf(a).start, rangeOf(b).start));
      break;
    }
  }
  sortedLists.set(items, sorted);
  return sorted;
}
