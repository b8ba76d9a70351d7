// What says that a top-level piece of an open .tf file (a block, an attribute, an ERROR node) reads as it did in the
// previous extraction: its key (text, shape, place in the body) and its shape alone. Apart from
// IncrementalTerraformExtractor because three places key pieces (the keyed cache of a whole pass, the entries, which
// keep a piece's shape, and the entries keyed again after edits): one definition keeps them from drifting apart, and
// a piece that is keyed differently is read again, or worse, reused where it should not be.
import type { Entry } from './bodyEntries';
import type { Facts } from './pieceFacts';
import type { Node } from './treeSitter';

/** A piece's facts as last extracted, and the row it started on then (a piece that only moved is shifted, not read). */
export interface Piece {
  /** The row the piece started on when it was extracted. */
  row: number;
  facts: Facts;
}

/**
 * What makes a piece's facts: its text, where its first line starts, its shape and whether it is in the file's body
 * (the same text can parse differently after a broken line, so the shape is part of the key). A root error does
 * not matter: a piece without errors of its own contributes the same either way.
 */
export function pieceKey(node: Node, inFirstBody: boolean, text: string): string {
  return `${pieceShape(node)}\u0000${inFirstBody}\u0000${text}`;
}

/** A piece's key but its text and place in the body. */
export function pieceShape(node: Node): string {
  return `${node.type}\u0000${node.startPosition.column}\u0000${node.descendantCount}\u0000${node.hasError}`;
}

/**
 * The body's items as the entries hold them now (in `text`), keyed as pieces: what a whole pass can re-use after edits
 * read from a block or a window, which leave the keyed pieces out of date (they move the entries' facts in place). A
 * brace too many in 1 MB otherwise read the 3,000 untouched blocks before it again (~150 ms), and made new objects
 * of all their facts, which the folder index then had to swap (~30 ms at once).
 */
export function entryPieces(entries: readonly Entry[] | undefined, text: string): Map<string, Piece> {
  const pieces = new Map<string, Piece>();
  for (const entry of entries ?? []) {
    if (entry.shape === undefined) continue;
    const inFirstBody = entry.type === 'block' || entry.type === 'attribute';
    pieces.set(`${entry.shape}\u0000${inFirstBody}\u0000${text.slice(entry.start, entry.end)}`, { row: entry.row, facts: entry.facts });
  }
  return pieces;
}
