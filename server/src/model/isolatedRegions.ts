// A large open file whose edit breaks its block (a closing brace too many, one deleted, a block half pasted) is read
// region by region instead of parsed whole again: the lines the edit touches, widened to the whole top-level items
// they hold, are parsed alone, and the items before and after keep their facts. tree-sitter's recovery from such an
// error in a 1 MB file takes 0.3-1.5 s, the rebalancing of its result runs 14-28 ms between two checks of the
// progress callback, and freeing the tree it replaces 47-100 ms in one call: a request meanwhile waited that long.
// Read this way, the broken region holds the error and the blocks after it keep what they declare (a whole-file
// parse reads them as swallowed by the unclosed block). Used by IncrementalTerraformExtractor.
import type { TerraformFileContribution } from './contributions';
import type { Entry } from './bodyEntries';
import { countNewlines, moveEntriesAfterEdit, problemsOf } from './bodyEntries';
import type { Facts } from './pieceFacts';
import { emptyContribution, spliceBlock } from './pieceFacts';
import { findSyntaxProblems } from './syntaxProblems';
import type { Steps } from './steps';
import { collect, topLevelRegions } from './terraformFile';
import type { Node, Tree } from './treeSitter';

/** The type of an entry read as a region alone (not a body item of a whole-file tree). */
export const regionEntryType = 'region';

export interface RegionEdit {
  file: string;
  /** The extractor's entries, aligned with `oldText`: changed in place to align with `text`. */
  entries: Entry[];
  /** The contribution last returned for `entries`. */
  last: TerraformFileContribution;
  oldText: string;
  text: string;
  /** The first `prefix` and last `suffix` characters are the same in both texts. */
  prefix: number;
  suffix: number;
  /** Parses [startIndex, endIndex) of `text` alone, `startIndex` being the start of line `startRow`. */
  parseRegion(startIndex: number, endIndex: number, startRow: number): Tree;
}

export interface RegionRead {
  contribution: TerraformFileContribution;
  removed: Facts;
  added: Facts;
}

/**
 * The longest region read alone, at once, on a keystroke: ~20 ms of parsing. Regions grow when edits span them (a
 * paste over half the file); past this the edit goes the whole-file way, parsed in slices with requests between
 * them, and the next edits are read in regions of that parse's items again.
 */
export const maxRegionLength = 64 * 1024;

/**
 * Reads the region an edit touches alone and splices its facts in place of those of the items it replaces;
 * undefined when that region would be longer than maxRegionLength (nothing is changed then).
 */
export function readRegionAlone(edit: RegionEdit): RegionRead | undefined {
  const { entries, oldText, text } = edit;
  const delta = text.length - oldText.length;
  const [from, to, first, count] = regionOf(entries, oldText, edit.prefix, oldText.length - edit.suffix);
  const end = to + delta;
  if (end - from > maxRegionLength) return undefined;
  const row = rowOf(entries, oldText, from, first);
  const { facts: added, problems } = readRegionTree(edit.parseRegion(from, end, row), edit.file);
  const removed = joinedFacts(entries, first, count);
  const rowDelta = countNewlines(text, from, end) - countNewlines(oldText, from, to);
  const contribution = spliceBlock(edit.file, edit.last, entries, first, removed, added, rowDelta);
  entries.splice(first, count, { start: from, end, row, type: regionEntryType, facts: added, problems, shape: undefined });
  moveEntriesAfterEdit(entries, first + 1, delta, rowDelta);
  contribution.syntaxProblems = problemsOf(entries);
  return { contribution, removed, added };
}

/** A region's facts and syntax problems, read from its own tree (which this deletes). */
export function readRegionTree(tree: Tree, file: string): { facts: Facts; problems: Entry['problems'] } {
  try {
    return { facts: regionFacts(tree.rootNode, file), problems: findSyntaxProblems(tree.rootNode) };
  } finally {
    tree.delete();
  }
}

/** What a region parsed alone declares and references (blockCount only matters to a whole pass, which reads items again). */
export function regionFacts(root: Node, file: string): Facts {
  const into = emptyContribution(file, []);
  collect(root, file, into);
  // A literal of pieceFacts' shape (a spread of `into` would make a hidden class of its own).
  const { variables, references, addresses, cloudBlocks, remoteBackends } = into;
  return { variables, references, addresses, moved: into.moved ?? [], cloudBlocks, remoteBackends, blockCount: 0 };
}

/**
 * The regions of a broken file's text, each starting with a top-level block header at the start of a line (as
 * topLevelRegions finds them) that the whole-file tree does not hold inside a comment or a string (a commented-out
 * block, a heredoc), and ending at the line break before the next; undefined when there are fewer than two or one is
 * longer than maxRegionLength (an unclosed heredoc): such a file is read from its whole tree.
 */
export function* isolatableRegions(root: Node, text: string): Steps<[number, number][] | undefined> {
  const regions: [number, number][] = [];
  for (const [start, end] of topLevelRegions(text)) {
    const previous = regions[regions.length - 1];
    if (previous && !startsTopLevel(root, start)) previous[1] = end;
    else regions.push([start, end]);
    if (regions.length % 256 === 0) yield;
  }
  for (const region of regions) if (region[1] < text.length && text.charCodeAt(region[1] - 1) === 10) region[1]--;
  return regions.length > 1 && regions.every(([start, end]) => end - start <= maxRegionLength) ? regions : undefined;
}

const textNodeTypes = new Set(['comment', 'heredoc_template', 'template_literal', 'quoted_template', 'string_lit']);

function startsTopLevel(root: Node, offset: number): boolean {
  for (let node: Node | null = root.descendantForIndex(offset); node; node = node.parent) if (textNodeTypes.has(node.type)) return false;
  return true;
}

/** Whether an entry read as a region alone still holds a syntax error (the file is still broken there). */
export function holdsBrokenRegion(entries: readonly Entry[]): boolean {
  for (const entry of entries) if (entry.type === regionEntryType && entry.problems.length > 0) return true;
  return false;
}

/**
 * The region of `oldText` an edit of [editStart, editEnd) touches: whole lines, holding whole entries (an item that
 * starts or ends on one of its lines is in it, and so are its lines). Returns its [from, to), the index of its first
 * entry (where a region holding none goes) and how many entries it holds.
 */
function regionOf(entries: readonly Entry[], oldText: string, editStart: number, editEnd: number): [number, number, number, number] {
  let from = lineStart(oldText, editStart);
  let to = lineEnd(oldText, editEnd);
  for (;;) {
    const first = firstEndingAfter(entries, from);
    let last = first - 1;
    while (last + 1 < entries.length && entries[last + 1].start < to) last++;
    const count = last - first + 1;
    const widenedFrom = count > 0 ? lineStart(oldText, Math.min(from, entries[first].start)) : from;
    const widenedTo = count > 0 ? lineEnd(oldText, Math.max(to, entries[last].end)) : to;
    if (widenedFrom === from && widenedTo === to) return [from, to, first, count];
    from = widenedFrom;
    to = widenedTo;
  }
}

/** The index of the first entry that ends after `offset` (entries.length when none does), by binary search. */
function firstEndingAfter(entries: readonly Entry[], offset: number): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (entries[middle].end > offset) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The row `from` (a line start) is on, counted from the nearest entry instead of from the top of the file. */
function rowOf(entries: readonly Entry[], oldText: string, from: number, first: number): number {
  const next = entries[first];
  if (next && next.start >= from) return next.row - countNewlines(oldText, from, next.start);
  const before = entries[first - 1];
  return before ? before.row + countNewlines(oldText, before.start, from) : countNewlines(oldText, 0, from);
}

/** The facts of `count` entries from `first` on, as one piece (their items lie together in the file's lists). */
function joinedFacts(entries: readonly Entry[], first: number, count: number): Facts {
  const joined: Facts = { variables: [], references: [], addresses: [], moved: [], cloudBlocks: [], remoteBackends: [], blockCount: 0 };
  for (let index = first; index < first + count; index++) {
    const facts = entries[index].facts;
    joined.variables.push(...facts.variables);
    joined.references.push(...facts.references);
    joined.addresses.push(...facts.addresses);
    joined.moved.push(...facts.moved);
    joined.cloudBlocks.push(...facts.cloudBlocks);
    joined.remoteBackends.push(...facts.remoteBackends);
    joined.blockCount += facts.blockCount;
  }
  return joined;
}

function lineStart(text: string, offset: number): number {
  return offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
}

/** Where the line holding `offset` ends (its line break, or the end of the text). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline === -1 ? text.length : newline;
}
