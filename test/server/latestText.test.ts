// An open document's latest text: after any sequence of edits, its text, lines, offsets and positions are what a
// TextDocument given the same edits says, and the edited line is given without reading the rest of the text.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LatestText } from '../../server/src/documents/latestText';

const initial = 'resource "a" "b" {\n  input = var.v_1\n}\r\n\nlocals {\r  x = 1\n}';

/** An edit as a client sends it: mostly typing within one line, sometimes across lines or with line breaks. */
const edit = fc.record({
  line: fc.nat(12),
  character: fc.nat(30),
  endLine: fc.nat(2),
  endCharacter: fc.nat(30),
  text: fc.oneof({ weight: 5, arbitrary: fc.constantFrom('a', 'var.', ' ', '_1', '') }, { weight: 1, arbitrary: fc.constantFrom('\n', 'x\r\ny', '}\n\n') }),
});

test('text, lines, offsets and positions equal a TextDocument after random edits', () => {
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 30 }), (edits) => {
      const latest = new LatestText('file:///a.tf', 'terraform', 1, initial);
      const reference = TextDocument.create('file:///a.tf', 'terraform', 1, initial);
      for (const [index, step] of edits.entries()) {
        // Ranges within the document, as a client sends them (TextDocument's own line offsets break past its end).
        const line = step.line % reference.lineCount;
        const endLine = Math.min(line + step.endLine, reference.lineCount - 1);
        const range = { start: { line, character: step.character }, end: { line: endLine, character: endLine === line ? step.character + (step.endCharacter % 4) : step.endCharacter } };
        latest.update([{ range, text: step.text }], index + 2);
        TextDocument.update(reference, [{ range, text: step.text }], index + 2);
        const text = reference.getText();
        assert.equal(latest.getText(), text);
        assert.equal(latest.version, index + 2);
        assert.equal(latest.lineCount, reference.lineCount);
        const lines = text.split(/\r\n|\r|\n/);
        for (let line = 0; line < reference.lineCount; line++) {
          assert.equal(latest.lineText(line), lines[line], `line ${line} after edit ${index}`);
          for (const character of [0, 1, 5, 1000]) assert.equal(latest.offsetAt({ line, character }), reference.offsetAt({ line, character }));
        }
        for (const offset of [0, 3, Math.floor(text.length / 2), text.length, text.length + 5]) assert.deepEqual(latest.positionAt(offset), reference.positionAt(offset));
      }
    }),
    { seed: 1313, numRuns: 300 },
  );
});

test('after a change within one line, that line and its offsets come from the line alone', () => {
  const latest = new LatestText('file:///a.tf', 'terraform', 1, initial);
  latest.update([{ range: { start: { line: 1, character: 18 }, end: { line: 1, character: 18 } }, text: '2' }], 2);
  // A text that throws when read: the edited line must not need it.
  const text = latest.getText();
  Object.defineProperty(latest, 'getText', { value: () => assert.fail('the whole text was read') });
  assert.equal(latest.lineText(1), '  input = var.v_12');
  assert.equal(latest.offsetAt({ line: 1, character: 18 }), text.indexOf('v_12') + 4);
  assert.equal(latest.offsetAt({ line: 1, character: 99 }), text.indexOf('v_12') + 4);
});
