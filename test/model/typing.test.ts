// Types the demo's main.tf into an open document a few characters at a time, as a user would, and checks at
// regular points that the incrementally maintained model equals a fresh parse of the same text. Every
// intermediate state is a half-typed file, so this also proves none of them throws.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { LineIndex, ModuleFolderModel } from '../../server/src/model';
import { demoAppFolder, MemoryFileSystem, testParser } from './helpers';

test('typing a whole file keystroke by keystroke keeps the incremental model equal to a fresh parse', async () => {
  const parser = await testParser();
  const finalText = readFileSync(path.join(demoAppFolder, 'main.tf'), 'utf8');
  const folder = path.resolve('/work/typing');
  const file = path.join(folder, 'main.tf');
  const model = await ModuleFolderModel.load({ folder, parser, fileSystem: new MemoryFileSystem() });
  model.openDocument(file, '');
  let typed = '';
  let checks = 0;
  const step = 7;
  for (let offset = 0; offset < finalText.length; offset += step) {
    const chunk = finalText.slice(offset, offset + step);
    const end = new LineIndex(typed).positionAt(typed.length);
    model.changeDocument(file, [{ range: { start: end, end }, text: chunk }]);
    typed += chunk;
    if ((offset / step) % 25 === 0 || offset + step >= finalText.length) {
      const fresh = await ModuleFolderModel.load({ folder, parser, fileSystem: new MemoryFileSystem({ [file]: typed }) });
      assert.deepEqual(model.index.get(file), fresh.index.get(file), `after ${typed.length} characters`);
      checks++;
    }
  }
  assert.equal(model.openText(file), finalText);
  assert.ok(checks > 5);
  assert.deepEqual([...new Set(model.index.undeclaredReferences().map((reference) => reference.name))].sort(), [
    'allowed_cidrs', 'db_password', 'enable_monitoring', 'environment', 'instance_count', 'owner_email', 'region', 'replica_count', 'services', 'tags',
  ], 'main.tf alone declares none of the variables it uses');
});

test('deleting text backwards (a range that shrinks the document) stays consistent too', async () => {
  const parser = await testParser();
  const original = readFileSync(path.join(demoAppFolder, 'variables.tf'), 'utf8');
  const folder = path.resolve('/work/typing');
  const file = path.join(folder, 'variables.tf');
  const model = await ModuleFolderModel.load({ folder, parser, fileSystem: new MemoryFileSystem() });
  model.openDocument(file, original);
  let text = original;
  while (text.length > 0) {
    const cut = Math.max(0, text.length - 41);
    const lines = new LineIndex(text);
    model.changeDocument(file, [{ range: { start: lines.positionAt(cut), end: lines.positionAt(text.length) }, text: '' }]);
    text = text.slice(0, cut);
  }
  assert.equal(model.openText(file), '');
  assert.deepEqual(model.index.variableNames(), []);
});
