// The open-document sync (server/src/documents/sync.ts) over real module folders and the real parser, on a clock the
// test moves by hand: a broken block is read at once and confirmed after the pause, a deleted brace waits for its
// whole-file parse, and a change that comes while that parse is under way (in slices) stops it. The scheduling alone,
// with a model that only records what it is asked, is test/server/syncScheduling.test.ts.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { ModuleFolders } from '../../server/src/documents/moduleFolders';
import { largeFileLength } from '../../server/src/indexing/indexPool';
import { registerDocumentSync } from '../../server/src/documents/sync';
import { modelUpdateDelayMs, verifyDelayMs, wholeParseDelay } from '../../server/src/documents/syncTiming';
import type { TerraformParser, TextChange } from '../../server/src/model';
import { maxRegions } from '../../server/src/model/terraformFile';
import { countTurns } from '../helpers/eventLoopTurns';
import { LoopClock } from '../helpers/loopClock';
import { syncConnection } from '../helpers/syncConnection';
import { testParser } from '../model/helpers';

/**
 * The sync over real module folders and the real parser (counting its whole-file parses), with `text` open as main.tf
 * (on disk too, unless `diskText` is given).
 */
async function openRealDocument(text: string, diskText = text) {
  const parser = await testParser();
  const counter = { parses: 0, stopped: 0 };
  const counting = Object.create(parser) as TerraformParser;
  counting.parse = (...args) => (counter.parses++, parser.parse(...args));
  counting.parseInSlices = async (...args) => {
    counter.parses++;
    const tree = await parser.parseInSlices(...args);
    if (!tree) counter.stopped++;
    return tree;
  };
  const folder = mkdtempSync(path.join(os.tmpdir(), 'sync-scheduling-'));
  const file = path.join(folder, 'main.tf');
  writeFileSync(file, diskText);
  const fileUri = pathToFileURL(file).href;
  const folders = new ModuleFolders({ parser: Promise.resolve(counting), environment: {}, log: () => undefined });
  const clock = new LoopClock();
  const { connection, handlers } = syncConnection();
  const view = registerDocumentSync(connection, folders, { clock });
  handlers.open!({ textDocument: { uri: fileUri, languageId: 'terraform', version: 1, text } });
  await folders.withModel(fileUri, () => undefined); // loaded and opened
  counter.parses = 0;
  return {
    clock,
    view,
    folders,
    file,
    fileUri,
    counter,
    change: (version: number, change: TextChange) => handlers.change!({ textDocument: { uri: fileUri, version }, contentChanges: [change] }),
    close: () => handlers.close!({ textDocument: { uri: fileUri } }),
    /** Resolves once the work queued for the folder so far (a parse's slices among it) has ended. */
    settled: () => folders.withModel(fileUri, () => undefined),
    problemsOn: (line: number) => folders.modelFor(fileUri)?.index.get(file)?.syntaxProblems.some((problem) => problem.range.start.line === line) === true,
    dispose() {
      folders.dispose();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Blocks of three lines and a blank one: block `n` spans lines 4n to 4n+2. */
const manyBlocks = (count: number) => Array.from({ length: count }, (_, index) => `resource "terraform_data" "r_${index}" {\n  input = var.v_${index}\n}\n`).join('\n');

describe('with the real model', () => {
  test('a half-typed `var.` reads its block at once and is confirmed after the pause; a deleted closing brace waits for its parse', async () => {
    // More blocks than a broken file is read region by region (maxRegions): fewer would be parsed whole at once.
    const opened = await openRealDocument(manyBlocks(maxRegions + 100));
    const { clock, view, fileUri, counter, change, settled, problemsOn } = opened;
    try {
      // Block 10 spans lines 40-42: a line with a half-typed reference goes into it.
      change(2, { range: { start: { line: 41, character: 0 }, end: { line: 41, character: 0 } }, text: '  extra = var.\n' });
      await clock.advance(modelUpdateDelayMs);
      assert.equal(view.modelVersion(fileUri), 2);
      assert.ok(problemsOn(41), 'the half-typed reference is a problem at once');
      assert.equal(counter.parses, 0, 'read from its block alone');
      await clock.advance(verifyDelayMs - 0.5);
      assert.equal(counter.parses, 0);
      await clock.advance(0.5);
      await settled(); // its slices end
      assert.equal(counter.parses, 1, 'the confirming whole-file parse');
      assert.ok(problemsOn(41));

      // Block 20 (now lines 81-83) loses its closing brace: the model waits for a whole-file parse.
      change(3, { range: { start: { line: 83, character: 0 }, end: { line: 83, character: 1 } }, text: '' });
      await clock.advance(modelUpdateDelayMs);
      assert.equal(view.modelVersion(fileUri), 2, 'deferred');
      await view.whenCurrent(fileUri, 82);
      assert.equal(counter.parses, 1, 'a request above the change does not wait for the parse');
      await view.whenCurrent(fileUri, 83);
      assert.equal(counter.parses, 2);
      assert.equal(view.modelVersion(fileUri), 3);
      assert.equal(opened.folders.modelFor(fileUri)?.openText(opened.file), view.get(fileUri)?.getText());
    } finally {
      opened.dispose();
    }
  });

  test('a change that comes while the whole-file parse is under way stops it; a request below the changes waits until the model has them all', async () => {
    const opened = await openRealDocument(manyBlocks(maxRegions + 100));
    const { clock, view, fileUri, counter, change, settled } = opened;
    try {
      // Block 20 (lines 80-82) loses its closing brace: ~100 ms of error recovery, in slices.
      change(2, { range: { start: { line: 82, character: 0 }, end: { line: 82, character: 1 } }, text: '' });
      await clock.advance(modelUpdateDelayMs + wholeParseDelay(undefined));
      assert.equal(counter.parses, 1, 'under way');
      const current = view.whenCurrent(fileUri, 90);
      change(3, { range: { start: { line: 81, character: 0 }, end: { line: 81, character: 0 } }, text: '  more = var.w\n' });
      await clock.advance(modelUpdateDelayMs);
      await current;
      assert.equal(counter.stopped, 1, 'the parse of version 2 stopped');
      assert.equal(counter.parses, 2, 'version 3 parsed for the request');
      assert.equal(view.modelVersion(fileUri), 3);
      assert.equal(opened.folders.modelFor(fileUri)?.openText(opened.file), view.get(fileUri)?.getText());
      await clock.advance(1000);
      await settled();
      assert.equal(counter.parses, 2, 'nothing left to parse');
    } finally {
      opened.dispose();
    }
  });

  test('a large document opened is parsed in slices: the event loop turns meanwhile, and its version is the model\'s once that parse ends', async () => {
    const text = manyBlocks(6000);
    assert.ok(text.length >= largeFileLength);
    const counter = countTurns();
    // openRealDocument returns once the open is done: the parse it set up is queued behind it.
    const opened = await openRealDocument(text);
    const { view, fileUri, settled } = opened;
    try {
      assert.equal(view.modelVersion(fileUri), undefined, 'no facts of this text yet');
      await settled();
      const turns = counter.stop();
      assert.equal(view.modelVersion(fileUri), 1);
      assert.equal(opened.folders.modelFor(fileUri)?.index.referencesTo('v_5999').length, 1);
      assert.ok(turns >= 20, `the event loop turned ${turns} times while a ${Math.round(text.length / 1024)} KB document opened`);
    } finally {
      counter.stop();
      opened.dispose();
    }
  });

  test('a large document closed before the parse its open set up has started: that parse does not run, the close reads the disk', async () => {
    // Unsaved text in the editor, different from the disk's: the close needs the disk's facts, not the editor's.
    const opened = await openRealDocument(`${manyBlocks(6000)}\nlocals {\n  unsaved = var.u\n}\n`, manyBlocks(6000));
    const { fileUri, counter, settled } = opened;
    try {
      // The open's parse is queued behind the open; the close comes first.
      opened.close();
      await settled();
      assert.equal(counter.parses, 1, 'one parse: the close reading the disk');
      assert.equal(opened.folders.modelFor(fileUri)?.isOpen(opened.file), false);
      assert.equal(opened.folders.modelFor(fileUri)?.index.referencesTo('v_5999').length, 1, 'the disk\'s facts');
      assert.equal(opened.folders.modelFor(fileUri)?.index.referencesTo('u').length, 0);
    } finally {
      opened.dispose();
    }
  });
});
