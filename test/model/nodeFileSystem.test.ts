import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
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

test('a symlink to a named pipe with a model file name is reported as unreadable, not read (a read would never return)', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'model-fs-'));
  const fifo = path.join(root, 'fifo');
  execFileSync('mkfifo', [fifo]);
  const pipe = path.join(root, 'pipe.tf');
  symlinkSync(fifo, pipe);
  writeFileSync(path.join(root, 'main.tf'), 'variable "own" {}\n');
  // A writer at the other end, so that a read that should not happen returns (and this test fails) instead of hanging.
  const writer = spawn('sh', ['-c', `while true; do printf 'variable "piped" {}\\n' > '${fifo}'; done`], { stdio: 'ignore' });
  try {
    await assert.rejects(nodeFileSystem.readFile(pipe), /not a regular file/);
    const model = await ModuleFolderModel.load({ folder: root, parser: await testParser() });
    assert.deepEqual(model.index.variableNames(), ['own']);
    assert.deepEqual(model.fileReadProblems(), [{ file: pipe, message: 'Cannot read pipe.tf: not a regular file' }]);
  } finally {
    writer.kill('SIGKILL');
  }
});

test('a folder with a model file name is reported as a folder', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'model-fs-'));
  mkdirSync(path.join(root, 'odd.tf'));
  await assert.rejects(nodeFileSystem.readFile(path.join(root, 'odd.tf')), (error: NodeJS.ErrnoException) => error.code === 'EISDIR');
});
