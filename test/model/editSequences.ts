// Random edit sequences over real-shaped Terraform text, for the property tests of the incremental model
// (test/model/incremental.test.ts) and of the server (test/server/randomEdits.test.ts). An edit is generated
// without knowing the text it will meet: its offsets are fractions of the text's length, resolved when applied.
import fc from 'fast-check';
import { LineIndex } from '../../server/src/model';
import type { Range, TextChange } from '../../server/src/model';

/** Pieces of HCL a user types or pastes, broken ones included. */
const snippets = [
  '}', '{', '"', '\n', ' ', '=', 'var.', 'var.region', 'var.undeclared_one', '${var.environment}', '[', ']', '#', '//', '/*', '*/',
  'variable "added" {\n  type = string\n}\n', 'resource "aws_instance" "x" {\n  ami = var.ami\n}\n', '  count = ', 'moved {\n  from = a.b\n  to = a.c\n}\n',
  'terraform {\n  cloud {\n    organization = "acme"\n    workspaces { name = "w" }\n  }\n}\n', '\r\n', '\r', '\t', 'é', '😀', '<<EOT\nx\nEOT\n', 'null', '0x',
];

export type RandomEdit =
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'delete'; at: number; length: number }
  | { kind: 'mutate'; at: number; code: number }
  | { kind: 'truncate'; at: number }
  /** Text inserted at the start of a line (whole blocks, comments, blank lines: edits that keep a file valid). */
  | { kind: 'insertLine'; at: number; text: string }
  | { kind: 'replaceAll'; keep: number }
  /** Several ranged changes in one didChange, applied in order as LSP says. */
  | { kind: 'batch'; edits: RandomEdit[] };

const fraction = fc.integer({ min: 0, max: 1_000_000 });

const single: fc.Arbitrary<RandomEdit> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fraction, text: fc.oneof(fc.constantFrom(...snippets), fc.string({ maxLength: 12 })) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fraction, length: fc.integer({ min: 1, max: 80 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('mutate' as const), at: fraction, code: fc.integer({ min: 0, max: 0xffff }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('truncate' as const), at: fraction }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replaceAll' as const), keep: fraction }) },
);

export const randomEdit: fc.Arbitrary<RandomEdit> = fc.oneof(
  { weight: 8, arbitrary: single },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('batch' as const), edits: fc.array(single.filter((edit) => edit.kind !== 'replaceAll'), { minLength: 2, maxLength: 4 }) }) },
);

/**
 * Edits that mostly keep the file valid: whole blocks and blank lines inserted between lines, letters changed to
 * letters. A valid file takes the incremental path that reuses blocks by position, which broken files rarely reach.
 */
export const benignEdit: fc.Arbitrary<RandomEdit> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('insertLine' as const),
      at: fraction,
      text: fc.constantFrom('\n', '# a comment\n', 'variable "added" {\n  default = 1\n}\n', 'locals {\n  x = var.region\n  y = var.nope\n}\n', '\n\n\n'),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('mutate' as const), at: fraction, code: fc.integer({ min: 97, max: 122 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('insert' as const), at: fraction, text: fc.constantFrom('a', '_', '1') }) },
);

/**
 * The LSP content changes for `edit` against `text`, and the text they make. Offsets go through LSP positions
 * and back (as the server converts them), so an offset inside a \r\n lands where the server would put it.
 */
export function toContentChanges(text: string, edit: RandomEdit): { changes: TextChange[]; text: string } {
  if (edit.kind === 'batch') {
    const changes: TextChange[] = [];
    let current = text;
    for (const part of edit.edits) {
      const applied = toContentChanges(current, part);
      changes.push(...applied.changes);
      current = applied.text;
    }
    return { changes, text: current };
  }
  if (edit.kind === 'replaceAll') {
    const next = text.slice(0, Math.floor((edit.keep / 1_000_000) * text.length));
    return { changes: [{ text: next }], text: next };
  }
  const lines = new LineIndex(text);
  const offset = (fractionOf: number) => lines.offsetAt(lines.positionAt(Math.floor((fractionOf / 1_000_000) * (text.length + 1))));
  const start = offset(edit.at);
  const ranged = (from: number, to: number, inserted: string) => {
    const range: Range = { start: lines.positionAt(from), end: lines.positionAt(to) };
    const startOffset = lines.offsetAt(range.start);
    const endOffset = Math.max(startOffset, lines.offsetAt(range.end));
    return { changes: [{ range, text: inserted }], text: text.slice(0, startOffset) + inserted + text.slice(endOffset) };
  };
  switch (edit.kind) {
    case 'insert':
      return ranged(start, start, edit.text);
    case 'delete':
      return ranged(start, Math.min(text.length, start + edit.length), '');
    case 'mutate':
      return ranged(start, Math.min(text.length, start + 1), String.fromCharCode(edit.code));
    case 'truncate':
      return ranged(start, text.length, '');
    case 'insertLine': {
      const line = lines.positionAt(start).line;
      const lineStart = lines.offsetAt({ line, character: 0 });
      return ranged(lineStart, lineStart, edit.text);
    }
  }
}
