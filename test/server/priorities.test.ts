// Priorities of the module folders: a folder whose file the editor opens loads before the background indexing of
// the rest of the workspace, which goes one folder at a time; a file is parsed once per version (opening a file
// of a folder being loaded for it, and closing a file whose disk text is what the editor had, parse nothing again).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ModuleFolders } from '../../server/src/documents/moduleFolders';
import { ModuleFolderModel } from '../../server/src/model';
import type { TerraformParser } from '../../server/src/model';
import { MemoryFileSystem, testParser } from '../model/helpers';

let base: string;
const folderCount = 30;

before(async () => {
  base = await mkdtemp(path.join(os.tmpdir(), 'hcp-priorities-'));
  for (let f = 0; f < folderCount; f++) {
    const folder = path.join(base, `m_${String(f).padStart(2, '0')}`);
    await mkdir(folder, { recursive: true });
    for (let i = 0; i < 10; i++) await writeFile(path.join(folder, `f_${i}.tf`), `variable "v_${f}_${i}" {}\nlocals {\n  x = var.v_${f}_${i}\n}\n`);
  }
});
after(() => rm(base, { recursive: true, force: true }));

test('the folder of an opened file loads before the background has indexed the rest, and the rest follows one folder at a time', async () => {
  const parser = await testParser();
  const folders = new ModuleFolders({ parser: Promise.resolve(parser), environment: {}, log: () => undefined });
  const order: string[] = [];
  let loadedWhenOpened = -1;
  folders.onDidChange((event) => {
    if (event.kind === 'added') order.push(path.basename(event.model.folder));
  });
  try {
    const indexing = folders.addRoot(base);
    const lastFile = path.join(base, `m_${folderCount - 1}`, 'f_0.tf');
    const opened = await folders.withModel(lastFile, (model) => {
      loadedWhenOpened = folders.all().length;
      return model.openDocument(lastFile, 'variable "typed" {}\n');
    }, { text: 'variable "typed" {}\n' });
    assert.equal(opened, true);
    // The opened folder, and at most the one folder the background had already started.
    assert.ok(loadedWhenOpened <= 2, `${loadedWhenOpened} folders were loaded before the opened file's`);
    assert.ok(order.indexOf(`m_${folderCount - 1}`) <= 1, order.join(', '));
    await indexing;
    assert.equal(folders.all().length, folderCount);
    // The background went in discovery order, one after the other.
    const background = order.filter((name) => name !== `m_${folderCount - 1}`);
    assert.deepEqual(background, [...background].sort());
    assert.deepEqual(folders.modelFor(lastFile)?.index.variableNames().includes('typed'), true, 'the editor text, not the disk, was read');
  } finally {
    folders.dispose();
  }
});

/** A parser that counts its whole-file parses. */
function counting(parser: TerraformParser): { parser: TerraformParser; parses: () => number } {
  let parses = 0;
  const wrapped = Object.create(parser) as TerraformParser;
  wrapped.parse = (text, oldTree) => {
    parses++;
    return parser.parse(text, oldTree);
  };
  return { parser: wrapped, parses: () => parses };
}

test('a file opened while its folder loads is parsed once; closing it with the disk text unchanged parses nothing', async () => {
  const real = await testParser();
  const folder = path.resolve('/virtual/parse-once');
  const file = path.join(folder, 'main.tf');
  const text = 'variable "a" {}\nlocals {\n  x = var.a\n}\n';
  const fileSystem = new MemoryFileSystem({ [file]: text });
  const { parser, parses } = counting(real);
  const model = await ModuleFolderModel.load({ folder, parser, fileSystem, openDocuments: new Map([[file, text]]) });
  try {
    assert.equal(parses(), 1, 'read from the editor text, not again from disk');
    assert.equal(model.openDocument(file, text), true);
    assert.equal(parses(), 1, 'the same text opened again is not parsed again');
    const contribution = model.index.get(file);
    await model.closeDocument(file);
    assert.equal(parses(), 1, 'closing with the disk text unchanged keeps the facts without a parse');
    assert.equal(model.index.get(file), contribution);
    assert.equal(model.isOpen(file), false);

    // Closing after unsaved edits: the disk text takes over, which needs a parse.
    model.openDocument(file, text);
    model.changeDocument(file, [{ range: { start: { line: 0, character: 10 }, end: { line: 0, character: 11 } }, text: 'b' }]);
    assert.deepEqual(model.index.variableNames(), ['b']);
    const before = parses();
    await model.closeDocument(file);
    assert.equal(parses(), before + 1);
    assert.deepEqual(model.index.variableNames(), ['a']);
  } finally {
    model.dispose();
  }
});

test('stopping the folders stops the loads in flight: the files not yet parsed are not parsed, and no model appears after', async () => {
  const parser = await testParser();
  const { parser: countingParser, parses } = counting(parser);
  const folders = new ModuleFolders({ parser: Promise.resolve(countingParser), environment: {}, log: () => undefined });
  const added: string[] = [];
  folders.onDidChange((event) => {
    if (event.kind === 'added') added.push(event.model.folder);
  });
  const indexing = folders.addRoot(base);
  // Stop once the indexer is inside its first folder (a few files parsed, most not).
  while (parses() < 3) await new Promise((resolve) => setImmediate(resolve));
  const addedBeforeStop = added.length;
  folders.dispose();
  const parsedAtStop = parses();
  await indexing;
  assert.ok(parses() - parsedAtStop <= 1, `${parses() - parsedAtStop} files were parsed after the stop (of ${folderCount * 10})`);
  assert.equal(added.length, addedBeforeStop, 'no folder appeared after the stop');
  assert.equal(folders.all().length, 0);
});
