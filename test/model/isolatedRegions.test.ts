// A large open file whose edit breaks its block is read region by region (model/isolatedRegions.ts): no whole-file
// parse while it stays broken, the blocks after the broken one keep their facts at their new positions, and the edit
// that repairs it brings back exactly what a fresh parse gives.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { LineIndex, ModuleFolderModel } from '../../server/src/model';
import type { TerraformParser, TextChange } from '../../server/src/model';
import { maxRegionLength } from '../../server/src/model/isolatedRegions';
import { referenceNameRange, referenceRange } from '../../server/src/model/references';
import { MemoryFileSystem, testParser } from './helpers';

const folder = path.resolve('/work/isolated');
const mainFile = path.join(folder, 'main.tf');
const variablesFile = path.join(folder, 'variables.tf');
const variables = Array.from({ length: 100 }, (_, index) => `variable "v_${index}" {}`).join('\n');

function blocks(count: number): string {
  return Array.from({ length: count }, (_, index) => `resource "terraform_data" "r_${index}" {\n  input = var.v_${index}\n}\n`).join('\n');
}

async function load(parser: TerraformParser, text: string, isolateBrokenBlocksFrom?: number): Promise<ModuleFolderModel> {
  const files = new MemoryFileSystem({ [mainFile]: text, [variablesFile]: variables });
  return ModuleFolderModel.load({ folder, parser, fileSystem: files, ...(isolateBrokenBlocksFrom === undefined ? {} : { isolateBrokenBlocksFrom }) });
}

function counting(parser: TerraformParser): { parser: TerraformParser; wholeParses: () => number } {
  let parses = 0;
  const wrapped = Object.create(parser) as TerraformParser;
  wrapped.parse = (...args) => (parses++, parser.parse(...args));
  wrapped.parseInSlices = (...args) => (parses++, parser.parseInSlices(...args));
  return { parser: wrapped, wholeParses: () => parses };
}

/**
 * Every fact points at what it says in the text: a reference at `var.<name>`, a variable's name at its quoted name,
 * an address's labels at its labels; references in document order (hover searches them); the folder's by-name index
 * holds the file's references exactly (it was updated by the items the edit swapped, not rebuilt).
 */
function assertFactsFollowText(model: ModuleFolderModel, context: string): void {
  const text = model.openText(mainFile) as string;
  const lines = new LineIndex(text);
  const at = (range: { start: { line: number; character: number }; end: { line: number; character: number } }) => text.slice(lines.offsetAt(range.start), lines.offsetAt(range.end));
  const contribution = model.index.get(mainFile);
  assert.ok(contribution?.kind === 'terraform', context);
  for (const reference of contribution.references) {
    if (reference.name !== '') assert.equal(at(referenceNameRange(reference)), reference.name, `${context}: reference ${reference.name}`);
    // `var .x` and `var\n.x` are references too.
    assert.ok(at(referenceRange(reference)).replace(/\s/g, '').startsWith('var.'), `${context}: reference ${reference.name} at ${JSON.stringify(referenceRange(reference))}`);
  }
  for (let index = 1; index < contribution.references.length; index++) {
    const [before, after] = [referenceRange(contribution.references[index - 1]), referenceRange(contribution.references[index])];
    assert.ok(before.end.line < after.start.line || (before.end.line === after.start.line && before.end.character <= after.start.character), `${context}: references out of order`);
  }
  // Labels quoted or bare (`resource x "y"` is a block too), spaced or not, a broken one across lines.
  const spaced = (labels: string) => labels.replace(/["\s]/g, '');
  for (const address of contribution.addresses) assert.equal(spaced(at(address.labelsRange)), spaced(`${address.type} ${address.name}`), `${context}: address ${address.address}`);
  for (const variable of contribution.variables) assert.equal(at(variable.nameRange), `"${variable.name}"`, `${context}: variable ${variable.name}`);
  const names = new Set(contribution.references.map((reference) => reference.name));
  for (const name of names) {
    const inIndex = model.index.referencesTo(name).filter((reference) => reference.file === mainFile);
    assert.deepEqual(new Set(inIndex), new Set(contribution.references.filter((reference) => reference.name === name)), `${context}: the index's references to ${name}`);
  }
}

async function assertSameAsFresh(model: ModuleFolderModel, parser: TerraformParser, context: string): Promise<void> {
  const fresh = await load(parser, model.openText(mainFile) as string);
  try {
    assert.deepEqual(model.index.get(mainFile), fresh.index.get(mainFile), context);
  } finally {
    fresh.dispose();
  }
}

/** The same as the same text opened afresh (large-file reading on, so a broken text is read region by region too). */
async function assertSameAsFreshOpen(model: ModuleFolderModel, parser: TerraformParser, context: string): Promise<void> {
  const text = model.openText(mainFile) as string;
  const fresh = await load(parser, text, 0);
  try {
    fresh.openDocument(mainFile, text);
    assert.deepEqual(model.index.get(mainFile), fresh.index.get(mainFile), context);
  } finally {
    fresh.dispose();
  }
}

function insert(line: number, character: number, text: string): TextChange[] {
  return [{ range: { start: { line, character }, end: { line, character } }, text }];
}

test('a brace too many in a large file: its region is read alone, the blocks after it keep their facts, nothing is parsed whole until the repair', async () => {
  const base = await testParser();
  const { parser, wholeParses } = counting(base);
  const initial = blocks(60);
  const model = await load(parser, initial, 0);
  try {
    model.openDocument(mainFile, initial);
    const before = wholeParses();
    const addressesBefore = (model.index.get(mainFile) as { addresses: { address: string }[] }).addresses.map((address) => address.address);
    // `  }` closes block 10 early: its own closing brace is one too many, and a whole-file parse would swallow what follows.
    const blockTen = 10 * 4;
    assert.equal(model.changeDocument(mainFile, insert(blockTen + 1, 0, '  }\n'), undefined, { deferWholeParse: true }), 'isolated');
    assertFactsFollowText(model, 'after the brace');
    const broken = model.index.get(mainFile) as { addresses: { address: string }[]; syntaxProblems: { range: { start: { line: number } } }[] };
    assert.deepEqual(broken.addresses.map((address) => address.address), addressesBefore, 'every block still declares its resource');
    assert.ok(broken.syntaxProblems.length > 0, 'the brace too many is a syntax problem');
    for (const problem of broken.syntaxProblems) assert.ok(problem.range.start.line >= blockTen && problem.range.start.line <= blockTen + 4, `a problem on line ${problem.range.start.line}, outside block 10`);

    // Typing elsewhere (a new line and a reference in block 50, a line removed in block 5): read block by block, the
    // file still broken, so still no whole-file parse.
    const blockFifty = 50 * 4 + 1;
    assert.equal(model.changeDocument(mainFile, insert(blockFifty + 2, 0, '  extra = var.v_3\n'), undefined, { deferWholeParse: true }), 'isolated');
    assert.equal(model.changeDocument(mainFile, [{ range: { start: { line: 5 * 4 + 1, character: 0 }, end: { line: 5 * 4 + 2, character: 0 } }, text: '' }], undefined, { deferWholeParse: true }), 'isolated');
    assertFactsFollowText(model, 'after typing elsewhere');
    assert.ok(model.index.referencesTo('v_3').some((reference) => referenceRange(reference).start.line === blockFifty + 1), 'the new reference, on its line (one removed above it)');
    assert.equal(wholeParses(), before, 'no whole-file parse while the file stays broken');

    // The repair (the brace removed): the regions read clean, and the whole-file parse that confirms them gives a fresh parse's facts.
    const braceLine = blockTen; // one line up: block 5 lost one
    assert.equal((model.openText(mainFile) as string).split('\n')[braceLine], '  }');
    assert.equal(model.changeDocument(mainFile, [{ range: { start: { line: braceLine, character: 0 }, end: { line: braceLine + 1, character: 0 } }, text: '' }], undefined, { deferWholeParse: true }), 'unverified');
    assertFactsFollowText(model, 'after the repair');
    await assertSameAsFresh(model, base, 'after the repair, before the confirming parse');
    assert.equal(model.parsePending(mainFile), true);
    await assertSameAsFresh(model, base, 'after the confirming parse');
  } finally {
    model.dispose();
  }
});

test('a large file opened broken is read region by region from the start: edits are read alone, and a block commented out or inside a heredoc is not a region of its own', async () => {
  const base = await testParser();
  const { parser, wholeParses } = counting(base);
  const lines = blocks(40).split('\n');
  lines.splice(10 * 4 + 1, 0, '  }'); // a brace too many in block 10
  const commented = '/*\nresource "terraform_data" "commented" {\n  input = var.v_1\n}\n*/\n';
  const heredoc = 'locals {\n  doc = <<EOT\nresource "terraform_data" "in_heredoc" {\nEOT\n}\n';
  const initial = `${commented}${heredoc}${lines.join('\n')}`;
  const model = await load(parser, initial, 0);
  try {
    model.openDocument(mainFile, initial);
    assertFactsFollowText(model, 'opened');
    const opened = model.index.get(mainFile) as { addresses: { address: string }[]; syntaxProblems: { range: { start: { line: number } } }[] };
    assert.equal(opened.addresses.length, 40, 'every block declares its resource; the commented and heredoc ones do not');
    const braceLine = initial.split('\n').indexOf('  }');
    assert.ok(opened.syntaxProblems.length > 0);
    for (const problem of opened.syntaxProblems) assert.ok(Math.abs(problem.range.start.line - braceLine) <= 3, `a problem on line ${problem.range.start.line}, not near the brace on ${braceLine}`);
    const parsesAfterOpen = wholeParses();
    const later = initial.split('\n').indexOf('  input = var.v_30');
    assert.equal(model.changeDocument(mainFile, insert(later, 0, '  extra = var.v_2\n'), undefined, { deferWholeParse: true }), 'isolated');
    assertFactsFollowText(model, 'after an edit');
    assert.equal(wholeParses(), parsesAfterOpen, 'read alone');
  } finally {
    model.dispose();
  }
});

test('below the size it is set for, the same edit waits for a whole-file parse, as before', async () => {
  const parser = await testParser();
  const initial = blocks(60);
  const model = await load(parser, initial, initial.length + 10);
  try {
    model.openDocument(mainFile, initial);
    assert.equal(model.changeDocument(mainFile, insert(41, 0, '  }\n'), undefined, { deferWholeParse: true }), 'deferred');
  } finally {
    model.dispose();
  }
});

test('an edit across blocks, a block pasted on the broken one\'s last line, and edits between blocks: the facts follow the text', async () => {
  const parser = await testParser();
  const initial = blocks(30);
  const model = await load(parser, initial, 0);
  try {
    model.openDocument(mainFile, initial);
    const change = (changes: TextChange[]) => model.changeDocument(mainFile, changes, undefined, { deferWholeParse: true });
    assert.equal(change(insert(4 * 4 + 1, 0, '  }\n')), 'isolated');
    // From the middle of block 2 to the middle of block 3: one region.
    assert.equal(change([{ range: { start: { line: 2 * 4 + 1, character: 4 }, end: { line: 3 * 4 + 1, character: 6 } }, text: 'x = var.v_9 }\n resource "a" "b" { y' }]), 'isolated');
    assertFactsFollowText(model, 'after the edit across blocks');
    // A whole block typed after the closing brace of the broken one, on the same line.
    const text = model.openText(mainFile) as string;
    const lines = text.split('\n');
    const braceLine = lines.indexOf('  }');
    assert.equal(change(insert(braceLine, 3, ' resource "terraform_data" "pasted" {\n  input = var.v_7\n}')), 'isolated');
    assertFactsFollowText(model, 'after the pasted block');
    assert.ok(model.index.referencesTo('v_7').length >= 2);
    // Blank lines between blocks, and a block there.
    const blank = (model.openText(mainFile) as string).split('\n').indexOf('', 40);
    assert.equal(change(insert(blank, 0, '\nvariable "typed" {}\n')), 'isolated');
    assertFactsFollowText(model, 'after typing between blocks');
    assert.ok(model.index.declarationsOf('typed').length === 1);
  } finally {
    model.dispose();
  }
});

test(`a region that would be longer than ${maxRegionLength} characters (a large paste) goes the whole-file way, parsed later; the next edits are read alone again`, async () => {
  const parser = await testParser();
  const initial = blocks(60);
  const model = await load(parser, initial, 0);
  try {
    model.openDocument(mainFile, initial);
    const change = (changes: TextChange[]) => model.changeDocument(mainFile, changes, undefined, { deferWholeParse: true });
    assert.equal(change(insert(10 * 4 + 1, 0, '  }\n')), 'isolated');
    // 1,500 blocks pasted at once between two blocks: one region of ~80,000 characters.
    const pasted = blocks(1500).replace(/r_/g, 'p_') + '\n';
    assert.ok(pasted.length > maxRegionLength);
    assert.equal(change(insert(30 * 4 + 1, 0, pasted)), 'deferred', 'too long to read alone on a keystroke');
    assert.equal(model.parsePending(mainFile), true);
    assertFactsFollowText(model, 'after the whole-file parse');
    await assertSameAsFreshOpen(model, parser, 'after the whole-file parse');
    // The file found broken is read region by region again: a later edit is read alone.
    const later = (model.openText(mainFile) as string).split('\n').indexOf('  input = var.v_50');
    assert.equal(change(insert(later, 0, '  extra = var.v_2\n')), 'isolated', 'a later edit is read alone (the file is still broken)');
    assertFactsFollowText(model, 'after the later edit');
    assert.ok(model.index.referencesTo('v_2').some((reference) => referenceRange(reference).start.line === later));
  } finally {
    model.dispose();
  }
});

test('random typing in a large file, broken pieces included: the facts follow the text at each key, and a whole-file parse at the end gives what opening the text afresh gives', async () => {
  const parser = await testParser();
  const initial = blocks(40);
  const typed = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom('a', ' ', '\n', '  z = var.v_3\n', 'var.v_1') },
    { weight: 2, arbitrary: fc.constantFrom('}', '{', '"', '}\n', 'var.', '=', '/*', '<<EOT\n', 'resource "x" "y" {\n') },
  );
  const keys = fc.array(fc.record({ at: fc.integer({ min: 0, max: 1_000_000 }), text: typed, remove: fc.nat(6) }), { minLength: 1, maxLength: 14 });
  let isolated = 0;
  await fc.assert(
    fc.asyncProperty(keys, async (sequence) => {
      const model = await load(parser, initial, 0);
      model.openDocument(mainFile, initial);
      let text = initial;
      try {
        for (const [index, key] of sequence.entries()) {
          const lines = new LineIndex(text);
          const offset = Math.floor((key.at / 1_000_000) * text.length);
          const end = Math.min(text.length, offset + key.remove);
          const range = { start: lines.positionAt(offset), end: lines.positionAt(end) };
          text = text.slice(0, lines.offsetAt(range.start)) + key.text + text.slice(lines.offsetAt(range.end));
          const result = model.changeDocument(mainFile, [{ range, text: key.text }], undefined, { deferWholeParse: true });
          if (result === 'isolated') isolated++;
          assert.equal(model.openText(mainFile), text);
          if (result !== 'deferred') assertFactsFollowText(model, `after key ${index} (${JSON.stringify(key.text)} at ${range.start.line}:${range.start.character})`);
        }
        model.parsePending(mainFile);
        assertFactsFollowText(model, 'after the whole-file parse');
        await assertSameAsFreshOpen(model, parser, 'after the whole-file parse');
      } finally {
        model.dispose();
      }
    }),
    { seed: 1327, numRuns: 60, endOnFailure: true },
  );
  assert.ok(isolated > 30, `only ${isolated} keys were read as a region`);
});
