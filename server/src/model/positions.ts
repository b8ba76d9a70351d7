// LSP-shaped positions (0-based line, UTF-16 code-unit character) and the conversions the model needs.
// web-tree-sitter feeds the parser UTF-16 text, so its rows/columns and indices are already UTF-16 code units —
// the unit LSP uses by default. `terraformParser.ts` verifies this once at load time, so a future binding that
// reports UTF-8 bytes fails loudly instead of shifting every range after a non-ASCII character.
import type { Node, Point } from 'web-tree-sitter';

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export function rangeOfNode(node: Node): Range {
  const { startPosition: start, endPosition: end } = node;
  return { start: { line: start.row, character: start.column }, end: { line: end.row, character: end.column } };
}

/** The range covering `first` to `last` (both nodes of the same tree, `first` not after `last`). */
export function rangeSpanning(first: Node, last: Node): Range {
  return { start: rangeOfNode(first).start, end: rangeOfNode(last).end };
}

export function rangeContains(range: Range, position: Position): boolean {
  return comparePositions(range.start, position) <= 0 && comparePositions(position, range.end) <= 0;
}

export function comparePositions(a: Position, b: Position): number {
  return a.line === b.line ? a.character - b.character : a.line - b.line;
}

/** Offset <-> position conversion over one text (LineIndex; an open document's TextDocument, kept up to date by its edits). */
export interface TextLines {
  offsetAt(position: Position): number;
  positionAt(offset: number): Position;
  readonly lineCount: number;
  /** A line's text without its line break, when the holder can give it without reading the whole text. */
  lineText?(line: number): string;
}

let lastIndex: LineIndex | undefined;

/**
 * Line starts of a text, for offset <-> position conversion in UTF-16 code units (JavaScript string indices).
 * Line breaks are \n, \r\n or \r, as LSP defines them.
 */
export class LineIndex implements TextLines {
  private readonly lineStarts: number[];

  /**
   * The index of `text`, shared with the previous caller that asked for the same text: completion, code actions and
   * lenses of one document version need the same line starts, and a 1 MB file has 40,000 of them.
   */
  static of(text: string): LineIndex {
    if (lastIndex?.text !== text) lastIndex = new LineIndex(text);
    return lastIndex;
  }

  constructor(private readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') === -1) {
      // The usual case, \n only: the engine's string search finds the breaks far faster than a loop over every character.
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
      this.lineStarts = starts;
      return;
    }
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      } else if (code === 10 /* \n */) {
        starts.push(i + 1);
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** Clamps like LSP clients expect: a position past the end of a line means the end of that line. */
  offsetAt(position: Position): number {
    if (position.line < 0) return 0;
    if (position.line >= this.lineStarts.length) return this.text.length;
    const lineStart = this.lineStarts[position.line];
    const lineEnd = this.lineContentEnd(position.line);
    return Math.min(lineStart + Math.max(0, position.character), lineEnd);
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.lineStarts[middle] <= clamped) low = middle;
      else high = middle - 1;
    }
    return { line: low, character: clamped - this.lineStarts[low] };
  }

  rangeOf(startOffset: number, endOffset: number): Range {
    return { start: this.positionAt(startOffset), end: this.positionAt(endOffset) };
  }

  /** Offset of the end of a line's content, before its line break. */
  private lineContentEnd(line: number): number {
    const nextStart = line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] : this.text.length;
    let end = nextStart;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.lineStarts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return line + 1 < this.lineStarts.length ? end : this.text.length;
  }
}

/**
 * tree-sitter's point for an offset: rows advance on \n only (a lone \r, which LSP also counts as a line
 * break, does not — files with classic-Mac line ends get shifted rows), columns in UTF-16 code units.
 */
export function treeSitterPoint(text: string, offset: number): Point {
  return new TreeSitterPoints(text).pointAt(offset);
}

/** The same, for many offsets of one text: the line breaks are found once, then each lookup is a binary search. */
export class TreeSitterPoints {
  private readonly newlines: number[] = [];

  constructor(text: string) {
    for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) this.newlines.push(index);
  }

  pointAt(offset: number): Point {
    let low = 0;
    let high = this.newlines.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.newlines[middle] < offset) low = middle + 1;
      else high = middle;
    }
    return { row: low, column: offset - (low === 0 ? 0 : this.newlines[low - 1] + 1) };
  }
}

/**
 * Points of offsets at or after `start`, whose row is known (`startRow`; `start` begins a line): for parsing one
 * block of a large file without finding every line break before it.
 */
export function pointsAfterLineStart(text: string, start: number, startRow: number): { pointAt(offset: number): Point } {
  return {
    pointAt(offset) {
      let row = startRow;
      let lineStart = start;
      for (let index = text.indexOf('\n', start); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) {
        row++;
        lineStart = index + 1;
      }
      return { row, column: offset - lineStart };
    },
  };
}
