// How IncrementalTerraformExtractor reads the top-level pieces of an open .tf file: the facts of one piece from the
// syntax tree, a piece looked up by key before it is read, the body's entries of a whole pass, and a broken file's
// regions parsed alone. Apart from the extractor, which decides which pieces are read again and which are kept: this
// file reads whatever it is given, in steps (steps.ts), and holds no state of its own, so the extractor's bookkeeping
// of what is up to date stays in one place.
import type { Entry } from './bodyEntries';
import type { Facts } from './pieceFacts';
import { shiftedFacts } from './pieceFacts';
import { countNewlines } from './bodyEntries';
import { regionFacts } from './isolatedRegions';
import { pieceKey, pieceShape } from './pieceKeys';
import type { Piece } from './pieceKeys';
import { variableReferenceSteps } from './references';
import type { Steps } from './steps';
import { findSyntaxProblems } from './syntaxProblems';
import { addBlocksInErrors, bodyItems, isTopLevelBlock } from './syntaxTree';
import { collectBlock } from './terraformFile';
import type { RegionParser } from './terraformFile';
import type { Node } from './treeSitter';

/**
 * A piece's facts: the previous pass's (`previous`) or this one's (`next`) for the same piece, moved to its row, or
 * read from the tree (counted in `read`).
 */
export function* pieceOf(
  node: Node,
  inFirstBody: boolean,
  rootHasError: boolean,
  document: { text: string; endIndex: number },
  next: Map<string, Piece>,
  read: { extracted: number },
  previous: ReadonlyMap<string, Piece>,
  file: string,
): Steps<Facts> {
  const row = node.startPosition.row;
  const key = pieceKey(node, inFirstBody, document.text.slice(node.startIndex, node.endIndex));
  let piece = previous.get(key) ?? next.get(key);
  if (!piece) {
    read.extracted++;
    piece = { row, facts: yield* readPieceFacts(node, inFirstBody, rootHasError, document, file) };
  } else if (piece.row !== row) piece = { row, facts: shiftedFacts(piece.facts, row - piece.row) };
  next.set(key, piece);
  yield;
  return piece.facts;
}

/**
 * Mirrors syntaxTree.topLevelBlockSteps for one piece of the root, then collect() for what it found. A step per block
 * and per range of a large piece's references: the piece that a brace too many leaves holding half a 1 MB file
 * took 0.15-0.45 s to read at once.
 */
export function* readPieceFacts(piece: Node, inFirstBody: boolean, rootHasError: boolean, document: { text: string; endIndex: number }, file: string): Steps<Facts> {
  const found: Node[] = [];
  if (inFirstBody && piece.type === 'block') {
    found.push(piece);
    const pending: Node[] = piece.hasError ? [piece] : [];
    while (pending.length > 0) {
      for (const item of bodyItems(pending.pop() as Node)) {
        if (item.type !== 'block') continue;
        if (isTopLevelBlock(item)) found.push(item);
        if (item.hasError) pending.push(item);
      }
      yield;
    }
  }
  if (rootHasError) yield* addBlocksInErrors(piece, found);
  found.sort((a, b) => a.startIndex - b.startIndex);
  const facts: Facts = { variables: [], references: [], addresses: [], moved: [], cloudBlocks: [], remoteBackends: [], blockCount: found.length };
  for (const block of found) {
    collectBlock(block, file, facts);
    yield;
  }
  facts.references = yield* variableReferenceSteps(piece, file, document);
  return facts;
}

/**
 * The entries of a body a whole pass just read, each with the facts the pass read for that item (`bodyFacts`, in
 * order). Not looked up by piece key: two identical blocks (a block just pasted) share a key, and the second one's
 * facts, at its own rows, would stand for both (an edit above them then moved the first one's references onto the
 * second's lines).
 */
export function* entriesOf(body: Node, bodyFacts: readonly Facts[]): Steps<Entry[]> {
  const entries: Entry[] = [];
  for (const item of body.children) {
    if (!item) continue;
    const facts = bodyFacts[entries.length];
    if (!facts) return []; // cannot happen: the pass read every item of this body
    entries.push({ start: item.startIndex, end: item.endIndex, row: item.startPosition.row, type: item.type, facts, problems: findSyntaxProblems(item), shape: pieceShape(item) });
    if (entries.length % 64 === 0) yield;
  }
  return entries;
}

/**
 * The facts of a broken file's top-level regions (terraformFile.ts topLevelRegions), each parsed alone unless
 * `previous` or `next` holds the same region's facts, into `all` in order and `next` by key; returns how many were
 * parsed. Regions start at a line start, and a region's parse sees nothing but its own text: text and row say it all.
 */
export function* regionPieces(
  rootText: string,
  regions: readonly [number, number][],
  parseRegion: RegionParser,
  file: string,
  previous: ReadonlyMap<string, Piece>,
  next: Map<string, Piece>,
  all: Facts[],
): Steps<number> {
  let extracted = 0;
  let row = 0;
  let counted = 0;
  for (const [start, end] of regions) {
    row += countNewlines(rootText, counted, start);
    counted = start;
    const key = rootText.slice(start, end);
    let piece = previous.get(key) ?? next.get(key);
    if (!piece) {
      extracted++;
      const regionTree = parseRegion(start, end);
      try {
        piece = { row, facts: regionFacts(regionTree.rootNode, file) };
      } finally {
        regionTree.delete();
      }
    } else if (piece.row !== row) piece = { row, facts: shiftedFacts(piece.facts, row - piece.row) };
    next.set(key, piece);
    all.push(piece.facts);
    yield;
  }
  return extracted;
}
