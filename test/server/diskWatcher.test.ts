// The server's own disk watcher (used when the client cannot watch files): what it reports and what it leaves out,
// on a real folder, and how it tells a failure to watch. Waits on the reported changes with a bound, never a sleep.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { FSWatcher } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { FileChangeType, type FileEvent } from 'vscode-languageserver';
import { DiskWatcher } from '../../server/src/documents/diskWatcher';
import { watchedFileGlobs } from '../../server/src/documents/sync';
import { realTimers } from '../../server/src/workspaces/timers';

describe('DiskWatcher on a real folder', () => {
  let root: string;
  let watcher: DiskWatcher;
  const reported: FileEvent[] = [];
  const waiters: Array<() => void> = [];
  /** Resolves once `uri` has been reported as `type`; rejects after a bound. */
  const reportOf = (uri: string, type: FileChangeType) =>
    new Promise<void>((resolve, reject) => {
      const check = () => reported.some((change) => change.uri === uri && change.type === type);
      if (check()) return resolve();
      const timer = setTimeout(() => reject(new Error(`${uri} not reported as ${type}; reported: ${JSON.stringify(reported)}`)), 5_000);
      waiters.push(() => check() && (clearTimeout(timer), resolve()));
    });

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'hcp-watch-'));
    // The folders exist before the watch starts: what is tested is the filter, not how fast new folders are watched.
    for (const folder of ['app', 'node_modules/pkg', '.git/refs', '.terraform/providers/registry', '.terraform/modules/net']) await mkdir(path.join(root, folder), { recursive: true });
    watcher = new DiskWatcher({
      globs: watchedFileGlobs,
      timers: realTimers,
      log: () => undefined,
      tell: () => undefined,
      onChanges(changes) {
        reported.push(...changes);
        for (const waiter of [...waiters]) waiter();
      },
    });
    watcher.add(root);
  });
  after(async () => {
    watcher.dispose();
    await rm(root, { recursive: true, force: true });
  });

  test('module files are reported; downloads, dependencies and version control are not', async () => {
    for (const ignored of ['node_modules/pkg/main.tf', '.git/refs/x.tf', '.terraform/providers/registry/p.tf', '.terraform/modules/net/main.tf']) {
      await writeFile(path.join(root, ignored), 'variable "x" {}\n');
    }
    await writeFile(path.join(root, '.terraform', 'environment'), 'staging');
    await writeFile(path.join(root, 'app', 'notes.txt'), 'not a module file');
    await writeFile(path.join(root, 'app', 'main.tf'), 'variable "x" {}\n');
    // Written last: once it is reported, anything written before it would have been too.
    await reportOf(pathToFileURL(path.join(root, 'app', 'main.tf')).href, FileChangeType.Created);
    await reportOf(pathToFileURL(path.join(root, '.terraform', 'environment')).href, FileChangeType.Created);
    const files = new Set(reported.map((change) => path.relative(root, new URL(change.uri).pathname)));
    assert.deepEqual([...files].sort(), [path.join('.terraform', 'environment'), path.join('app', 'main.tf')].sort());
  });

  test('a deleted file is reported deleted', async () => {
    const file = path.join(root, 'app', 'gone.auto.tfvars');
    await writeFile(file, 'x = 1\n');
    await reportOf(pathToFileURL(file).href, FileChangeType.Created);
    await rm(file);
    await reportOf(pathToFileURL(file).href, FileChangeType.Deleted);
  });
});

describe('DiskWatcher failures', () => {
  const failing = (code: string) => {
    const error = Object.assign(new Error(`${code}: watch failed`), { code });
    return () => {
      throw error;
    };
  };

  test('folders the system cannot watch are each logged, and told once with what to do', () => {
    const logged: string[] = [];
    const told: string[] = [];
    const watcher = new DiskWatcher({ globs: watchedFileGlobs, timers: realTimers, onChanges: () => undefined, log: (m) => logged.push(m), tell: (m) => told.push(m), watch: failing('ENOSPC') });
    watcher.add('/work/a');
    watcher.add('/work/b');
    watcher.dispose();
    assert.equal(logged.length, 2);
    assert.equal(told.length, 1);
    assert.match(told[0]!, /fs\.inotify\.max_user_watches/);
    assert.match(told[0]!, /didChangeWatchedFiles/);
  });

  test('a watch that breaks later (too many open files) is closed and told', () => {
    const told: string[] = [];
    const broken = new EventEmitter() as EventEmitter & { close(): void; closed?: boolean };
    broken.close = () => void (broken.closed = true);
    const watcher = new DiskWatcher({ globs: watchedFileGlobs, timers: realTimers, onChanges: () => undefined, log: () => undefined, tell: (m) => told.push(m), watch: () => broken as unknown as FSWatcher });
    watcher.add('/work/a');
    broken.emit('error', Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }));
    watcher.dispose();
    assert.equal(broken.closed, true);
    assert.equal(told.length, 1);
    assert.match(told[0]!, /ulimit -n/);
  });
});
