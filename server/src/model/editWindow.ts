// Which of an open .tf file's body entries an edit touches, asked before anything is parsed or read: the block an
// edit can be read from alone, or the window of entries around it that a re-parsed tree is read again for (the
// entries before and after it are kept, moved by the edit). Apart from IncrementalTerraformExtractor, which applies
// the answer (reads the touched entries, moves the rest, swaps the facts): the planning only reads the entries and
// the texts, so its rules can be read, and changed, without the bookkeeping around them. Plain numbers in and out:
// it runs on every keystroke, and makes no object.
import { entryHolding } from './bodyEntries';
import type { Entry } from './bodyEntries';

/** What changed since the last extraction: the text before `prefix` and the last `suffix` characters are unchanged. */
export interface EditSpan {
  prefix: number;
  suffix: number;
}

/**
 * The entry an edit of `oldText` between `prefix` and `oldEditEnd` can be read from alone (a block, alone on its
 * lines: a line break, or the file's edge, on both sides, outside the edit), or -1.
 */
export function blockAloneIndex(entries: readonly Entry[], oldText: string, prefix: number, oldEditEnd: number): number {
  const index = entryHolding(entries, prefix, oldEditEnd);
  if (index < 0) return -1;
  const entry = entries[index];
  if (entry.type !== 'block') return -1;
  if (entry.start > 0 && oldText.charCodeAt(entry.start - 1) !== 10) return -1;
  if (entry.end < oldText.length && oldText.charCodeAt(entry.end) !== 10) return -1;
  return index;
}

// tree-sitter's own changed ranges would say where the structure changed, but computing them walks the whole tree
// (about as long as the parse on a 1 MB file). The window is the edited text instead, widened by one item on each
// side (a reduction can look one token ahead), and checked against the new tree by the extractor.

/** The first entry of the window (the entries before it are kept as they were: their text and structure did not change). */
export function windowStartEntry(previous: readonly Entry[], dirtyStart: number): number {
  let before = 0;
  while (before < previous.length && previous[before].end < dirtyStart) before++;
  return Math.max(0, before - 1);
}

/**
 * The first entry after the window: from it on, the entries are kept moved by the edit (`delta` characters), since a
 * line break separates them from the edited text that ends at `dirtyEnd` of the new `text` (same columns).
 */
export function windowEndEntry(previous: readonly Entry[], before: number, text: string, delta: number, dirtyEnd: number): number {
  let after = previous.length;
  while (after > before && previous[after - 1].start + delta > dirtyEnd && text.lastIndexOf('\n', previous[after - 1].start + delta - 1) >= dirtyEnd) after--;
  return Math.min(previous.length, after + 1);
}
