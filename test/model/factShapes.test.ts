// Facts of one kind must share their hidden classes in V8: objects built so that each gets a class of its own
// (an address made by `{ ...common, address }` did, 6,000 classes in 1 MB) make every read of them megamorphic, and
// moving them after an Enter took 10 ms instead of 3. V8's own check (%HaveSameMap) counts the classes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { ModuleFolderModel } from '../../server/src/model';
import { shiftedFactKeys } from '../../server/src/model/pieceFacts';
import { MemoryFileSystem, testParser } from './helpers';

setFlagsFromString('--allow-natives-syntax');
const sameHiddenClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

/** How many hidden classes the objects in `values` have between them. */
function hiddenClasses(values: readonly object[]): number {
  const representatives: object[] = [];
  for (const value of values) if (!representatives.some((seen) => sameHiddenClass(seen, value))) representatives.push(value);
  return representatives.length;
}

function blocks(count: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    parts.push(`variable "v_${i}" {\n  type    = string\n  default = "d${i}"\n}\n`);
    parts.push(`resource "terraform_data" "r_${i}" {\n  input = {\n    name = var.v_${i}\n  }\n\n  triggers_replace = [1]\n}\n`);
    parts.push(`data "aws_ami" "d_${i}" {\n  owners = [var.v_${i}]\n}\n`);
    parts.push(`module "m_${i}" {\n  source = "./m"\n  x      = var.v_${i}\n}\n`);
  }
  return parts.join('\n');
}

test('each kind of fact has a hidden class or two, not one per object, however the file was read', async () => {
  const parser = await testParser();
  const file = '/work/shapes/main.tf';
  const text = blocks(100);
  const model = await ModuleFolderModel.load({ folder: '/work/shapes', parser, fileSystem: new MemoryFileSystem({ [file]: text }) });
  model.openDocument(file, text);
  // An edit inside one block, then Enter above the rest: the block-edit way and the in-place move.
  model.changeDocument(file, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: ' ' }]);
  model.changeDocument(file, [{ range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, text: '\n' }]);
  const facts = model.index.get(file);
  assert.ok(facts?.kind === 'terraform');
  assert.equal(facts.addresses.length, 300);
  assert.equal(facts.variables.length, 100);
  assert.equal(facts.references.length, 300);
  // Resources and data sources carry their attributes, modules their source.
  assert.ok(hiddenClasses(facts.addresses) <= 3, `${hiddenClasses(facts.addresses)} hidden classes among 300 addresses`);
  assert.ok(hiddenClasses(facts.variables) <= 2, `${hiddenClasses(facts.variables)} hidden classes among 100 variables`);
  assert.equal(hiddenClasses(facts.references), 1);
});

test('a file of resources alone (as in the bench’s 1 MB file) has one hidden class for its addresses', async () => {
  const parser = await testParser();
  const file = '/work/shapes/resources.tf';
  const text = Array.from({ length: 100 }, (_, i) => `resource "terraform_data" "r_${i}" {\n  input = {\n    name = var.v_${i}\n  }\n\n  triggers_replace = [var.v_${i}]\n}\n`).join('\n');
  const model = await ModuleFolderModel.load({ folder: '/work/shapes', parser, fileSystem: new MemoryFileSystem({ [file]: text }) });
  const closed = model.index.get(file);
  assert.ok(closed?.kind === 'terraform');
  assert.equal(hiddenClasses(closed.addresses), 1, 'read from disk');
  model.openDocument(file, text);
  const opened = model.index.get(file);
  assert.ok(opened?.kind === 'terraform');
  assert.equal(opened.addresses.length, 100);
  assert.equal(hiddenClasses(opened.addresses), 1, 'opened');
});

test('the count can fail: objects given a class each are counted as such', () => {
  const objects = Array.from({ length: 20 }, (_, i) => ({ [`key_${i}`]: i }));
  assert.equal(hiddenClasses(objects), 20);
  assert.equal(hiddenClasses(Array.from({ length: 20 }, (_, i) => ({ key: i }))), 1);
});

test('every key of a block’s facts is one an Enter knows how to move (shiftedFactKeys)', async () => {
  const parser = await testParser();
  const file = '/work/shapes/keys.tf';
  const model = await ModuleFolderModel.load({ folder: '/work/shapes', parser, fileSystem: new MemoryFileSystem({ [file]: blocks(1) }) });
  const facts = model.index.get(file);
  assert.ok(facts?.kind === 'terraform');
  const { kind: _kind, file: _file, syntaxProblems: _problems, ...lists } = facts;
  for (const key of Object.keys(lists)) assert.ok(key in shiftedFactKeys, `${key} is not moved after an Enter`);
});
