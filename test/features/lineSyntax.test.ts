// `var.` completes in code only: not in a comment, not in the literal part of a quoted string.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { completionContextAt } from '../../server/src/features/completionContext';
import { endsInCode } from '../../server/src/features/lineSyntax';

test('code, comments and the parts of strings, on one line', () => {
  const code = ['  x = var.', '  x = "${var.', '  x = "a-${upper(var.', '  x = "${ {a = var.', '  x = "a" + var.', '  x = "\\"" + var.', '  x = "%{ if var.', '  x = /* note */ var.', '  x = "${"b"}${var.'];
  const text = ['  # var.', '  // var.', '  x = 1 # var.', '  x = "var.', '  x = "a ${b} var.', '  x = "$${var.', '  x = "\\"var.', '  /* var.'];
  for (const prefix of code) assert.equal(endsInCode(prefix), true, prefix);
  for (const prefix of text) assert.equal(endsInCode(prefix), false, prefix);
});

test('completion after var. is offered in code and not in a comment or a plain string', () => {
  const at = (line: string) => completionContextAt(line, { line: 0, character: line.length }, undefined)?.kind;
  assert.equal(at('  name = var.'), 'variable');
  assert.equal(at('  name = "${var.'), 'variable');
  assert.equal(at('  # see var.'), undefined);
  assert.equal(at('  name = "var.'), undefined);
});
