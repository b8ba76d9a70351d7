// A document's old versions must not outlive their edits. V8 keeps a whole string alive for any slice of it of 13
// characters or more, and a node's text was such a slice: each edited block's facts, and each name in the folder
// index's journal of reference changes, kept the version of the file they were read from (50 MB after 50 edits of
// the bench's 1 MB file). Measured as the heap after a full collection, before and after the edits.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { ModuleFolderModel } from '../../server/src/model';
import { detachedCopy } from '../../server/src/model/parserInput';
import { MemoryFileSystem, testParser } from './helpers';

function heapAfterFullCollection(): number {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const blockCount = 2_000;
const blockLines = 5;
function block(index: number, name: string): string {
  return `resource "terraform_data" "r_${index}" {\n  input = var.${name}\n  label = "resource number ${index} of the file"\n}\n`;
}

test('editing many blocks of a large file, and typing long names in one, keeps no old version of the text', async () => {
  const parser = await testParser();
  const folder = path.resolve('/work/retention');
  const file = path.join(folder, 'main.tf');
  const text = Array.from({ length: blockCount }, (_, index) => block(index, `a_fairly_long_variable_name_${index}`)).join('\n');
  assert.ok(text.length > 200_000);
  const model = await ModuleFolderModel.load({ folder, parser, fileSystem: new MemoryFileSystem({ [file]: text }) });
  model.openDocument(file, text);
  const before = heapAfterFullCollection();
  const edits = 40;
  for (let edit = 0; edit < edits; edit++) {
    // Half the edits rename the reference in a different block each time; the other half type into one block.
    const index = edit % 2 === 0 ? edit * 40 : 1_999;
    const line = index * blockLines + 1;
    const current = (model.openText(file) as string).split('\n')[line];
    model.changeDocument(file, [{ range: { start: { line, character: 0 }, end: { line, character: current.length } }, text: `  input = var.renamed_variable_number_${edit}` }]);
  }
  const facts = model.index.get(file);
  assert.ok(facts?.kind === 'terraform');
  assert.ok(facts.references.some((reference) => reference.name === `renamed_variable_number_${edits - 1}`), 'the edits were read');
  const grownMb = (heapAfterFullCollection() - before) / 1024 / 1024;
  const versionMb = text.length / 1024 / 1024;
  // Each kept version costs the file's size: 40 of them would be ~9 MB here.
  assert.ok(grownMb < versionMb * 4, `the heap grew ${grownMb.toFixed(1)} MB over ${edits} edits of a ${versionMb.toFixed(2)} MB file`);
});

test('a detached copy has the same characters as the slice it was made of', () => {
  const text = 'variable "a_fairly_long_variable_name" {}';
  const slice = text.slice(10, 38);
  assert.equal(detachedCopy(slice), 'a_fairly_long_variable_name"');
  assert.equal(detachedCopy(''), '');
  assert.equal(detachedCopy('é😀'), 'é😀');
});

test('node texts read through the parser input are the characters of the text, short and long', async () => {
  const parser = await testParser();
  const text = Array.from({ length: 300 }, (_, index) => block(index, `name_${index}`)).join('\n');
  const tree = parser.parse(text);
  try {
    assert.equal(tree.rootNode.text, text.slice(tree.rootNode.startIndex, tree.rootNode.endIndex));
    const blocks = tree.rootNode.firstChild?.namedChildren ?? [];
    assert.equal(blocks.length, 300);
    for (const node of [blocks[0], blocks[150], blocks[299]]) assert.equal(node?.text, text.slice(node!.startIndex, node!.endIndex));
    assert.equal(blocks[7]?.descendantsOfType('identifier').map((node) => node.text).join(' '), 'resource input var name_7 label');
  } finally {
    tree.delete();
  }
});
