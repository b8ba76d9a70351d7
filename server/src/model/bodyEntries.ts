// The top-level items of an open .tf file's body as last extracted (IncrementalTerraformExtractor's entries), and
// the small questions asked of them: which one holds an edit, what syntax problems they hold, where the body is.
import type { SyntaxProblem } from './contributions';
import type { Facts } from './pieceFacts';
import { shiftedFacts, shiftRows, shiftRowsInPlace } from './pieceFacts';
import { maxSyntaxProblems } from './syntaxProblems';
import type { Node } from './treeSitter';

/** One top-level item of the file's body as last extracted, by position: what an edit elsewhere leaves alone. */
export interface Entry {
  start: number;
  end: number;
  row: number;
  type: string;
  facts: Facts;
  /** Where tree-sitter recovered from broken text inside this item (empty for the usual, valid item). */
  problems: SyntaxProblem[];
  /**
   * The item's shape in the whole file's tree (see pieceShape in pieceKeys.ts), when it was read from
   * one (undefined for a block read alone that a whole-file parse has yet to confirm): with its text, what says a
   * later whole-file parse holds the same item.
   */
  shape: string | undefined;
}

/**
 * The file's syntax problems from its items' (in document order, as findSyntaxProblems walks the whole tree, and
 * with the same bound): what a whole-file parse reports when its body holds these items.
 */
export function problemsOf(entries: readonly Entry[]): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  for (const entry of entries) {
    for (const problem of entry.problems) {
      if (problems.length === maxSyntaxProblems) return problems;
      problems.push(problem);
    }
  }
  return problems;
}

/** The entry whose [start, end] holds [from, to] (by binary search over entries in order), or -1. */
export function entryHolding(entries: readonly Entry[], from: number, to: number): number {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (entries[middle].end < from) low = middle + 1;
    else if (entries[middle].start > from) high = middle - 1;
    else return entries[middle].start <= from && to <= entries[middle].end ? middle : -1;
  }
  return -1;
}

/** The root's body when the root holds nothing else but comments (the usual shape); undefined for the odd shapes error recovery makes. */
export function plainBody(root: Node): Node | undefined {
  // Comments before the first block (a licence header) or after the last one sit beside the body, not in it.
  let body: Node | undefined;
  for (const child of root.children) {
    if (child?.type === 'comment') continue;
    if (child?.type !== 'body' || body) return undefined;
    body = child;
  }
  return body;
}

export function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/**
 * Moves the entries from `from` on by an edit before them, in place: `delta` characters and `rowDelta` lines (no copy
 * of 6,000 entries per keystroke). Their facts are moved through the file's lists by spliceBlock, not here.
 */
export function moveEntriesAfterEdit(entries: readonly Entry[], from: number, delta: number, rowDelta: number): void {
  for (let later = from; later < entries.length; later++) {
    const moved = entries[later];
    moved.start += delta;
    moved.end += delta;
    if (rowDelta !== 0) {
      moved.row += rowDelta;
      if (moved.problems.length > 0) shiftRowsInPlace(moved.problems, rowDelta);
    }
  }
}

/**
 * Copies of the entries from `from` on, moved by an edit before them: `delta` characters and `rowDelta` lines, their
 * facts and problems shifted as copies too (what a re-parsed window keeps after it; an edit read from its block alone
 * moves them in place instead, moveEntriesAfterEdit).
 */
export function movedEntries(entries: readonly Entry[], from: number, delta: number, rowDelta: number): Entry[] {
  return entries.slice(from).map((entry) => ({
    start: entry.start + delta,
    end: entry.end + delta,
    row: entry.row + rowDelta,
    type: entry.type,
    facts: rowDelta === 0 ? entry.facts : shiftedFacts(entry.facts, rowDelta),
    problems: rowDelta === 0 || entry.problems.length === 0 ? entry.problems : shiftRows(entry.problems, rowDelta),
    shape: entry.shape,
  }));
}
