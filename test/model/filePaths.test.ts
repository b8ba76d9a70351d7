import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fileUriOf, localPathOf } from '../../server/src/model/filePaths';

// Names a URI must escape: a space, a percent sign, a hash, a question mark, non-ASCII letters.
const awkward = ['/work/plain/main.tf', '/work/with space/main.tf', '/work/100%/vars.tfvars', '/work/a#b/c?.tf', '/work/Zürich/ŝtato.tf'];

test('a file URI and its path convert exactly as node:url does, the first time and from memory', () => {
  for (const file of awkward) {
    const uri = pathToFileURL(file).href;
    for (let round = 0; round < 2; round++) {
      assert.equal(fileUriOf(file), uri, file);
      assert.equal(localPathOf(uri), fileURLToPath(uri), uri);
    }
  }
});

test('a path is resolved as path.resolve does, and a relative one against the working folder', () => {
  assert.equal(localPathOf('/work/x/../y/main.tf'), '/work/y/main.tf');
  assert.equal(localPathOf('relative/main.tf'), path.resolve('relative/main.tf'));
});

test('a file URI naming another host throws every time, as fileURLToPath does (nothing local to read)', () => {
  for (let round = 0; round < 2; round++) assert.throws(() => localPathOf('file://server/share/main.tf'));
});

test('past its bound the cache starts over and still answers right', () => {
  for (let index = 0; index < 20_100; index++) assert.equal(localPathOf(`/work/many/f${index}.tf`), `/work/many/f${index}.tf`);
  assert.equal(localPathOf(pathToFileURL('/work/with space/main.tf').href), '/work/with space/main.tf');
});
