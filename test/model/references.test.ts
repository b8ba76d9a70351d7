import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { extractTerraformFile } from '../../server/src/model';
import { testParser } from './helpers';
import { findVariableReferences, maxDanglingSearches, referenceNameRange, referenceRange, variableReferenceSteps } from '../../server/src/model/references';
import { allSteps } from '../../server/src/model/steps';

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

  test('found from the syntax tree: a `var.x` the text shows is a reference only where the grammar reads an expression', async () => {
    const text = [
      'resource "var.label" "x" {',
      '  // var.line_comment',
      '  /* var.block_comment */',
      '  a = "$${var.escaped} var.plain ${var.interpolated}"',
      '  b = <<-EOT',
      '    var.heredoc_text $${var.heredoc_escaped} ${var.heredoc_interpolated}',
      '    %{ if var.directive }yes%{ endif }',
      '  EOT',
      '  c = var .spaced',
      '  d = "${upper(var.in_call)}"',
      '}',
    ].join('\n');
    const references = await referencesIn(text);
    assert.deepEqual(
      references.map((reference) => reference.name),
      ['interpolated', 'heredoc_interpolated', 'directive', 'spaced', 'in_call'],
    );
    // Ranges come from the nodes: `var` to the end of the name, and the name alone.
    const heredoc = references.find((reference) => reference.name === 'heredoc_interpolated')!;
    const line = text.split('\n')[5]!;
    assert.deepEqual(referenceRange(heredoc), { start: { line: 5, character: line.indexOf('var.heredoc_interpolated') }, end: { line: 5, character: line.indexOf('}', line.indexOf('heredoc_interpolated')) } });
    assert.deepEqual(referenceNameRange(heredoc).start, { line: 5, character: line.indexOf('heredoc_interpolated') });
  });

  test('`var.` followed by a new line is an incomplete reference, not a reference to the next line\'s name', async () => {
    const [reference] = await referencesIn('locals {\n  a = var.\n  b = 1\n}\n');
    assert.equal(reference.name, '');
    assert.deepEqual(referenceRange(reference), { start: { line: 1, character: 6 }, end: { line: 1, character: 10 } });
  });

  test('`var.` inside an unfinished template is found too', async () => {
    const [reference] = await referencesIn('a = "${var.}"\nb = 1\n');
    assert.equal(reference.name, '');
    assert.deepEqual(referenceNameRange(reference), { start: { line: 0, character: 11 }, end: { line: 0, character: 11 } });
  });

  test('a `var.` with nothing after it is found among any number of `var.` that are no reference (comments, strings, longer names)', async () => {
    // Those are searched one by one up to maxDanglingSearches, past that in one query over the whole tree: both give the same.
    // Each block quotes four; the comments after them make the count 12, or one past the limit.
    for (const quoted of [12, maxDanglingSearches + 1]) {
      const lines = Array.from({ length: 3 }, (_, index) => `# var.c_${index}\nlocals {\n  s_${index} = "var.s_${index}"\n  m_${index} = myvar.x_${index}\n  l_${index} = local.var.y\n}`);
      const comments = Array.from({ length: quoted - 12 }, (_, index) => `# var.more_${index}`);
      const text = [...lines, ...comments, 'locals {', '  c = var.real', '  a = var.', '  b = "${var.}"', '}', ''].join('\n');
      const first = 3 * 6 + comments.length + 1;
      const references = await referencesIn(text);
      assert.deepEqual(
        references.map((reference) => [reference.name, reference.line]),
        [['real', first], ['', first + 1], ['', first + 2]],
        `${quoted} quoted`,
      );
      // The whole tree searched at once, and a range of 64 characters at a time (a large piece read in steps).
      const parser = await testParser();
      const tree = parser.parse(text);
      try {
        assert.deepEqual(findVariableReferences(tree.rootNode, '/m/main.tf'), references, `${quoted} quoted, whole tree`);
        assert.deepEqual(allSteps(variableReferenceSteps(tree.rootNode, '/m/main.tf', undefined, 64)), references, `${quoted} quoted, in ranges`);
      } finally {
        tree.delete();
      }
    }
  });

  test('a traversal that does not start with `var` is no reference, however it is written', async () => {
    const text = 'locals {\n  a = local.x\n  b = aws_instance.web.id\n  c = module.m.var\n  d = data.var.x\n  e = vars.x\n  f = var.ok\n}\n';
    assert.deepEqual((await referencesIn(text)).map((reference) => reference.name), ['ok']);
  });
});
