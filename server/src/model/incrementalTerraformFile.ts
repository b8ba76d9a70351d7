// Re-extracts only what changed in an open .tf file. A file's contribution is the concatenation of what each
// top-level piece of its syntax tree (a block, an attribute, an ERROR node) contributes, so the pieces of the previous
// extraction are kept by content: an unchanged block is reused as it is, a block that only moved up or down is
// reused with its rows shifted, and only the blocks that were typed in are read from the tree again. The result is
// exactly what extractTerraformFile gives on a fresh parse of the same text (test/model/incremental.test.ts).
// This file keeps what is up to date (the keyed pieces, the entries, the last lists) and applies an edit to it; which
// entries an edit touches is editWindow.ts, how pieces are keyed pieceKeys.ts, how they are read pieceReading.ts.
import type { SyntaxProblem, TerraformFileContribution } from './contributions';
import type { SwappedItems } from './folderIndex';
import { append, emptyContribution, spliceBlock } from './pieceFacts';
import type { Facts } from './pieceFacts';
import { allSteps } from './steps';
import type { Steps } from './steps';
import { findSyntaxProblems, syntaxProblemSteps } from './syntaxProblems';
import { countNewlines, moveEntriesAfterEdit, movedEntries, plainBody, problemsOf } from './bodyEntries';
import type { Entry } from './bodyEntries';
import { blockAloneIndex, windowEndEntry, windowStartEntry } from './editWindow';
import type { EditSpan } from './editWindow';
import { holdsBrokenRegion, isolatableRegions, readRegionAlone, readRegionTree, regionEntryType } from './isolatedRegions';
import { entryPieces, pieceShape } from './pieceKeys';
import type { Piece } from './pieceKeys';
import { entriesOf, pieceOf, readPieceFacts, regionPieces } from './pieceReading';
import { extractTerraformFile, maxRegions, salvageHeader, topLevelRegions } from './terraformFile';
import type { RegionParser } from './terraformFile';
import type { Node, Tree } from './treeSitter';

/** A block edit's result: `exact` when it is what a whole-file parse gives, otherwise a whole-file parse must check it. */
export interface BlockEditResult {
  contribution: TerraformFileContribution;
  exact: boolean;
  /** The items that took the place of others in `contribution`'s lists (see FolderIndex.replace). */
  swapped: SwappedItems;
  /**
   * A region read alone (isolatedRegions.ts) still holds a syntax error: the facts stand for the broken text as its
   * regions read it, and a whole-file parse is not wanted until the regions are repaired.
   */
  isolated: boolean;
}

export class IncrementalTerraformExtractor {
  private pieces = new Map<string, Piece>();
  /** The body's items of the last extraction, when the file's root was a plain `config_file > body`. */
  private entries: Entry[] | undefined;
  private regions = new Map<string, Piece>();
  /** How many pieces the last extraction read from the tree (the rest were reused): for tests. */
  lastExtracted = 0;
  /**
   * The entries are every item of the file's body (a plain body, nothing else at the root but comments), positioned
   * in the current text: what an edit inside one block needs to be read from that block alone.
   */
  private aligned = false;
  /** Aligned, and the file has no syntax error, as a whole-file parse found it: a block read from its text alone is exact. */
  private clean = false;
  /** The contribution last returned while aligned: its lists are the entries' lists one after another. */
  private last: TerraformFileContribution | undefined;

  constructor(private readonly file: string) {}

  /** Forgets every piece (after a failed extraction: the next one starts from scratch). */
  reset(): void {
    this.pieces.clear();
    this.regions.clear();
    this.entries = undefined;
    this.aligned = false;
    this.clean = false;
    this.last = undefined;
  }

  /** With `edit`, only the body items in (and next to) the edited span are read from the tree. */
  extract(tree: Tree, text: string, parseRegion?: RegionParser, edit?: EditSpan): TerraformFileContribution {
    return allSteps(this.extractSteps(tree, text, parseRegion, edit));
  }

  /**
   * extract, a step at a time (steps.ts): a step per piece, region or range of a large piece. Nothing else may use
   * this extractor until the last step (the folder's queue keeps the document's changes out meanwhile).
   */
  *extractSteps(tree: Tree, text: string, parseRegion?: RegionParser, edit?: EditSpan, isolate = false): Steps<TerraformFileContribution> {
    const root = tree.rootNode;
    this.aligned = false;
    this.clean = false;
    this.last = undefined;
    // A large file found broken is read region by region, and its regions are the entries the next edits are read
    // from (see extractBlockEdit's `isolate`): otherwise every edit of it would need the whole file parsed again.
    if (isolate && root.hasError && parseRegion) {
      const regions = yield* isolatableRegions(root, text);
      const isolated = regions ? yield* this.fromIsolatedRegions(text, regions, parseRegion) : undefined;
      if (isolated) return isolated;
    }
    const syntaxProblems = yield* syntaxProblemSteps(root);
    // The same choice extractTerraformFile makes: a broken file with a few top-level blocks is read region by region.
    const regions = root.hasError && parseRegion ? topLevelRegions(root.text) : [];
    if (parseRegion && regions.length > 1 && regions.length <= maxRegions) {
      this.entries = undefined;
      this.pieces.clear();
      const rootText = root.text;
      this.currentText = rootText;
      const next = new Map<string, Piece>();
      const all: Facts[] = [];
      this.lastExtracted = yield* regionPieces(rootText, regions, parseRegion, this.file, this.regions, next, all);
      this.regions = next;
      return append(emptyContribution(this.file, syntaxProblems), all);
    }
    this.regions.clear();
    if (root.type !== 'config_file') {
      this.pieces.clear();
      this.entries = undefined;
      this.lastExtracted = 1;
      return extractTerraformFile(tree, this.file, parseRegion);
    }
    const body = plainBody(root);
    let contribution: TerraformFileContribution;
    if (edit && body && this.entries) contribution = yield* this.fromWindow(root, body, text, edit, syntaxProblems);
    else {
      contribution = yield* this.fromPieces(root, text, syntaxProblems);
      this.entries = body ? yield* entriesOf(body, this.bodyFacts) : undefined;
    }
    this.aligned = body !== undefined && this.entries !== undefined && this.entries.length === body.childCount && this.entries.some((entry) => entry.facts.blockCount > 0);
    this.clean = this.aligned && !root.hasError;
    // With a block among the entries the file's lists are exactly the entries' lists (no header salvaged).
    this.last = this.aligned ? contribution : undefined;
    return contribution;
  }

  /**
   * An edit inside one top-level block, read from that block's text alone: the block is parsed on its own (a few
   * hundred characters instead of the whole file; tree-sitter's re-parse of a 1 MB file takes ~15 ms even for one
   * character, as it rebuilds the file's list of blocks), and the blocks after it move by the edit. Undefined when
   * the edit is not of that kind; the caller then re-parses the whole file.
   *
   * When the result is exact: the file had no syntax error, the block starts a line and ends one (text before and
   * after it unchanged), and its new text parses alone as exactly one block with no error. The grammar's top level
   * is a list of blocks and attributes, each read from where the previous one ended in the same parser state, so
   * the whole file's parse holds the same block there (test/model/incremental.test.ts compares every edit sequence
   * with a fresh parse).
   *
   * `unverified`: also read the block alone when the block is broken (a half-typed `var.`) or the file already was,
   * as long as the block's text still parses as one block from its first line to its closing brace. Error recovery
   * is not local in general, so such a result is not `exact`: the caller has the whole file parsed later (once the
   * typing pauses), which replaces it. Without it, that edit goes the whole-file way at once.
   *
   * `isolate` (a large file): an edit that cannot be read from its block even so (it breaks the block, or reaches
   * past it) is read from the lines it touches, widened to whole items, alone (isolatedRegions.ts), and the result
   * says whether such a region is still broken (`isolated`): the whole-file parse then waits for the repair.
   */
  extractBlockEdit(text: string, edit: EditSpan, parseRegion: (startIndex: number, endIndex: number, startRow: number) => Tree, unverified = false, isolate = false): BlockEditResult | undefined {
    const read = this.readBlockAlone(text, edit, parseRegion, unverified || isolate) ?? (isolate ? this.readRegion(text, edit, parseRegion) : undefined);
    // Only an isolating document holds regions: a clean file's keystroke skips the scan of its 6,000 entries.
    if (read) read.isolated = isolate && this.entries !== undefined && holdsBrokenRegion(this.entries);
    return read;
  }

  /** An edit read from its region alone (see extractBlockEdit's `isolate`): never exact, a whole-file parse reads broken text otherwise. */
  private readRegion(text: string, edit: EditSpan, parseRegion: (startIndex: number, endIndex: number, startRow: number) => Tree): BlockEditResult | undefined {
    const entries = this.entries;
    const last = this.last;
    if (!this.aligned || !last || !entries || entries.length === 0) return undefined;
    const read = readRegionAlone({ file: this.file, entries, last, oldText: this.currentText, text, prefix: edit.prefix, suffix: edit.suffix, parseRegion });
    if (!read) return undefined;
    this.pieces.clear(); // the keyed cache is rebuilt by the next full pass
    this.currentText = text;
    this.lastExtracted = 1;
    this.clean = false;
    this.last = read.contribution;
    return { contribution: read.contribution, exact: false, swapped: { basedOn: last, removed: read.removed, added: read.added }, isolated: true };
  }

  private readBlockAlone(text: string, edit: EditSpan, parseRegion: (startIndex: number, endIndex: number, startRow: number) => Tree, unverified: boolean): BlockEditResult | undefined {
    const previous = this.entries;
    // `last` is kept whenever the entries are aligned: the lists the edited block's items are swapped in.
    const last = this.last;
    if (!this.aligned || !last || !previous || previous.length === 0) return undefined;
    if (!this.clean && !unverified) return undefined;
    const oldText = this.currentText;
    const delta = text.length - oldText.length;
    const index = blockAloneIndex(previous, oldText, edit.prefix, oldText.length - edit.suffix);
    if (index < 0) return undefined;
    const entry = previous[index];
    const start = entry.start;
    const end = entry.end + delta;
    if (end <= start) return undefined;
    const blockTree = parseRegion(start, end, entry.row);
    let facts: Facts;
    let problems: SyntaxProblem[];
    let exact: boolean;
    let shape: string | undefined;
    try {
      const root = blockTree.rootNode;
      const body = plainBody(root);
      const block = body?.childCount === 1 ? body.firstChild : null;
      if (!block || block.type !== 'block' || block.startIndex !== start || block.endIndex !== end) return undefined;
      // A block whose closing brace is missing (or made up by error recovery) can swallow the blocks after it in
      // the whole file: that is never read alone.
      const closing = block.lastChild;
      if (closing?.type !== 'block_end' || closing.hasError) return undefined;
      exact = this.clean && !root.hasError;
      if (!exact && !unverified) return undefined;
      facts = allSteps(readPieceFacts(block, true, block.hasError, { text, endIndex: text.length }, this.file));
      problems = findSyntaxProblems(block);
      shape = exact ? pieceShape(block) : undefined;
    } finally {
      blockTree.delete();
    }
    const rowDelta = countNewlines(text, start, end) - countNewlines(oldText, entry.start, entry.end);
    const previousFacts = entry.facts;
    // The entries are this extractor's own: the later ones move in place (moveEntriesAfterEdit).
    previous[index] = { start, end, row: entry.row, type: entry.type, facts, problems, shape };
    moveEntriesAfterEdit(previous, index + 1, delta, rowDelta);
    this.pieces.clear(); // the keyed cache is rebuilt by the next full pass
    this.currentText = text;
    this.lastExtracted = 1;
    this.clean = exact;
    // The previous lists with the block's items swapped (a copy of references, not a walk over every block), and the
    // later blocks' items moved in place through them: the entries' facts hold the same objects.
    const contribution = spliceBlock(this.file, last, previous, index, previousFacts, facts, rowDelta);
    contribution.syntaxProblems = exact ? [] : problemsOf(previous);
    this.last = contribution;
    return { contribution, exact, swapped: { basedOn: last, removed: previousFacts, added: facts }, isolated: false };
  }

  private currentText = '';
  /** The facts of each item of the first body, in order, as fromPieces last read them. */
  private bodyFacts: Facts[] = [];

  /**
   * The items before the edit (and before any range whose structure tree-sitter reports changed) are the previous
   * ones as they were; the items after it are the previous ones moved by the edit's length and line count; only the
   * items in between are read from the tree.
   */
  private *fromWindow(root: Node, body: Node, text: string, edit: EditSpan, syntaxProblems: TerraformFileContribution['syntaxProblems']): Steps<TerraformFileContribution> {
    const previous = this.entries as Entry[];
    const delta = text.length - this.currentText.length;
    // The window is the edited text widened by an item on each side (editWindow.ts), checked against the new tree below.
    const before = windowStartEntry(previous, edit.prefix);
    const after = windowEndEntry(previous, before, text, delta, text.length - edit.suffix);
    const windowStart = before > 0 ? previous[before - 1].end : 0;
    const windowEnd = after < previous.length ? previous[after].start + delta : Infinity;

    const document = { text, endIndex: root.endIndex };
    const rootHasError = root.hasError;
    const middle: Entry[] = [];
    let item = body.firstChildForIndex(windowStart);
    for (; item && item.startIndex < windowEnd; item = item.nextSibling) {
      middle.push({
        start: item.startIndex,
        end: item.endIndex,
        row: item.startPosition.row,
        type: item.type,
        facts: yield* readPieceFacts(item, item.type === 'block' || item.type === 'attribute', rootHasError, document, this.file),
        problems: findSyntaxProblems(item),
        shape: pieceShape(item),
      });
      yield;
    }
    // The tree must continue exactly where the kept items say it does; otherwise read everything again.
    const aligned = windowEnd === Infinity ? item === null : item !== null && item.startIndex === windowEnd && item.type === previous[after].type;
    if (!aligned || (middle.length > 0 && middle[0].start < windowStart)) {
      const contribution = yield* this.fromPieces(root, text, syntaxProblems);
      this.entries = yield* entriesOf(body, this.bodyFacts);
      return contribution;
    }
    const rowDelta = after < previous.length && item ? item.startPosition.row - previous[after].row : 0;
    const entries = [...previous.slice(0, before), ...middle, ...movedEntries(previous, after, delta, rowDelta)];
    this.entries = entries;
    this.pieces.clear(); // the keyed cache is rebuilt by the next full pass
    this.currentText = text;
    this.lastExtracted = middle.length;
    const contribution = emptyContribution(this.file, syntaxProblems);
    const all = entries.map((entry) => entry.facts);
    if (all.every((facts) => facts.blockCount === 0)) salvageHeader(root, this.file, contribution);
    return append(contribution, all);
  }

  private *fromPieces(root: Node, text: string, syntaxProblems: TerraformFileContribution['syntaxProblems']): Steps<TerraformFileContribution> {
    // Right after a whole pass the keyed pieces are the entries'; after edits read from a block or a window, the
    // entries are what is up to date.
    const previous = this.pieces.size > 0 ? this.pieces : entryPieces(this.entries, this.currentText);
    this.currentText = text;
    const rootHasError = root.hasError;
    const document = { text, endIndex: root.endIndex };
    const next = new Map<string, Piece>();
    const all: Facts[] = [];
    const bodyFacts: Facts[] = [];
    const read = { extracted: 0 };
    let firstBody = true;
    for (const child of root.children) {
      if (!child) continue;
      if (child.type === 'body' && firstBody) {
        firstBody = false;
        for (const item of child.children) {
          if (!item) continue;
          const facts = yield* pieceOf(item, item.type === 'block' || item.type === 'attribute', rootHasError, document, next, read, previous, this.file);
          all.push(facts);
          bodyFacts.push(facts);
        }
      } else all.push(yield* pieceOf(child, false, rootHasError, document, next, read, previous, this.file));
    }
    this.pieces = next;
    this.bodyFacts = bodyFacts;
    this.lastExtracted = read.extracted;
    const contribution = emptyContribution(this.file, syntaxProblems);
    if (all.every((facts) => facts.blockCount === 0)) salvageHeader(root, this.file, contribution);
    return append(contribution, all);
  }

  /**
   * The file's regions read alone, each an entry (a step per region); undefined when none of them holds the file's
   * syntax error (whatever breaks the file spans regions): the whole tree tells it then.
   */
  private *fromIsolatedRegions(text: string, regions: readonly [number, number][], parseRegion: RegionParser): Steps<TerraformFileContribution | undefined> {
    const entries: Entry[] = [];
    let row = 0;
    let counted = 0;
    for (const [start, end] of regions) {
      row += countNewlines(text, counted, start);
      counted = start;
      const { facts, problems } = readRegionTree(parseRegion(start, end), this.file);
      entries.push({ start, end, row, type: regionEntryType, facts, problems, shape: undefined });
      yield;
    }
    if (!holdsBrokenRegion(entries)) return undefined;
    this.pieces.clear();
    this.regions.clear();
    this.entries = entries;
    this.currentText = text;
    this.lastExtracted = entries.length;
    this.aligned = true;
    this.clean = false;
    const contribution = append(emptyContribution(this.file, problemsOf(entries)), entries.map((entry) => entry.facts));
    this.last = contribution;
    return contribution;
  }

}

