// An open document's latest text as requests read it: the text and version the client sent, its line offsets
// (shifted edit by edit, never a new scan of the text), and the text of the line the last keystroke changed.
//
// Why that line is kept apart: an edit makes the new text a concatenation of the old one's pieces, and V8 copies
// such a string whole the first time anything reads a character of it (about 2 ms for 1 MB). A completion request
// sent with the keystroke only needs its own line; worked out from the previous text (already copied once, by the
// model's update) and the edit, it reads nothing of the new text, and the copy happens in the model's update after
// the requests are answered.
import { TextDocument } from 'vscode-languageserver-textdocument';
import { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import type { ChangeOffsets, Position, TextLines } from '../model';

export class LatestText implements TextLines {
  private readonly document: TextDocument;
  /** The line the last change edited, when it was a change within one line, with its text after the change (no line break). */
  private edited: { line: number; text: string } | undefined;

  constructor(uri: string, languageId: string, version: number, text: string) {
    this.document = TextDocument.create(uri, languageId, version, text);
  }

  get version(): number {
    return this.document.version;
  }

  get lineCount(): number {
    return this.document.lineCount;
  }

  getText(): string {
    return this.document.getText();
  }

  /**
   * Applies the client's changes in order (throws on a change it cannot apply, as TextDocument does). Returns where
   * each ranged change fell in the text it applied to (undefined for a whole-text change), for the model to edit
   * its tree with without finding the lines again.
   */
  update(changes: readonly TextDocumentContentChangeEvent[], version: number): (ChangeOffsets | undefined)[] {
    const offsets: (ChangeOffsets | undefined)[] = [];
    const change = changes.length === 1 ? changes[0] : undefined;
    let edited: LatestText['edited'];
    if (change && TextDocumentContentChangeEvent.isIncremental(change) && change.range.start.line === change.range.end.line && !/[\r\n]/.test(change.text)) {
      const line = change.range.start.line;
      if (line >= 0 && line < this.lineCount) {
        const before = this.lineText(line);
        const start = clamp(change.range.start.character, before.length);
        const end = Math.max(start, clamp(change.range.end.character, before.length));
        edited = { line, text: before.slice(0, start) + change.text + before.slice(end) };
      }
    }
    this.edited = undefined;
    for (const each of changes) {
      if (!TextDocumentContentChangeEvent.isIncremental(each)) {
        offsets.push(undefined);
        TextDocument.update(this.document, [each], version);
        continue;
      }
      // The range as TextDocument takes it: start before end.
      const { start, end } = comparePositions(each.range.start, each.range.end) <= 0 ? each.range : { start: each.range.end, end: each.range.start };
      offsets.push({
        startIndex: this.document.offsetAt(start),
        oldEndIndex: this.document.offsetAt(end),
        startLineStart: this.document.offsetAt({ line: start.line, character: 0 }),
        endLineStart: this.document.offsetAt({ line: end.line, character: 0 }),
      });
      TextDocument.update(this.document, [each], version);
    }
    this.edited = edited;
    return offsets;
  }

  /**
   * Reads a character of the text, which makes V8 join the pieces the last edit left it in: a copy of the whole text
   * (~1 ms for 1 MB), made now instead of inside the next keystroke's change, before its requests are answered. For
   * when the model's update did not read the text (a change that waits for a whole-file parse).
   */
  joinPieces(): void {
    void this.getText().charCodeAt(0);
  }

  /** The text of a line, without its line break. */
  lineText(line: number): string {
    if (this.edited?.line === line) return this.edited.text;
    const start = this.document.offsetAt({ line, character: 0 });
    const end = line + 1 < this.lineCount ? this.document.offsetAt({ line: line + 1, character: 0 }) : this.getText().length;
    return this.getText().slice(start, end).replace(/(?:\r\n|\r|\n)$/, '');
  }

  offsetAt(position: Position): number {
    // Line starts come from the offsets alone; a character on the edited line from that line's own text.
    if (position.character > 0 && this.edited?.line === position.line) {
      return this.document.offsetAt({ line: position.line, character: 0 }) + Math.min(position.character, this.edited.text.length);
    }
    return this.document.offsetAt(position);
  }

  positionAt(offset: number): Position {
    // The end of the text (where a declaration is appended) needs no character of it.
    const length = this.getText().length;
    if (offset >= length) {
      const line = this.lineCount - 1;
      return { line, character: length - this.document.offsetAt({ line, character: 0 }) };
    }
    return this.document.positionAt(offset);
  }
}

function comparePositions(a: Position, b: Position): number {
  return a.line === b.line ? a.character - b.character : a.line - b.line;
}

function clamp(character: number, length: number): number {
  return Math.max(0, Math.min(character, length));
}
