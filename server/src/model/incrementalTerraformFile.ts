// Re-extracts only what changed in an open .tf file. A file's contribution is the concatenation of what each
// top-level piece of its syntax tree (a block, an attribute, an ERROR node) contributes, so the pieces of the previous
// extraction are kept by content: an unchanged block is reused as it is, a block that only moved up or down is
// reused with its rows shifted, and only the blocks that were typed in are read from the tree again. The result is
// exactly what extractTerraformFile gives on a fresh parse of the same text (test/model/incremental.test.ts).
import type { MovedBlock, TerraformFileContribution } from './contributions';
import { findVariableReferences } from './references';
import { findSyntaxProblems } from './syntaxProblems';
import { blockKeyword, bodyItems } from './syntaxTree';
import { collect, collectBlock, extractTerraformFile, maxRegions, salvageHeader, topLevelRegions } from './terraformFile';
import type { RegionParser } from './terraformFile';
import type { Node, Tree } from './treeSitter';

type Facts = Omit<TerraformFileContribution, 'kind' | 'file' | 'syntaxProblems' | 'moved'> & { moved: MovedBlock[]; blockCount: number };

interface Piece {
  /** The row the piece started on when it was extracted. */
  row: number;
  facts: Facts;
}

/** The same keywords syntaxTree.topLevelBlocks treats as top level inside a broken block. */
const topLevelKeywords = new Set(['terraform', 'variable', 'resource', 'data', 'module', 'output', 'locals', 'provider', 'ephemeral', 'check', 'import', 'moved', 'removed']);

/** One top-level item of the file's body as last extracted, by position: what an edit elsewhere leaves alone. */
interface Entry {
  start: number;
  end: number;
  row: number;
  type: string;
  facts: Facts;
}

/** What changed since the last extraction: the text before `prefix` and the last `suffix` characters are unchanged. */
export interface EditSpan {
  prefix: number;
  suffix: number;
}

export class IncrementalTerraformExtractor {
  private pieces = new Map<string, Piece>();
  /** The body's items of the last extraction, when the file's root was a plain `config_file > body`. */
  private entries: Entry[] | undefined;
  private regions = new Map<string, Piece>();
  /** How many pieces the last extraction read from the tree (the rest were reused): for tests. */
  lastExtracted = 0;

  constructor(private readonly file: string) {}

  /** Forgets every piece (after a failed extraction: the next one starts from scratch). */
  reset(): void {
    this.pieces.clear();
    this.regions.clear();
    this.entries = undefined;
  }

  /** With `edit`, only the body items in (and next to) the edited span are read from the tree. */
  extract(tree: Tree, text: string, parseRegion?: RegionParser, edit?: EditSpan): TerraformFileContribution {
    const root = tree.rootNode;
    const syntaxProblems = findSyntaxProblems(root);
    // The same choice extractTerraformFile makes: a broken file with a few top-level blocks is read region by region.
    const regions = root.hasError && parseRegion ? topLevelRegions(root.text) : [];
    if (parseRegion && regions.length > 1 && regions.length <= maxRegions) {
      this.entries = undefined;
      return this.fromRegions(root.text, regions, parseRegion, syntaxProblems);
    }
    this.regions.clear();
    if (root.type !== 'config_file') {
      this.pieces.clear();
      this.entries = undefined;
      this.lastExtracted = 1;
      return extractTerraformFile(tree, this.file, parseRegion);
    }
    const body = plainBody(root);
    if (edit && body && this.entries) return this.fromWindow(root, body, text, edit, syntaxProblems);
    const contribution = this.fromPieces(root, text, syntaxProblems);
    this.entries = body ? this.entriesOf(body) : undefined;
    return contribution;
  }

  private entriesOf(body: Node): Entry[] {
    const entries: Entry[] = [];
    for (const item of body.children) {
      if (!item) continue;
      const piece = this.pieces.get(pieceKey(item, item.type === 'block' || item.type === 'attribute', this.textOf(item)));
      if (!piece) return []; // cannot happen: fromPieces just stored every item
      entries.push({ start: item.startIndex, end: item.endIndex, row: item.startPosition.row, type: item.type, facts: piece.facts });
    }
    return entries;
  }

  private currentText = '';

  private textOf(node: Node): string {
    return this.currentText.slice(node.startIndex, node.endIndex);
  }

  /**
   * The items before the edit (and before any range whose structure tree-sitter reports changed) are the previous
   * ones as they were; the items after it are the previous ones moved by the edit's length and line count; only the
   * items in between are read from the tree.
   */
  private fromWindow(root: Node, body: Node, text: string, edit: EditSpan, syntaxProblems: TerraformFileContribution['syntaxProblems']): TerraformFileContribution {
    const previous = this.entries as Entry[];
    const delta = text.length - this.currentText.length;
    // tree-sitter's own changed ranges would say where the structure changed, but computing them walks the whole
    // tree (about as long as the parse on a 1 MB file). The window is the edited text instead, widened by one item
    // on each side (a reduction can look one token ahead), and checked against the new tree below.
    const dirtyStart = edit.prefix;
    const dirtyEnd = text.length - edit.suffix;
    // Before the window: the previous items as they were (their text and structure did not change).
    let before = 0;
    while (before < previous.length && previous[before].end < dirtyStart) before++;
    before = Math.max(0, before - 1);
    // After it: the previous items moved by the edit, when a line break separates them from it (same columns).
    let after = previous.length;
    while (after > before && previous[after - 1].start + delta > dirtyEnd && text.lastIndexOf('\n', previous[after - 1].start + delta - 1) >= dirtyEnd) after--;
    after = Math.min(previous.length, after + 1);
    const windowStart = before > 0 ? previous[before - 1].end : 0;
    const windowEnd = after < previous.length ? previous[after].start + delta : Infinity;

    const document = { text, endIndex: root.endIndex };
    const rootHasError = root.hasError;
    const middle: Entry[] = [];
    let item = body.firstChildForIndex(windowStart);
    for (; item && item.startIndex < windowEnd; item = item.nextSibling) {
      middle.push({ start: item.startIndex, end: item.endIndex, row: item.startPosition.row, type: item.type, facts: this.pieceFacts(item, item.type === 'block' || item.type === 'attribute', rootHasError, document) });
    }
    // The tree must continue exactly where the kept items say it does; otherwise read everything again.
    const aligned = windowEnd === Infinity ? item === null : item !== null && item.startIndex === windowEnd && item.type === previous[after].type;
    if (!aligned || (middle.length > 0 && middle[0].start < windowStart)) {
      const contribution = this.fromPieces(root, text, syntaxProblems);
      this.entries = this.entriesOf(body);
      return contribution;
    }
    const rowDelta = after < previous.length && item ? item.startPosition.row - previous[after].row : 0;
    const moved = previous.slice(after).map((entry) => ({
      start: entry.start + delta,
      end: entry.end + delta,
      row: entry.row + rowDelta,
      type: entry.type,
      facts: rowDelta === 0 ? entry.facts : shiftRows(entry.facts, rowDelta),
    }));
    const entries = [...previous.slice(0, before), ...middle, ...moved];
    this.entries = entries;
    this.pieces.clear(); // the keyed cache is rebuilt by the next full pass
    this.currentText = text;
    this.lastExtracted = middle.length;
    const contribution = emptyContribution(this.file, syntaxProblems);
    const all = entries.map((entry) => entry.facts);
    if (all.every((facts) => facts.blockCount === 0)) salvageHeader(root, this.file, contribution);
    return append(contribution, all);
  }

  private fromPieces(root: Node, text: string, syntaxProblems: TerraformFileContribution['syntaxProblems']): TerraformFileContribution {
    this.currentText = text;
    const rootHasError = root.hasError;
    const document = { text, endIndex: root.endIndex };
    const next = new Map<string, Piece>();
    const all: Facts[] = [];
    let extracted = 0;
    let firstBody = true;
    const visit = (node: Node, inFirstBody: boolean) => {
      const row = node.startPosition.row;
      const key = pieceKey(node, inFirstBody, text.slice(node.startIndex, node.endIndex));
      let piece = this.pieces.get(key) ?? next.get(key);
      if (!piece) {
        extracted++;
        piece = { row, facts: this.pieceFacts(node, inFirstBody, rootHasError, document) };
      } else if (piece.row !== row) piece = { row, facts: shiftRows(piece.facts, row - piece.row) };
      next.set(key, piece);
      all.push(piece.facts);
    };
    for (const child of root.children) {
      if (!child) continue;
      if (child.type === 'body' && firstBody) {
        firstBody = false;
        for (const item of child.children) if (item) visit(item, item.type === 'block' || item.type === 'attribute');
      } else visit(child, false);
    }
    this.pieces = next;
    this.lastExtracted = extracted;
    const contribution = emptyContribution(this.file, syntaxProblems);
    if (all.every((facts) => facts.blockCount === 0)) salvageHeader(root, this.file, contribution);
    return append(contribution, all);
  }

  /** Mirrors syntaxTree.topLevelBlocks for one piece of the root, then collect() for what it found. */
  private pieceFacts(piece: Node, inFirstBody: boolean, rootHasError: boolean, document: { text: string; endIndex: number }): Facts {
    const found: Node[] = [];
    if (inFirstBody && piece.type === 'block') {
      found.push(piece);
      const pending: Node[] = piece.hasError ? [piece] : [];
      while (pending.length > 0) {
        for (const item of bodyItems(pending.pop() as Node)) {
          if (item.type !== 'block') continue;
          if (topLevelKeywords.has(blockKeyword(item))) found.push(item);
          if (item.hasError) pending.push(item);
        }
      }
    }
    if (rootHasError) {
      const errors = piece.descendantsOfType('ERROR');
      if (piece.type === 'ERROR' && !errors.some((error) => error?.id === piece.id)) errors.unshift(piece);
      for (const error of errors) {
        for (const child of error?.namedChildren ?? []) {
          if (child?.type === 'block' && topLevelKeywords.has(blockKeyword(child)) && !found.some((block) => block.id === child.id)) found.push(child);
        }
      }
    }
    found.sort((a, b) => a.startIndex - b.startIndex);
    const facts: Facts = { variables: [], references: [], addresses: [], moved: [], cloudBlocks: [], remoteBackends: [], blockCount: found.length };
    for (const block of found) collectBlock(block, this.file, facts);
    facts.references = findVariableReferences(piece, this.file, document);
    return facts;
  }

  private fromRegions(rootText: string, regions: [number, number][], parseRegion: RegionParser, syntaxProblems: TerraformFileContribution['syntaxProblems']): TerraformFileContribution {
    this.pieces.clear();
    this.currentText = rootText;
    const next = new Map<string, Piece>();
    const all: Facts[] = [];
    let extracted = 0;
    let row = 0;
    let counted = 0;
    for (const [start, end] of regions) {
      row += countNewlines(rootText, counted, start);
      counted = start;
      // Regions start at a line start, and a region's parse sees nothing but its own text: text and row say it all.
      const key = rootText.slice(start, end);
      let piece = this.regions.get(key) ?? next.get(key);
      if (!piece) {
        extracted++;
        const regionTree = parseRegion(start, end);
        try {
          const into = emptyContribution(this.file, []);
          collect(regionTree.rootNode, this.file, into);
          piece = { row, facts: { ...into, moved: into.moved ?? [], blockCount: 0 } };
        } finally {
          regionTree.delete();
        }
      } else if (piece.row !== row) piece = { row, facts: shiftRows(piece.facts, row - piece.row) };
      next.set(key, piece);
      all.push(piece.facts);
    }
    this.regions = next;
    this.lastExtracted = extracted;
    return append(emptyContribution(this.file, syntaxProblems), all);
  }
}

/**
 * What makes a piece's facts: its text, where its first line starts, its shape and whether it is in the file's body
 * (the same text can parse differently after a broken line, so the shape is part of the key). A root error does
 * not matter: a piece without errors of its own contributes the same either way.
 */
function pieceKey(node: Node, inFirstBody: boolean, text: string): string {
  return `${node.type}\u0000${node.startPosition.column}\u0000${node.descendantCount}\u0000${node.hasError}\u0000${inFirstBody}\u0000${text}`;
}

/** The root's only child when it is the body (the usual shape); undefined for the odd shapes error recovery makes. */
function plainBody(root: Node): Node | undefined {
  const body = root.childCount === 1 ? root.firstChild : null;
  return body?.type === 'body' ? body : undefined;
}

function emptyContribution(file: string, syntaxProblems: TerraformFileContribution['syntaxProblems']): TerraformFileContribution {
  return { kind: 'terraform', file, variables: [], references: [], addresses: [], moved: [], cloudBlocks: [], remoteBackends: [], syntaxProblems };
}

function append(into: TerraformFileContribution, all: Facts[]): TerraformFileContribution {
  const moved = into.moved ?? [];
  for (const facts of all) {
    for (const item of facts.variables) into.variables.push(item);
    for (const item of facts.addresses) into.addresses.push(item);
    for (const item of facts.moved) moved.push(item);
    for (const item of facts.cloudBlocks) into.cloudBlocks.push(item);
    for (const item of facts.remoteBackends) into.remoteBackends.push(item);
  }
  for (const facts of all) for (const item of facts.references) into.references.push(item);
  into.moved = moved;
  return into;
}

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let index = text.indexOf('\n', from); index !== -1 && index < to; index = text.indexOf('\n', index + 1)) count++;
  return count;
}

/** Values that never hold positions, however they look (a literal `{ line = 1, character = 2 }` is user data). */
const opaqueKeys = new Set(['literal', 'parsed', 'value']);

/** A copy of `value` with every position's line moved by `delta`. */
function shiftRows<T>(value: T, delta: number): T {
  if (Array.isArray(value)) return value.map((item) => shiftRows(item, delta)) as T;
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (typeof record.line === 'number' && typeof record.character === 'number' && Object.keys(record).length === 2) {
    return { line: record.line + delta, character: record.character } as T;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) copy[key] = opaqueKeys.has(key) ? item : shiftRows(item, delta);
  return copy as T;
}
