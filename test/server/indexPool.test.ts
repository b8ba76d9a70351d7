// The indexing workers (server/src/indexing): the built worker (dist/indexWorker.js, `node esbuild.mjs`) extracts
// exactly what the server's own thread extracts, stops when idle, and a worker that cannot run hands its files back.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ModuleFolders } from '../../server/src/documents/moduleFolders';
import { IndexPool, largeFileLength } from '../../server/src/indexing/indexPool';
import { backgroundNiceness } from '../../server/src/indexing/threadPriority';
import { ModuleFolderModel } from '../../server/src/model';
import type { TerraformParser } from '../../server/src/model';
import { extractFileText } from '../../server/src/model/fileExtraction';
import { demoAppFolder, MemoryFileSystem, testParser } from '../model/helpers';

const workerScript = path.resolve('dist/indexWorker.js');

/** A worker script that answers each file with `onMessage` (a misbehaving worker). */
function fakeWorker(onMessage: string): string {
  const script = path.join(mkdtempSync(path.join(os.tmpdir(), 'index-pool-')), 'indexWorker.js');
  writeFileSync(script, `require('node:worker_threads').parentPort.on('message', ${onMessage});\n`);
  return script;
}

describe('indexing workers', () => {
  test('a worker extracts what this thread extracts, for .tf and tfvars files, broken ones included', async () => {
    const parser = await testParser();
    const pool = new IndexPool({ script: workerScript, size: 2 });
    try {
      const files: Array<[string, { kind: 'terraform' } | { kind: 'tfvars'; format: 'hcl'; autoLoaded: boolean }, string]> = [
        [path.join(demoAppFolder, 'main.tf'), { kind: 'terraform' }, readFileSync(path.join(demoAppFolder, 'main.tf'), 'utf8')],
        [path.join(demoAppFolder, 'variables.tf'), { kind: 'terraform' }, readFileSync(path.join(demoAppFolder, 'variables.tf'), 'utf8')],
        ['/x/broken.tf', { kind: 'terraform' }, 'variable "a" {\n  type = \nresource "x" "y" {\n  v = var.a\n'],
        ['/x/terraform.tfvars', { kind: 'tfvars', format: 'hcl', autoLoaded: true }, 'region = "eu"\ncount = 3\n'],
      ];
      const fromWorkers = await Promise.all(files.map(([file, kind, text]) => pool.extract(file, kind, text)));
      assert.ok(pool.running >= 1);
      for (const [index, [file, kind, text]] of files.entries()) {
        assert.deepEqual(fromWorkers[index], extractFileText(parser, file, kind, text), file);
      }
      assert.ok(fromWorkers.every((result) => result.contribution !== undefined));
    } finally {
      pool.dispose();
    }
  });

  test('the workers stop once idle (their parsers go with them) and start again for the next file', async () => {
    const pool = new IndexPool({ script: workerScript, size: 1, idleMs: 1 });
    try {
      await pool.extract('/x/a.tf', { kind: 'terraform' }, 'variable "a" {}\n');
      await pool.whenIdleStopped();
      assert.equal(pool.running, 0);
      const again = await pool.extract('/x/b.tf', { kind: 'terraform' }, 'variable "b" {}\n');
      assert.equal(again.contribution?.kind === 'terraform' ? again.contribution.variables[0]?.name : undefined, 'b');
    } finally {
      pool.dispose();
    }
  });

  test('the worker runs at a lower priority than the server\'s thread (Linux, where each thread has its own)', { skip: process.platform !== 'linux' }, async () => {
    /** This process's threads at the background niceness (a worker of an earlier test may still be stopping). */
    const niced = () =>
      readdirSync('/proc/self/task').filter((thread) => {
        // The fields after the command name (which may hold spaces), from the state on: nice is the 17th.
        const fields = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8').split(') ')[1]!.split(' ');
        return Number(fields[16]) === backgroundNiceness;
      });
    const before = new Set(niced());
    assert.ok(!before.has(String(process.pid)), 'not the main thread');
    const pool = new IndexPool({ script: workerScript, size: 1, idleMs: 1 });
    try {
      await pool.extract('/x/a.tf', { kind: 'terraform' }, 'variable "a" {}\n');
      assert.equal(pool.running, 1);
      assert.equal(niced().filter((thread) => !before.has(thread)).length, 1, 'the new worker thread runs lower');
      assert.ok(!niced().includes(String(process.pid)), 'the server\'s own thread does not');
      await pool.whenIdleStopped();
    } finally {
      pool.dispose();
    }
  });

  test('a worker that crashes rejects its files, and the pool stops taking work', async () => {
    const pool = new IndexPool({ script: fakeWorker("() => { throw new Error('boom'); }"), size: 1 });
    try {
      await assert.rejects(pool.extract('/x/a.tf', { kind: 'terraform' }, 'variable "a" {}\n'), /boom/);
      assert.equal(pool.available, false);
      await assert.rejects(pool.extract('/x/b.tf', { kind: 'terraform' }, 'variable "b" {}\n'), /no indexing workers/);
    } finally {
      pool.dispose();
    }
  });

  test('a folder indexed through a worker that fails is indexed by this thread instead, file for file the same', async () => {
    const parser = await testParser();
    const pool = new IndexPool({ script: fakeWorker('() => process.exit(3)'), size: 1 });
    try {
      const viaFailingPool = await ModuleFolderModel.load({ folder: demoAppFolder, parser, offload: (file, kind, text) => pool.extract(file, kind, text) });
      const direct = await ModuleFolderModel.load({ folder: demoAppFolder, parser });
      assert.deepEqual(viaFailingPool.index.all(), direct.index.all());
      assert.ok(direct.index.all().length >= 2);
      viaFailingPool.dispose();
      direct.dispose();
    } finally {
      pool.dispose();
    }
  });
});


test('a worker that never answers is given up after the answer timeout: its files are rejected, the pool stops', async () => {
  const pool = new IndexPool({ script: fakeWorker('() => undefined'), size: 1, answerTimeoutMs: 50 });
  try {
    await assert.rejects(pool.extract('/x/a.tf', { kind: 'terraform' }, 'variable "a" {}\n'), /did not answer/);
    assert.equal(pool.available, false);
    assert.equal(pool.running, 0);
  } finally {
    pool.dispose();
  }
});

/** The parser, counting the whole-file parses of texts the workers would take (large files). */
function countingLargeParses(parser: TerraformParser): { parser: TerraformParser; largeParses: () => number } {
  let count = 0;
  const counting = new Proxy(parser, {
    get(target, property) {
      if (property === 'parse') {
        return (text: string, ...rest: unknown[]) => {
          if (text.length >= largeFileLength) count++;
          return (target.parse as (...args: unknown[]) => unknown).call(target, text, ...rest);
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { parser: counting, largeParses: () => count };
}

function largeTerraformText(): string {
  let text = '';
  for (let index = 0; text.length < largeFileLength + 1024; index++) text += `variable "v${index}" {\n  default = "${index}"\n}\n`;
  return text;
}

/** A pool that counts the files handed to it. */
function countingPool(): { pool: IndexPool; handed: () => number } {
  const pool = new IndexPool({ script: workerScript });
  let handed = 0;
  const extract = pool.extract.bind(pool);
  pool.extract = (...args) => (handed++, extract(...args));
  return { pool, handed: () => handed };
}

describe('background indexing in two lanes', () => {
  /** 8 module folders of 6 small files each, every variable named after its folder and file. */
  function writeWorkspace(): { root: string; expected: Map<string, string[]> } {
    const root = mkdtempSync(path.join(os.tmpdir(), 'index-lanes-'));
    const expected = new Map<string, string[]>();
    for (let f = 0; f < 8; f++) {
      const folder = path.join(root, `m${f}`);
      mkdirSync(folder);
      const names: string[] = [];
      for (let i = 0; i < 6; i++) {
        writeFileSync(path.join(folder, `c${i}.tf`), `variable "v_${f}_${i}" {\n  default = ${i}\n}\n\nlocals {\n  use_${i} = var.v_${f}_${(i + 1) % 6}\n}\n`);
        names.push(`v_${f}_${i}`);
      }
      expected.set(folder, names.sort());
    }
    return { root, expected };
  }

  test('every folder is loaded once, some by the worker (small files too), with the facts one lane on this thread finds', async () => {
    const { root, expected } = writeWorkspace();
    const parser = await testParser();
    let parsedHere = 0;
    const counting = new Proxy(parser, {
      get(target, property) {
        if (property === 'parse') return (...args: unknown[]) => (parsedHere++, (target.parse as (...a: unknown[]) => unknown).apply(target, args));
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const { pool, handed } = countingPool();
    const twoLanes = new ModuleFolders({ parser: Promise.resolve(counting), environment: {}, log: () => undefined, indexPool: pool, backgroundLanes: 2 });
    const oneLane = new ModuleFolders({ parser: Promise.resolve(parser), environment: {}, log: () => undefined });
    const added: string[] = [];
    twoLanes.onDidChange((event) => event.kind === 'added' && added.push(event.model.folder));
    try {
      await Promise.all([twoLanes.addRoot(root), oneLane.addRoot(root)]);
      assert.deepEqual([...added].sort(), [...expected.keys()].sort(), 'each folder loaded exactly once');
      for (const [folder, names] of expected) {
        assert.deepEqual(twoLanes.get(folder)?.index.variableNames(), names, folder);
        assert.deepEqual(twoLanes.get(folder)?.index.all(), oneLane.get(folder)?.index.all(), `${folder}: the same facts as one lane on this thread`);
      }
      // 48 small files: the worker took some (besides its warm-up file), this thread the others.
      assert.ok(handed() > 1, `files handed to the worker: ${handed()}`);
      assert.ok(parsedHere > 0 && parsedHere < 48, `files parsed on this thread: ${parsedHere}`);
      assert.equal(parsedHere + handed() - 1, 48, 'each file parsed once, here or in the worker');
    } finally {
      twoLanes.dispose();
      oneLane.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a workspace of one module folder starts no worker (nothing for a second lane to take)', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'index-lanes-one-'));
    writeFileSync(path.join(root, 'main.tf'), 'variable "only" {}\n');
    const { pool, handed } = countingPool();
    const folders = new ModuleFolders({ parser: testParser(), environment: {}, log: () => undefined, indexPool: pool, backgroundLanes: 2 });
    try {
      await folders.addRoot(root);
      assert.deepEqual(folders.get(root)?.index.variableNames(), ['only']);
      assert.equal(handed(), 0, 'no warm-up file, no worker');
      assert.equal(pool.running, 0);
    } finally {
      folders.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('without a pool, or with one lane asked for, this thread parses every file', async () => {
    const { root, expected } = writeWorkspace();
    const { pool, handed } = countingPool();
    const folders = new ModuleFolders({ parser: testParser(), environment: {}, log: () => undefined, indexPool: pool, backgroundLanes: 1 });
    try {
      await folders.addRoot(root);
      for (const [folder, names] of expected) assert.deepEqual(folders.get(folder)?.index.variableNames(), names, folder);
      assert.equal(handed(), 0, 'small files stay on this thread in one lane');
    } finally {
      folders.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('stopping: the files a worker had are not parsed on this thread', () => {
  test('the workers disposed with the folders (the server stops) while large files are in them or still being read: they are left out', async () => {
    const counted = countingLargeParses(await testParser());
    const root = mkdtempSync(path.join(os.tmpdir(), 'index-pool-stop-'));
    const folder = path.join(root, 'module');
    mkdirSync(folder);
    // Several: those read after the workers stopped are not parsed here either.
    for (const name of ['large1.tf', 'large2.tf', 'large3.tf']) writeFileSync(path.join(folder, name), largeTerraformText());
    writeFileSync(path.join(folder, 'small.tf'), 'variable "small" {}\n');
    // A worker that never answers: the file stays in it until the pool is disposed.
    const pool = new IndexPool({ script: fakeWorker('() => undefined'), size: 1 });
    let handedToWorker!: () => void;
    const handed = new Promise<void>((resolve) => (handedToWorker = resolve));
    const extract = pool.extract.bind(pool);
    pool.extract = (...args) => {
      handedToWorker();
      return extract(...args);
    };
    // One lane: the large files of a folder on this thread's lane are what is tested (a second lane would hand the
    // worker its small files too).
    const folders = new ModuleFolders({ parser: Promise.resolve(counted.parser), environment: {}, log: () => undefined, indexPool: pool, backgroundLanes: 1 });
    try {
      const indexed = folders.addRoot(root);
      await handed;
      folders.dispose();
      await indexed;
      assert.equal(counted.largeParses(), 0, 'a large file was parsed on the server thread after the workers stopped');
    } finally {
      folders.dispose();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('a model disposed while its worker had a file does not parse it when the worker fails', async () => {
    const counted = countingLargeParses(await testParser());
    const file = path.resolve('/stop/module/large.tf');
    const fileSystem = new MemoryFileSystem({ [file]: largeTerraformText() });
    let fail!: (error: Error) => void;
    let handedToWorker!: () => void;
    const handed = new Promise<void>((resolve) => (handedToWorker = resolve));
    let workersTakeFiles = false;
    const model = await ModuleFolderModel.load({
      folder: path.dirname(file),
      parser: counted.parser,
      fileSystem,
      offload: () => {
        if (!workersTakeFiles) return undefined;
        handedToWorker();
        return new Promise((_, reject) => (fail = reject));
      },
    });
    assert.equal(counted.largeParses(), 1); // loaded on this thread
    workersTakeFiles = true;
    const changed = model.fileChanged(file);
    await handed;
    model.dispose();
    fail(new Error('indexing worker exited with code 1'));
    await changed;
    assert.equal(counted.largeParses(), 1, 'a disposed model parsed the file its worker gave back');
  });
});
