import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ModuleFolderModel, nodeFileSystem } from '../../server/src/model';
import { testParser } from './helpers';

test('the disk file system lists files and symlinked files, not folders; missing paths are empty, not errors', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'model-fs-'));
  const shared = path.join(root, 'shared.tf');
  const folder = path.join(root, 'module');
  mkdirSync(path.join(folder, 'nested.tf'), { recursive: true });
  writeFileSync(shared, 'variable "shared" {}\n');
  writeFileSync(path.join(folder, 'main.tf'), 'variable "own" {}\n');
  symlinkSync(shared, path.join(folder, 'providers.tf'));

  assert.deepEqual((await nodeFileSystem.listFiles(folder)).sort(), ['main.tf', 'providers.tf']);
  assert.deepEqual(await nodeFileSystem.listFiles(path.join(root, 'missing')), []);
  assert.equal(await nodeFileSystem.readFile(path.join(root, 'missing.tf')), undefined);

  const model = await ModuleFolderModel.load({ folder, parser: await testParser() });
  assert.deepEqual(model.index.variableNames(), ['own', 'shared']);
  assert.deepEqual(model.fileReadProblems(), []);
});
