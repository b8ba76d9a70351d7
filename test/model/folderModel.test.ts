import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, test } from 'node:test';
import { ModuleFolderModel } from '../../server/src/model';
import type { ModelChange, TerraformParser, TextChange } from '../../server/src/model';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver-protocol';
import { freshTerraformFacts, MemoryFileSystem, testParser } from './helpers';
import { slicedReadLength } from '../../server/src/model/closedFiles';
import { turnsDuring } from '../helpers/eventLoopTurns';
import { referenceRange } from '../../server/src/model/references';

const folder = path.resolve('/work/folder-model');
const main = path.join(folder, 'main.tf');
const variables = path.join(folder, 'variables.tf');

async function setup(files: Record<string, string> = {}) {
  const fileSystem = new MemoryFileSystem({
    [variables]: 'variable "region" {\n  type = string\n}\n',
    [main]: 'resource "null_resource" "a" {\n  triggers = { r = var.region }\n}\n',
    ...files,
  });
  const model = await ModuleFolderModel.load({ folder, parser: await testParser(), fileSystem });
  return { fileSystem, model };
}

/** Records which parses re-used an old tree, to prove edits are parsed incrementally. */
function spyOn(parser: TerraformParser) {
  const calls: { incremental: boolean }[] = [];
  const spy = Object.create(parser) as TerraformParser;
  spy.parse = (text, oldTree) => {
    calls.push({ incremental: oldTree !== undefined });
    return parser.parse(text, oldTree);
  };
  return { spy, calls };
}

describe('module folder model: disk and open documents', () => {
  test('indexes the folder; open text overrides disk until the document is closed', async () => {
    const { model } = await setup();
    assert.deepEqual(model.index.variableNames(), ['region']);
    assert.equal(model.openDocument(variables, 'variable "zone" {}\n'), true);
    assert.deepEqual(model.index.variableNames(), ['zone']);
    assert.equal(model.isOpen(variables), true);
    assert.equal(await model.closeDocument(variables), true);
    assert.deepEqual(model.index.variableNames(), ['region']);
  });

  test('a large document opened is left for a parse in slices: the disk\'s facts stand until it ends', async () => {
    const fileSystem = new MemoryFileSystem({ [variables]: 'variable "region" {\n  type = string\n}\n' });
    const model = await ModuleFolderModel.load({ folder, parser: await testParser(), fileSystem, parseOpenedInSlicesFrom: 30 });
    try {
      assert.equal(model.openDocument(variables, 'variable "a" {}\n'), true, 'shorter than the bound: parsed at once');
      assert.deepEqual(model.index.variableNames(), ['a']);
      const opened = 'variable "zone" {\n  type = string\n}\n';
      assert.equal(model.openDocument(variables, opened), 'deferred');
      assert.deepEqual(model.index.variableNames(), ['a'], 'the facts of the text before stand meanwhile');
      assert.equal(model.openDocument(variables, opened), 'deferred', 'opened again with the same text: still waiting');
      assert.equal(await model.parsePendingInSlices(variables, { cancelled: () => false }), true);
      assert.deepEqual(model.index.variableNames(), ['zone']);
      assert.equal(model.openDocument(variables, opened), true, 'parsed');
    } finally {
      model.dispose();
    }
  });

  test('a document closed before its parse in slices, the disk holding its text, is read from disk', async () => {
    const text = 'variable "zone" {\n  type = string\n}\n';
    const fileSystem = new MemoryFileSystem({ [variables]: text });
    // Loaded for this open: the disk's copy of the open file is not read.
    const model = await ModuleFolderModel.load({ folder, parser: await testParser(), fileSystem, parseOpenedInSlicesFrom: 10, openDocuments: new Map([[variables, text]]) });
    try {
      assert.deepEqual(model.index.variableNames(), [], 'nothing read yet');
      assert.equal(await model.closeDocument(variables), true);
      assert.deepEqual(model.index.variableNames(), ['zone']);
    } finally {
      model.dispose();
    }
  });

  test('a large closed file read on this thread is parsed in slices: the event loop turns meanwhile, and the facts are a fresh parse\'s', async () => {
    const large = Array.from({ length: 1500 }, (_, index) => `variable "v_${index}" {\n  type    = string\n  default = "value-${index}"\n}\n`).join('\n');
    assert.ok(large.length >= slicedReadLength);
    const fileSystem = new MemoryFileSystem({ [variables]: large, [main]: 'output "o" {\n  value = var.v_7\n}\n' });
    const parser = await testParser();
    const { value: model, turns } = await turnsDuring(() => ModuleFolderModel.load({ folder, parser, fileSystem, yieldBetweenFiles: true }));
    try {
      assert.deepEqual(model.index.get(variables), freshTerraformFacts(parser, variables, large));
      assert.equal(model.index.variableNames().length, 1500);
      assert.ok(turns >= 10, `the event loop turned ${turns} times while the folder loaded`);
    } finally {
      model.dispose();
    }
  });

  test('fileChanged: with text, without text (read from disk), and ignored while the file is open', async () => {
    const { model, fileSystem } = await setup();
    assert.equal(await model.fileChanged(variables, 'variable "a" {}\n'), true);
    assert.deepEqual(model.index.variableNames(), ['a']);
    fileSystem.write(variables, 'variable "b" {}\n');
    await model.fileChanged(variables);
    assert.deepEqual(model.index.variableNames(), ['b']);
    model.openDocument(variables, 'variable "editor" {}\n');
    await model.fileChanged(variables, 'variable "disk" {}\n');
    assert.deepEqual(model.index.variableNames(), ['editor']);
  });

  test('file URIs and paths are the same file; sub-folders and other files are not this model\'s', async () => {
    const { model } = await setup();
    assert.equal(model.openDocument(pathToFileURL(variables).href, 'variable "via_uri" {}\n'), true);
    assert.deepEqual(model.index.variableNames(), ['via_uri']);
    assert.equal(await model.fileChanged(path.join(folder, 'modules/net/main.tf'), 'variable "nested" {}\n'), false);
    assert.equal(await model.fileChanged(path.join(folder, 'README.md'), '# hi'), false);
    assert.equal(model.openDocument('/elsewhere/main.tf', 'variable "x" {}'), false);
    assert.deepEqual(model.index.variableNames(), ['via_uri']);
  });

  test('fileDeleted drops the file, unless it is open in the editor', async () => {
    const { model } = await setup();
    assert.equal(model.fileDeleted(variables), true);
    assert.deepEqual(model.index.variableNames(), []);
    assert.deepEqual(model.index.undeclaredReferences().map((reference) => reference.name), ['region']);
    model.openDocument(main, 'variable "kept" {}\n');
    model.fileDeleted(main);
    assert.deepEqual(model.index.variableNames(), ['kept']);
  });

  test('a new file created on disk and picked up by fileChanged, and reindex drops files gone from disk', async () => {
    const { model, fileSystem } = await setup();
    const extra = path.join(folder, 'extra.auto.tfvars');
    fileSystem.write(extra, 'region = "eu-north-1"\n');
    await model.fileChanged(extra);
    assert.equal(model.index.effectiveTfvarsEntry('region')?.literal?.value, 'eu-north-1');
    fileSystem.remove(extra);
    await model.reindex();
    assert.equal(model.index.effectiveTfvarsEntry('region'), undefined);
  });

  test('a slow disk read does not overwrite a document opened meanwhile', async () => {
    const { model, fileSystem } = await setup();
    fileSystem.write(variables, 'variable "from_disk" {}\n');
    const release = fileSystem.hold(variables);
    const pending = model.fileChanged(variables);
    model.openDocument(variables, 'variable "from_editor" {}\n');
    release();
    await pending;
    assert.deepEqual(model.index.variableNames(), ['from_editor']);
  });

  test('nor does one that ends in the same turn as the open, whichever comes first among the microtasks', async () => {
    // The read's last check that nothing newer came and the facts it gives go in together: nothing runs between them.
    for (let depth = 0; depth < 8; depth++) {
      const { model, fileSystem } = await setup();
      fileSystem.write(variables, 'variable "from_disk" {}\n');
      const release = fileSystem.hold(variables);
      const pending = model.fileChanged(variables);
      let opened: Promise<unknown> = Promise.resolve();
      for (let turn = 0; turn < depth; turn++) opened = opened.then(() => undefined);
      opened = opened.then(() => model.openDocument(variables, 'variable "from_editor" {}\n'));
      release();
      await Promise.all([pending, opened]);
      assert.deepEqual(model.index.variableNames(), ['from_editor'], `the open ${depth} microtasks after the read's release`);
    }
  });

  test('unreadable files are reported without a stack or full path, and the rest is indexed', async () => {
    const fileSystem = new MemoryFileSystem({ [variables]: 'variable "ok" {}\n', [main]: 'x = 1\n' });
    fileSystem.failing.set(main, Object.assign(new Error(`EACCES: permission denied, open '${main}'`), { code: 'EACCES' }));
    const model = await ModuleFolderModel.load({ folder, parser: await testParser(), fileSystem });
    assert.deepEqual(model.index.variableNames(), ['ok']);
    assert.deepEqual(model.fileReadProblems(), [{ file: main, message: 'Cannot read main.tf: permission denied' }]);
  });

  test('.terraform/environment changes are fed like any file', async () => {
    const cloud = 'terraform {\n  cloud {\n    organization = "o"\n    workspaces {\n      tags = ["app"]\n    }\n  }\n}\n';
    const { model } = await setup({ [main]: cloud });
    const environmentFile = path.join(folder, '.terraform', 'environment');
    assert.equal(await model.fileChanged(environmentFile, 'app-staging\n'), true);
    const link = model.serviceLink();
    assert.equal(link.workspace?.kind === 'tags' && link.workspace.selected?.value, 'app-staging');
    model.fileDeleted(environmentFile);
    const after = model.serviceLink().workspace;
    assert.equal(after?.kind === 'tags' && after.selected, undefined);
  });

  test('listeners hear which file changed, and stop hearing once disposed', async () => {
    const { model } = await setup();
    const heard: ModelChange[] = [];
    const subscription = model.onDidChange((change) => heard.push(change));
    model.openDocument(main, 'variable "x" {}\n');
    subscription.dispose();
    model.openDocument(main, 'variable "y" {}\n');
    assert.deepEqual(heard, [{ files: [main] }]);
  });
});

describe('module folder model: incremental edits', () => {
  const original = '# Überprüfung 😀\nvariable "region" {\n  type = string\n}\n\nresource "null_resource" "a" {\n  triggers = { r = var.region }\n}\n';

  test('ranged edits re-parse from the old tree and give what a fresh parse of the final text gives', async () => {
    const parser = await testParser();
    const { spy, calls } = spyOn(parser);
    const fileSystem = new MemoryFileSystem({ [main]: original, [variables]: 'variable "other" {}\n' });
    const model = await ModuleFolderModel.load({ folder, parser: spy, fileSystem });
    model.openDocument(main, original);
    const untouched = model.index.get(variables);

    // Rename the reference after the emoji line, add a variable, then type `var.` at the end.
    const edits: TextChange[] = [
      { range: { start: { line: 6, character: 23 }, end: { line: 6, character: 29 } }, text: 'zone_é' },
      { range: { start: { line: 4, character: 0 }, end: { line: 4, character: 0 } }, text: 'variable "zone_é" {\n  default = "🚀"\n}\n' },
      { range: { start: { line: 10, character: 1 }, end: { line: 10, character: 1 } }, text: '\n\noutput "o" {\n  value = var.' },
    ];
    calls.length = 0;
    for (const edit of edits) model.changeDocument(main, [edit]);
    // The rename stays inside its block in a file without errors: that block alone is parsed (no whole-file
    // parse); the new block and the half-typed `var.` re-parse the file from the old tree.
    assert.deepEqual(calls.map((call) => call.incremental), [true, true]);
    assert.equal(model.index.get(variables), untouched, 'other files keep their contribution object');

    const finalText = model.openText(main);
    assert.ok(finalText);
    const fresh = await ModuleFolderModel.load({ folder, parser, fileSystem: new MemoryFileSystem({ [main]: finalText }) });
    assert.deepEqual(model.index.get(main), fresh.index.get(main));

    assert.deepEqual(model.index.variableNames(), ['other', 'region', 'zone_é']);
    assert.deepEqual(model.index.declarationsOf('zone_é')[0].default?.literal, { value: '🚀' });
    const [reference] = model.index.referencesTo('zone_é');
    assert.deepEqual(referenceRange(reference), { start: { line: 9, character: 19 }, end: { line: 9, character: 29 } });
    assert.equal(model.index.referencesTo('').length, 1, 'the `var.` being typed');
    assert.deepEqual(model.index.referencesTo('region'), []);
  });

  test('several changes in one notification apply in order; a change without range replaces the text', async () => {
    const { model } = await setup();
    model.openDocument(variables, 'variable "a" {}\n');
    model.changeDocument(variables, [
      { range: { start: { line: 0, character: 10 }, end: { line: 0, character: 11 } }, text: 'b' },
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: 'variable "c" {}\n' },
    ]);
    assert.deepEqual(model.index.variableNames(), ['b', 'c']);
    model.changeDocument(variables, [{ text: 'variable "whole" {}\n' }]);
    assert.deepEqual(model.index.variableNames(), ['whole']);
    assert.equal(model.changeDocument(path.join(folder, 'not-open.tf'), [{ text: 'x' }]), false, 'changes to a document that is not open are refused');
  });

  test('LSP content change events are accepted as they come from the protocol library', async () => {
    const { model } = await setup();
    model.openDocument(variables, 'variable "a" {}\n');
    const changes: TextDocumentContentChangeEvent[] = [{ range: { start: { line: 0, character: 10 }, end: { line: 0, character: 11 } }, rangeLength: 1, text: 'lsp' }];
    assert.equal(model.changeDocument(variables, changes), true);
    assert.deepEqual(model.index.variableNames(), ['lsp']);
  });

  test('CRLF files: edits and ranges stay on the right lines', async () => {
    const { model } = await setup();
    model.openDocument(main, 'locals {\r\n  a = var.one\r\n}\r\n');
    model.changeDocument(main, [{ range: { start: { line: 1, character: 10 }, end: { line: 1, character: 13 } }, text: 'two' }]);
    const [reference] = model.index.referencesTo('two');
    assert.deepEqual(referenceRange(reference), { start: { line: 1, character: 6 }, end: { line: 1, character: 13 } });
    assert.equal(model.openText(main), 'locals {\r\n  a = var.two\r\n}\r\n');
  });
});

describe('module folder model: resilience', () => {
  test('a folder that does not exist is an empty model, not an error', async () => {
    const model = await ModuleFolderModel.load({ folder: '/work/does-not-exist', parser: await testParser(), fileSystem: new MemoryFileSystem() });
    assert.deepEqual(model.index.files(), []);
    assert.deepEqual(model.serviceLink(), { mechanism: 'none', problems: [] });
  });

  test('a file whose indexing fails is left out and reported; the other files are indexed', async () => {
    const parser = await testParser();
    const failing = Object.create(parser) as TerraformParser;
    failing.parse = (text, oldTree) => {
      if (text.includes('poison')) throw new Error('parser exploded');
      return parser.parse(text, oldTree);
    };
    const fileSystem = new MemoryFileSystem({ [variables]: 'variable "ok" {}\n', [main]: '# poison\n' });
    const model = await ModuleFolderModel.load({ folder, parser: failing, fileSystem });
    assert.deepEqual(model.index.variableNames(), ['ok']);
    assert.deepEqual(model.fileReadProblems(), [{ file: main, message: 'Cannot parse main.tf: parser exploded' }]);
    await model.fileChanged(main, 'variable "fixed" {}\n');
    assert.deepEqual(model.fileReadProblems(), []);
    assert.deepEqual(model.index.variableNames(), ['fixed', 'ok']);
  });
});

describe('module folder model: shared readings', () => {
  test('declarations with the same type or default text share a frozen reading, so one cannot corrupt another', async () => {
    const text = 'variable "a" {\n  type    = list(string)\n  default = ["x"]\n}\nvariable "b" {\n  type    = list(string)\n  default = ["x"]\n}\n';
    const { model } = await setup({ [variables]: text });
    const [a] = model.index.declarationsOf('a');
    const [b] = model.index.declarationsOf('b');
    assert.ok(a.type && b.type && a.default?.literal && b.default?.literal);
    assert.ok(Object.isFrozen(a.type.parsed) && Object.isFrozen(a.default.literal.value));
    assert.throws(() => (a.default?.literal?.value as string[]).push('y'), TypeError);
    assert.deepEqual(b.default.literal.value, ['x']);
    assert.notDeepEqual(a.range, b.range, 'ranges are still per declaration');
  });
});
