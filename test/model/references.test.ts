import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractTerraformFile } from '../../server/src/model';
import { testParser } from './helpers';

async function referencesIn(text: string) {
  const parser = await testParser();
  const tree = parser.parse(text);
  try {
    return extractTerraformFile(tree, '/m/main.tf', (start, end) => parser.parseRegion(text, start, end)).references;
  } finally {
    tree.delete();
  }
}

describe('var references', () => {
  test('only real references: not in comments, plain strings, longer identifiers or object keys', async () => {
    const text = [
      '# var.in_comment',
      'locals {',
      '  a = "var.in_string"',
      '  b = var-x.y',
      '  c = évar.z',
      '  d = { var = 1 }',
      '  e = "${var.in_template}"',
      '  f = [for item in var.list : item if var.flag]',
      '  g = var.first.attr',
      '}',
    ].join('\n');
    assert.deepEqual((await referencesIn(text)).map((reference) => reference.name), ['in_template', 'list', 'flag', 'first']);
  });

  test('`var.` followed by a new line is an incomplete reference, not a reference to the next line\'s name', async () => {
    const [reference] = await referencesIn('locals {\n  a = var.\n  b = 1\n}\n');
    assert.equal(reference.name, '');
    assert.deepEqual(reference.range, { start: { line: 1, character: 6 }, end: { line: 1, character: 10 } });
  });

  test('`var.` inside an unfinished template is found too', async () => {
    const [reference] = await referencesIn('a = "${var.}"\nb = 1\n');
    assert.equal(reference.name, '');
    assert.deepEqual(reference.nameRange, { start: { line: 0, character: 11 }, end: { line: 0, character: 11 } });
  });
});
