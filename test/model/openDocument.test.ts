// One open document's edits (server/src/model/openDocument.ts): what each change did to the facts, and that the
// facts are always those of a fresh parse of the text. The folder-wide side is test/model/folderModel.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { TerraformParser, TextChange } from '../../server/src/model';
import { OpenDocument } from '../../server/src/model/openDocument';
import { twoTurns } from '../../server/src/model/steps';
import { freshTerraformFacts, testParser } from './helpers';

const file = '/work/open-document/main.tf';
const terraform = { kind: 'terraform' } as const;
const text = 'variable "region" {\n  type = string\n}\n\nresource "null_resource" "a" {\n  triggers = { r = var.region }\n}\n';
/** Inside the resource block: `region` → `zone` in `var.region`. */
const renameInBlock: TextChange = { range: { start: { line: 5, character: 23 }, end: { line: 5, character: 29 } }, text: 'zone' };

const fresh = (parser: TerraformParser, source: string) => freshTerraformFacts(parser, file, source);
/** 1,000 blocks: a whole-file parse and reading of many slices and steps. */
const long = Array.from({ length: 1000 }, (_, index) => `resource "null_resource" "r${index}" {\n  triggers = { r = var.region }\n}\n`).join('\n');

/** The document's waiting parse in slices, with the parser recycled between two steps of reading its tree. */
async function parseWithRecycleWhileReading(parser: TerraformParser, document: OpenDocument) {
  const parseInSlices = parser.parseInSlices.bind(parser);
  let parsed = false;
  parser.parseInSlices = async (...args) => {
    const tree = await parseInSlices(...args);
    parsed = true;
    return tree;
  };
  let recycled = false;
  try {
    const result = await document.parseWholeInSlices({
      cancelled: () => false,
      pause: async () => {
        if (parsed && !recycled) {
          recycled = true;
          await parser.recycle(() => document.reparseInSlices());
        }
        await twoTurns();
      },
    });
    assert.ok(recycled, 'the recycle came while the tree was read');
    return result;
  } finally {
    parser.parseInSlices = parseInSlices;
  }
}

/** What `work` returns, and how many whole-file parses (at once) it made. */
function countingWholeParses<T>(parser: TerraformParser, work: () => T): { value: T; wholeParses: number } {
  const parse = parser.parse.bind(parser);
  let wholeParses = 0;
  parser.parse = (...args) => {
    wholeParses++;
    return parse(...args);
  };
  try {
    return { value: work(), wholeParses };
  } finally {
    parser.parse = parse;
  }
}

describe('an open document', () => {
  test('an edit inside one block of a clean file is read from that block alone, exactly', async () => {
    const parser = await testParser();
    const { document } = OpenDocument.parsed(parser, file, terraform, text, () => undefined);
    const outcome = document.change([renameInBlock], undefined, {}, () => false);
    assert.equal(outcome.kind, 'block');
    assert.ok(outcome.kind === 'block' && outcome.exact);
    assert.deepEqual(outcome.contribution, fresh(parser, document.text));
    assert.deepEqual(outcome.contribution.references.map((reference) => reference.name), ['zone']);
    assert.equal(document.waitsForParse, false);
  });

  test('an edit that breaks the file waits for parsePending when asked to, then gives a fresh parse\'s facts', async () => {
    const parser = await testParser();
    const { document } = OpenDocument.parsed(parser, file, terraform, text, () => undefined);
    // An unclosed block at the end: not one block's edit.
    const outcome = document.change([{ range: { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } }, text: 'output "o" {\n  value = var.' }], undefined, { deferWholeParse: true }, () => false);
    assert.deepEqual(outcome, { kind: 'deferred' });
    assert.equal(document.waitsForParse, true);
    assert.deepEqual(document.parseWhole(), fresh(parser, document.text));
    assert.equal(document.waitsForParse, false);
  });

  test('a whole-file parse in slices that is stopped leaves the changes waiting and the facts as they were; one that ends gives a fresh parse\'s facts', async () => {
    const parser = await testParser();
    // Long enough that the parse takes many slices (~100 ms of error recovery after the unclosed block).
    const long = Array.from({ length: 2000 }, (_, index) => `resource "null_resource" "r${index}" {\n  triggers = { r = var.region }\n}\n`).join('\n');
    const { document, contribution } = OpenDocument.parsed(parser, file, terraform, text + long, () => undefined);
    const outcome = document.change([{ range: { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } }, text: 'output "o" {\n  value = var.' }], undefined, { deferWholeParse: true }, () => false);
    assert.deepEqual(outcome, { kind: 'deferred' });
    assert.equal(await document.parseWholeInSlices({ cancelled: () => true }), 'stopped');
    assert.equal(document.waitsForParse, true);
    const parsed = await document.parseWholeInSlices({ cancelled: () => false });
    assert.notEqual(parsed, 'stopped');
    assert.deepEqual(parsed !== 'stopped' && parsed.contribution, fresh(parser, document.text));
    assert.notDeepEqual(contribution, fresh(parser, document.text), 'the edit changed the facts');
    assert.equal(document.waitsForParse, false);
  });

  test('a recycle of the parser between two steps of reading the new tree: the tree the recycle parsed is kept, so the next edit parses no whole file', async () => {
    const parser = await testParser();
    const { document } = OpenDocument.parsed(parser, file, terraform, text + long, () => undefined);
    // The whole text replaced: no tree to re-use, every block read again, in many steps.
    assert.deepEqual(document.change([{ text: `${text}${long}\n` }], undefined, { deferWholeParse: true }, () => false), { kind: 'deferred' });
    const result = await parseWithRecycleWhileReading(parser, document);
    assert.deepEqual(result !== 'stopped' && result.contribution, fresh(parser, document.text));
    const { value: outcome, wholeParses } = countingWholeParses(parser, () => document.change([renameInBlock], undefined, {}, () => false));
    assert.equal(outcome.kind, 'block');
    assert.equal(wholeParses, 0, 'a tree of the runtime the recycle let go would have been parsed again whole');
    assert.deepEqual(outcome.kind === 'block' && outcome.contribution, fresh(parser, document.text));
  });

  test('a recycle between two steps of reading, with no tree kept for it to re-parse: the tree of the old runtime is let go, and the next change is parsed afresh in slices', async () => {
    const parser = await testParser();
    // Kept as text only (over the size limit), then back under it: no tree, so the read has none to re-use.
    const document = OpenDocument.textOnly(parser, file, terraform, text, () => undefined);
    assert.deepEqual(document.change([{ text: `${text}${long}` }], undefined, { deferWholeParse: true }, () => false), { kind: 'deferred' });
    const result = await parseWithRecycleWhileReading(parser, document);
    assert.deepEqual(result !== 'stopped' && result.contribution, fresh(parser, document.text));
    assert.equal(document.treeTextLength, 0, 'no tree of the runtime the recycle let go');
    const { value: outcome, wholeParses } = countingWholeParses(parser, () => document.change([renameInBlock], undefined, { deferWholeParse: true }, () => false));
    assert.deepEqual(outcome, { kind: 'deferred' });
    assert.equal(wholeParses, 0, 'nothing parsed at once on the keystroke');
    const parsedAgain = await document.parseWholeInSlices({ cancelled: () => false });
    assert.deepEqual(parsedAgain !== 'stopped' && parsedAgain.contribution, fresh(parser, document.text));
    assert.ok(document.treeTextLength > 0);
  });

  test('closed between two steps of reading: the tree read is deleted, not kept by the closed document', async () => {
    const parser = await testParser();
    const { document } = OpenDocument.parsed(parser, file, terraform, text, () => undefined);
    assert.deepEqual(document.change([{ text: `${text}${long}` }], undefined, { deferWholeParse: true }, () => false), { kind: 'deferred' });
    let pauses = 0;
    await document.parseWholeInSlices({
      cancelled: () => false,
      pause: async () => {
        if (++pauses === 3) document.dispose();
        await twoTurns();
      },
    });
    assert.ok(pauses >= 3, 'disposed while it was parsed or read');
    assert.equal(document.treeTextLength, 0);
  });

  test('over the size limit it keeps only its text; back under, it is parsed, and later edits are read block by block again', async () => {
    const parser = await testParser();
    let limit = 10;
    const tooLarge = (candidate: string) => candidate.length > limit;
    const document = OpenDocument.textOnly(parser, file, terraform, text, () => undefined);
    assert.equal(document.treeTextLength, 0, 'no tree over the limit');

    assert.deepEqual(document.change([renameInBlock], undefined, {}, tooLarge), { kind: 'too-large' });
    limit = Infinity;
    const back = document.change([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# ok\n' }], undefined, {}, tooLarge);
    assert.equal(back.kind, 'parsed');
    assert.ok(back.kind === 'parsed');
    assert.deepEqual(back.contribution, fresh(parser, document.text));
    assert.equal(document.treeTextLength, document.text.length, 'parsed again: the tree is kept');

    // One line down now (the comment above): `zone` → `zonal` in the resource block.
    const next = document.change([{ range: { start: { line: 6, character: 23 }, end: { line: 6, character: 27 } }, text: 'zonal' }], undefined, {}, tooLarge);
    assert.equal(next.kind, 'block', 'the incremental extractor survived the time over the limit');
    assert.ok(next.kind === 'block');
    assert.deepEqual(next.contribution, fresh(parser, document.text));
  });
});
