// Applies LSP content changes to a document's text and describes each one to tree-sitter, so the next parse
// re-uses the unchanged parts of the old tree (incremental parsing).
import { runtimeOf } from './treeSitter';
import type { Point, Tree } from './treeSitter';
import { LineIndex, treeSitterPoint } from './positions';
import type { Position, Range } from './positions';

/** The shape of LSP's TextDocumentContentChangeEvent: a ranged edit, or the whole new text when `range` is absent. */
export interface TextChange {
  range?: Range;
  text: string;
}

export interface AppliedChanges {
  text: string;
  /** False when a whole-document change makes the old tree useless. */
  reusableTree: boolean;
  /** The first `prefix` characters and the last `suffix` characters are the same before and after the changes. */
  prefix: number;
  suffix: number;
}

/**
 * Where a ranged change falls in the text it applies to, as the caller's own copy of the document already knows it
 * (an open document keeps its line offsets): finding a line in the middle of a 1 MB text otherwise means jumping
 * over 30,000 line breaks, ~2 ms per keystroke.
 */
export interface ChangeOffsets {
  startIndex: number;
  oldEndIndex: number;
  /** Where the lines of the range's start and end begin. */
  startLineStart: number;
  endLineStart: number;
}

/**
 * Returns the new text. Ranged changes are applied to `tree` in place (tree.edit). `offsets`, when given, locate
 * each change (one per change, in order); an entry that does not fit the text is located again here.
 */
export function applyTextChanges(text: string, tree: Tree | undefined, changes: readonly TextChange[], offsets?: readonly (ChangeOffsets | undefined)[]): AppliedChanges {
  let current = text;
  let reusableTree = tree !== undefined;
  let prefix = text.length;
  let suffix = text.length;
  for (const [index, change] of changes.entries()) {
    if (!change.range) {
      current = change.text;
      reusableTree = false;
      prefix = 0;
      suffix = 0;
      continue;
    }
    const located = locateRange(current, change.range, change.text, offsets?.[index]);
    const { startIndex, oldEndIndex } = located;
    const next = current.slice(0, startIndex) + change.text + current.slice(oldEndIndex);
    prefix = Math.min(prefix, startIndex);
    suffix = Math.min(suffix, current.length - oldEndIndex);
    if (reusableTree && tree) {
      const { Edit } = runtimeOf(tree.language);
      tree.edit(
        new Edit({
          startIndex,
          oldEndIndex,
          newEndIndex: startIndex + change.text.length,
          startPosition: located.startPosition,
          oldEndPosition: located.oldEndPosition,
          newEndPosition: located.newEndPosition ?? treeSitterPoint(next, startIndex + change.text.length),
        }),
      );
    }
    current = next;
  }
  prefix = Math.min(prefix, current.length);
  return { text: current, reusableTree, prefix, suffix: Math.min(suffix, current.length - prefix) };
}

/** Offsets and tree-sitter points of a change's range, and where the inserted text ends. */
function locateRange(source: string, range: Range, inserted: string, offsets?: ChangeOffsets) {
  // Without lone/CRLF carriage returns LSP lines are tree-sitter rows: find the two lines by jumping from line
  // break to line break, instead of indexing every line of a large file for each keystroke.
  if (source.indexOf('\r') === -1) {
    const known = offsets && fits(source, offsets) ? offsets : undefined;
    let start: { offset: number; point: Point };
    let end: { offset: number; point: Point };
    if (known) {
      // The caller's offsets are those of the well-formed range (start before end), as TextDocument takes it.
      const [first, last] = comparePosition(range.end, range.start) < 0 ? [range.end, range.start] : [range.start, range.end];
      start = { offset: known.startIndex, point: { row: first.line, column: known.startIndex - known.startLineStart } };
      end = { offset: known.oldEndIndex, point: { row: last.line, column: known.oldEndIndex - known.endLineStart } };
    } else {
      const found = offsetOfLine(source, range.start);
      start = found;
      end = comparePosition(range.end, range.start) <= 0 ? found : offsetOfLine(source, range.end, found);
    }
    const newlines = countNewlines(inserted);
    const newEndPosition: Point =
      newlines === 0
        ? { row: start.point.row, column: start.point.column + inserted.length }
        : { row: start.point.row + newlines, column: inserted.length - inserted.lastIndexOf('\n') - 1 };
    return { startIndex: start.offset, oldEndIndex: Math.max(start.offset, end.offset), startPosition: start.point, oldEndPosition: end.offset >= start.offset ? end.point : start.point, newEndPosition };
  }
  const lines = new LineIndex(source);
  const startIndex = lines.offsetAt(range.start);
  const oldEndIndex = Math.max(startIndex, lines.offsetAt(range.end));
  return { startIndex, oldEndIndex, startPosition: treeSitterPoint(source, startIndex), oldEndPosition: treeSitterPoint(source, oldEndIndex), newEndPosition: undefined as Point | undefined };
}

/** The offsets say what the text says: in order, within it, and each line start right after a line break. */
function fits(source: string, offsets: ChangeOffsets): boolean {
  const { startIndex, oldEndIndex, startLineStart, endLineStart } = offsets;
  const lineStart = (offset: number) => offset === 0 || source.charCodeAt(offset - 1) === 10;
  return startLineStart <= startIndex && startIndex <= oldEndIndex && endLineStart <= oldEndIndex && oldEndIndex <= source.length && lineStart(startLineStart) && lineStart(endLineStart);
}

function comparePosition(a: Position, b: Position): number {
  return a.line === b.line ? a.character - b.character : a.line - b.line;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/**
 * LineIndex.offsetAt for a text with \n line breaks only (same clamping: before the start is 0, past the last line is
 * the end, past a line's end is that end), with the tree-sitter point of the result. `from` resumes a search.
 */
function offsetOfLine(text: string, position: Position, from?: { line: number; lineStart: number }): { offset: number; point: Point; line: number; lineStart: number } {
  if (position.line < 0) return { offset: 0, point: { row: 0, column: 0 }, line: 0, lineStart: 0 };
  let line = from?.line ?? 0;
  let lineStart = from?.lineStart ?? 0;
  while (line < position.line) {
    const newline = text.indexOf('\n', lineStart);
    if (newline === -1) {
      // Past the last line: the end of the text.
      return { offset: text.length, point: { row: line, column: text.length - lineStart }, line, lineStart };
    }
    lineStart = newline + 1;
    line++;
  }
  const newline = text.indexOf('\n', lineStart);
  const lineEnd = newline === -1 ? text.length : newline;
  const offset = Math.min(lineStart + Math.max(0, position.character), lineEnd);
  return { offset, point: { row: line, column: offset - lineStart }, line, lineStart };
}
