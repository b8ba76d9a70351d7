// What the parser reads a document through. Parsing reads the text as web-tree-sitter's own string input does; a
// node's text read afterwards (the names, types and descriptions the facts keep) comes out as a copy of those
// characters, not a slice of the document. V8 keeps a whole string alive for any slice of 13 characters or more
// taken from it: a variable name read from a 1 MB file kept that version of the file, and each keystroke's version
// stayed alive in the facts and in the folder index's journal of reference names (50 versions, 50 MB, after 50
// edits in the bench).

/**
 * How many characters a node text is first read in: most names fit in one piece. web-tree-sitter asks again from
 * where a piece ended until it has the node's length; each piece asked for right after the last one is twice as long,
 * so a whole file's text (a root's) takes a few pieces, not 16,000. A node that happens to start exactly where the
 * previous read's piece ended gets a doubled piece too: still its own characters, only a larger copy than it needed.
 */
const nodeTextPiece = 64;

export interface ParserInput {
  /** The callback handed to `Parser.parse`: it serves the parse first, then every `node.text` of the tree. */
  read(index: number): string;
  /** Called once the parse returned: from now on `read` serves node texts, as copies. */
  parsed(): void;
}

export function parserInput(text: string): ParserInput {
  let parsing = true;
  let pieceEnd = -1;
  let pieceLength = nodeTextPiece;
  return {
    read: (index) => {
      if (parsing) return text.slice(index);
      pieceLength = index === pieceEnd ? pieceLength * 2 : nodeTextPiece;
      const piece = detachedCopy(text.slice(index, index + pieceLength));
      pieceEnd = index + piece.length;
      return piece;
    },
    parsed: () => {
      parsing = false;
    },
  };
}

/**
 * The characters of `slice` in a string of their own. Joining forces V8 to write them out afresh (a slice of the
 * joined string then keeps only that short copy), where `slice` itself points into the whole text.
 */
export function detachedCopy(slice: string): string {
  return (' ' + slice).slice(1);
}
