import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { extractTerraformFile, ModuleFolderModel } from '../../server/src/model';
import type { TerraformFileContribution, TfvarsFileContribution } from '../../server/src/model';
import { fixture, testParser } from './helpers';
import { referenceNameRange, referenceRange } from '../../server/src/model/references';

describe('broken and half-typed files still yield what is readable', () => {
  let model: ModuleFolderModel;
  before(async () => {
    model = await ModuleFolderModel.load({ folder: fixture('broken'), parser: await testParser() });
  });
  const terraform = (name: string) => model.index.get(fixture('broken', name)) as TerraformFileContribution;
  const tfvars = (name: string) => model.index.get(fixture('broken', name)) as TfvarsFileContribution;

  test('an unclosed block: its content and the block after it are still found, and the missing brace is reported', () => {
    const file = terraform('unclosed.tf');
    assert.deepEqual(file.addresses.map((address) => address.address), ['aws_instance.web']);
    assert.deepEqual(file.references.map((reference) => reference.name), ['ami_id']);
    assert.deepEqual(file.variables.map((variable) => [variable.name, variable.type?.text]), [['after_unclosed', 'string']]);
    assert.ok(file.syntaxProblems.some((problem) => problem.kind === 'missing' && problem.expected === '}'));
  });

  test('`var.` at the end of the file is an incomplete reference at the right place, for completion', () => {
    const [reference] = terraform('var_at_eof.tf').references;
    assert.equal(reference.name, '');
    assert.deepEqual(referenceRange(reference), { start: { line: 5, character: 11 }, end: { line: 5, character: 15 } });
    assert.deepEqual(referenceNameRange(reference), { start: { line: 5, character: 15 }, end: { line: 5, character: 15 } });
  });

  test('a missing `=`: the broken variable keeps its name, the following blocks are intact', () => {
    const file = terraform('missing_equals.tf');
    assert.deepEqual(file.variables.map((variable) => variable.name), ['region', 'zone']);
    assert.equal(file.variables[0].default, undefined);
    assert.deepEqual(file.variables[1].type?.parsed, { kind: 'string' });
    assert.deepEqual(file.addresses.map((address) => address.address), ['aws_eip.ip']);
    assert.deepEqual(file.references.map((reference) => reference.name), ['zone']);
    assert.ok(file.syntaxProblems.length > 0);
  });

  test('a half-typed tfvars line does not take the next line\'s value', () => {
    const entries = tfvars('half_typed.tfvars').entries.map((entry) => [entry.key, entry.literal?.value]);
    assert.deepEqual(entries, [['region', 'eu-west-1'], ['zone', 'b']]);
  });

  test('invalid JSON tfvars: a located, value-free error, and the valid members are still read', () => {
    const file = tfvars('bad.auto.tfvars.json');
    assert.equal(file.format, 'json');
    assert.deepEqual(file.entries.map((entry) => [entry.key, entry.literal?.value]), [['region', 'eu-west-1'], ['zone', undefined]]);
    assert.deepEqual(file.jsonError?.range.start, { line: 2, character: 10 });
    assert.match(file.jsonError?.message ?? '', /Invalid JSON .* line 3, column 11/);
  });

  test('a block that wrecks tree-sitter\'s recovery for the rest of the file does not hide the blocks after it', async () => {
    const parser = await testParser();
    const text = 'variable "half" {\n  type = map(object({ a = \n}\n\nvariable "next" {\n  type    = string\n  default = "é"\n}\n\nresource "null_resource" "r" {\n  triggers = { n = var.next }\n}\n';
    const tree = parser.parse(text);
    const wholeFileOnly = extractTerraformFile(tree, '/m/main.tf');
    const blockByBlock = extractTerraformFile(tree, '/m/main.tf', (start, end) => parser.parseRegion(text, start, end));
    tree.delete();
    assert.ok(!wholeFileOnly.variables.some((variable) => variable.name === 'next'), 'tree-sitter alone loses the next block here');
    assert.deepEqual(blockByBlock.variables.map((variable) => variable.name), ['half', 'next']);
    assert.deepEqual(blockByBlock.variables[1].default?.literal, { value: 'é' });
    assert.deepEqual(blockByBlock.variables[1].nameRange, { start: { line: 4, character: 9 }, end: { line: 4, character: 15 } });
    assert.deepEqual(blockByBlock.addresses.map((address) => address.address), ['null_resource.r']);
    assert.deepEqual(blockByBlock.references.map((reference) => [reference.name, referenceRange(reference).start]), [['next', { line: 10, character: 19 }]]);
    assert.ok(blockByBlock.syntaxProblems.length > 0);
  });

  test('garbage and binary-looking input never throws', async () => {
    const parser = await testParser();
    const deep = ['x = ' + '['.repeat(20000) + ']'.repeat(20000), 'a {\n'.repeat(5000), 'x = ' + '('.repeat(5000) + '1' + ')'.repeat(5000)];
    for (const text of ['\u0000\u0001\u0002{{{{', '}}}}', '"unterminated', '<<EOT\nno end', 'a = [[[[[[', '\uFFFD'.repeat(1000), ...deep]) {
      const tree = parser.parse(text);
      assert.doesNotThrow(() => extractTerraformFile(tree, '/m/x.tf', (start, end) => parser.parseRegion(text, start, end)));
      tree.delete();
    }
  });
});
