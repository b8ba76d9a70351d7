// The indexing worker started as the server process starts (server/src/indexing/workerStart.ts): the index pool takes
// that worker instead of starting a second, one nobody claims is stopped, and one that fails never ends the server.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os, { availableParallelism } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { IndexPool } from '../../server/src/indexing/indexPool';
import { claimEarlyWorker, startIndexWorkerEarly } from '../../server/src/indexing/workerStart';

const workerScript = path.resolve('dist/indexWorker.js');
// On one core the server indexes on its own thread alone, and starts no worker early.
const oneCore = availableParallelism() < 2 && 'one core: no worker is started early';

function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

describe('the indexing worker started early', { skip: oneCore }, () => {
  test('is the worker the index pool uses: no second thread starts, and it stops with the pool', async () => {
    const early = startIndexWorkerEarly(workerScript, 60_000);
    assert.ok(early, 'started');
    const exited = once(early, 'exit');
    const pool = new IndexPool({ script: workerScript, size: 1, idleMs: 1 });
    try {
      const extraction = await pool.extract('/x/a.tf', { kind: 'terraform' }, 'variable "a" {}\n');
      assert.equal(extraction.contribution?.kind === 'terraform' ? extraction.contribution.variables[0]?.name : undefined, 'a');
      assert.equal(claimEarlyWorker(workerScript), undefined, 'the pool claimed it');
      await pool.whenIdleStopped();
      // The pool's idle stop is what ends the early worker (it would otherwise wait its 60 s).
      await within(10_000, exited, 'exit of the early worker once the pool stopped');
    } finally {
      pool.dispose();
      claimEarlyWorker(workerScript);
      await early.terminate(); // stopped already when all went well
    }
  });

  test('a pool of another script leaves it alone; nobody claiming it, it stops after its wait', async () => {
    // Another script, a real worker all the same: the pool starts its own and gives it a file.
    const otherScript = path.join(mkdtempSync(path.join(os.tmpdir(), 'other-worker-')), 'indexWorker.js');
    writeFileSync(otherScript, "require('node:worker_threads').parentPort.on('message', ({ id }) => require('node:worker_threads').parentPort.postMessage({ id, failed: 'other' }));\n");
    const early = startIndexWorkerEarly(workerScript, 300);
    assert.ok(early, 'started');
    const exited = new Promise((resolve) => early.once('exit', resolve));
    const other = new IndexPool({ script: otherScript, size: 1 });
    try {
      // In the same turn as the start: the early worker is surely there to be claimed, but not for another script.
      assert.equal(claimEarlyWorker(otherScript), undefined, 'not for another script');
      await assert.rejects(other.extract('/x/a.tf', { kind: 'terraform' }, 'variable "a" {}\n'), /other/, 'answered by the other script');
      await within(10_000, exited, 'exit of the unclaimed worker after its wait');
      assert.equal(claimEarlyWorker(workerScript), undefined, 'stopped: nothing left to claim');
    } finally {
      other.dispose();
      await early.terminate();
    }
  });

  test('one that fails as it starts is forgotten, never thrown at the server, and the pool starts its own', async () => {
    const failing = path.join(mkdtempSync(path.join(os.tmpdir(), 'early-worker-')), 'indexWorker.js');
    writeFileSync(failing, "throw new Error('cannot start');\n");
    const early = startIndexWorkerEarly(failing, 60_000);
    assert.ok(early, 'started');
    // Without a listener of its own, the worker's error would be an uncaught exception ending this process. (Not
    // events.once: it rejects on the 'error' that comes first.)
    await within(10_000, new Promise((resolve) => early.once('exit', resolve)), 'exit of the failing worker');
    assert.equal(claimEarlyWorker(failing), undefined, 'nothing left to claim');
    const pool = new IndexPool({ script: failing, size: 1 });
    try {
      await assert.rejects(pool.extract('/x/a.tf', { kind: 'terraform' }, 'variable "a" {}\n'), /cannot start/);
      assert.equal(pool.available, false);
    } finally {
      pool.dispose();
    }
  });
});
