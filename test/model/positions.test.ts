import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LineIndex } from '../../server/src/model';

describe('LineIndex (LSP positions over UTF-16 offsets)', () => {
  test('\\n, \\r\\n and \\r all end a line', () => {
    const lines = new LineIndex('a\nbb\r\nccc\rd');
    assert.equal(lines.lineCount, 4);
    assert.deepEqual(lines.positionAt(3), { line: 1, character: 1 });
    assert.deepEqual(lines.positionAt(6), { line: 2, character: 0 });
    assert.deepEqual(lines.positionAt(10), { line: 3, character: 0 });
    assert.equal(lines.offsetAt({ line: 2, character: 2 }), 8);
  });

  test('characters are UTF-16 code units: an emoji counts two', () => {
    const lines = new LineIndex('😀x\n');
    assert.deepEqual(lines.positionAt(2), { line: 0, character: 2 });
    assert.equal(lines.offsetAt({ line: 0, character: 2 }), 2);
  });

  test('positions past a line end or the document end are clamped, as LSP clients expect', () => {
    const lines = new LineIndex('ab\r\ncd');
    assert.equal(lines.offsetAt({ line: 0, character: 99 }), 2, 'not into the line break');
    assert.equal(lines.offsetAt({ line: 9, character: 0 }), 6);
    assert.equal(lines.offsetAt({ line: -1, character: 0 }), 0);
    assert.deepEqual(lines.positionAt(99), { line: 1, character: 2 });
  });
});
