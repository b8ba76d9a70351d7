// The server's own disk watcher (used when the client cannot watch files): what it reports and what it leaves out,
// on a real folder, and how it tells a failure to watch. Waits on the reported changes with a bound, never a sleep.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { FSWatcher } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { FileChangeType, type FileEvent } from 'vscode-languageserver';
import { DiskWatcher } from '../../server/src/documents/diskWatcher';
import { watchedFileGlobs } from '../../server/src/documents/fileWatchers';
import { mayHoldModuleFolders } from '../../server/src/documents/folderEvents';
import { mayHoldWatchedFiles } from '../../server/src/documents/watchedPaths';
import { realTimers } from '../../server/src/workspaces/timers';

describe('DiskWatcher on a real folder', () => {
  let root: string;
  let outside: string;
  let watcher: DiskWatcher;
  const reported: FileEvent[] = [];
  /** The files a model would hold (those written before the watch starts): what knownFilesUnder answers from. */
  const known = new Set<string>();
  const foldersAsked: string[] = [];
  const waiters: Array<() => void> = [];
  /** Resolves once `uri` has been reported as `type`; rejects after a bound (generous: a loaded machine delays the watch). */
  const reportOf = (uri: string, type: FileChangeType) =>
    new Promise<void>((resolve, reject) => {
      const check = () => reported.some((change) => change.uri === uri && change.type === type);
      if (check()) return resolve();
      const timer = setTimeout(() => reject(new Error(`${uri} not reported as ${type}; reported: ${JSON.stringify(reported)}`)), 15_000);
      waiters.push(() => check() && (clearTimeout(timer), resolve()));
    });

  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'hcp-watch-'));
    // The folders exist before the watch starts: what is tested is the filter, not how fast new folders are watched.
    for (const folder of ['app', 'node_modules/pkg', '.git/refs', '.terraform/providers/registry', '.terraform/modules/net']) await mkdir(path.join(root, folder), { recursive: true });
    outside = await mkdtemp(path.join(os.tmpdir(), 'hcp-watch-outside-'));
    for (const file of ['moved/main.tf', 'moved/nested/child.tf', 'removed/main.tf', 'removed/deep/er/values.tfvars', 'kept/main.tf']) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), 'variable "x" {}\n');
      known.add(path.join(root, file));
    }
    watcher = new DiskWatcher({
      globs: watchedFileGlobs,
      timers: realTimers,
      log: () => undefined,
      tell: () => undefined,
      knownFilesUnder(folder) {
        foldersAsked.push(folder);
        return [...known].filter((file) => file.startsWith(folder + path.sep));
      },
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
    await rm(outside, { recursive: true, force: true });
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

  // A move is one event for the folder alone: without the known files, nothing of it would be reported.
  test('a folder moved away reports each file it held, nested ones too, deleted', async () => {
    await rename(path.join(root, 'moved'), path.join(outside, 'moved'));
    await reportOf(pathToFileURL(path.join(root, 'moved', 'main.tf')).href, FileChangeType.Deleted);
    await reportOf(pathToFileURL(path.join(root, 'moved', 'nested', 'child.tf')).href, FileChangeType.Deleted);
    // A folder the watch names is asked about; the files of the others are not reported.
    assert.ok(foldersAsked.includes(path.join(root, 'moved')));
    assert.ok(!reported.some((change) => change.uri.includes('/kept/')));
  });

  // Node's watch of a folder moved in reports the files it finds there: the module files, not the downloads.
  test('a folder moved in reports each module file it holds created, in its module folders below too', async () => {
    for (const file of ['arrived/main.tf', 'arrived/nested/child.tfvars', 'arrived/.terraform/modules/m/main.tf', 'arrived/node_modules/p/main.tf']) {
      await mkdir(path.dirname(path.join(outside, file)), { recursive: true });
      await writeFile(path.join(outside, file), 'variable "x" {}\n');
    }
    await rename(path.join(outside, 'arrived'), path.join(root, 'arrived'));
    await reportOf(pathToFileURL(path.join(root, 'arrived', 'main.tf')).href, FileChangeType.Created);
    await reportOf(pathToFileURL(path.join(root, 'arrived', 'nested', 'child.tfvars')).href, FileChangeType.Created);
    // Downloads and dependencies that came with it are not module files of the workspace.
    assert.ok(!reported.some((change) => change.uri.includes('/arrived/.terraform/') || change.uri.includes('/arrived/node_modules/')), JSON.stringify(reported));
  });

  // As a shell deletes it (`rm -rf`, fast): the watch of a sub-folder goes before its files' events are read, so
  // the platform names some files and not others (node's own rm, file by file, is slow enough to name them all).
  test('a folder deleted with its sub-folders reports each file it held deleted', async () => {
    await promisify(execFile)('rm', ['-rf', path.join(root, 'removed')]);
    await reportOf(pathToFileURL(path.join(root, 'removed', 'main.tf')).href, FileChangeType.Deleted);
    await reportOf(pathToFileURL(path.join(root, 'removed', 'deep', 'er', 'values.tfvars')).href, FileChangeType.Deleted);
  });
});

test('folders that may hold module files: not version control, dependencies or downloads below .terraform', () => {
  const held = (relative: string) => mayHoldWatchedFiles(relative.split('/').join(path.sep));
  assert.deepEqual(
    ['app', 'app/modules/net', 'app/.terraform', '.terraform'].filter((folder) => !held(folder)),
    [],
  );
  assert.deepEqual(['node_modules/pkg', '.git/refs', 'app/.terraform/providers', '.terraform/modules/net', '../elsewhere', ''].filter(held), []);
});

test('created paths looked into for module folders: inside the workspace folder, not in hidden trees or dependencies', () => {
  const root = path.join(os.tmpdir(), 'ws');
  const looked = (relative: string) => mayHoldModuleFolders(path.join(root, ...relative.split('/')), root);
  assert.deepEqual(['app', 'app/modules/net'].filter((folder) => !looked(folder)), []);
  assert.deepEqual(['node_modules', 'app/node_modules/pkg', '.git', '.terraform', 'app/.terraform/modules', '.hidden/x', '../elsewhere', ''].filter(looked), []);
  assert.equal(mayHoldModuleFolders(path.join(root, 'app'), undefined), false, 'outside every workspace folder');
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

// What a shell's `rm -rf` can leave the watch with: one file's event, and none of the folders'. The folder's other
// known files, nested ones too, are reported deleted all the same.
test('a deleted file whose folder is gone too sweeps that folder\'s other known files', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'hcp-watch-lost-'));
  try {
    const files = ['removed/main.tf', 'removed/deep/er/values.tfvars', 'kept/main.tf'].map((file) => path.join(root, file));
    for (const file of files) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, 'variable "x" {}\n');
    }
    let listener: ((event: string, filename: string) => void) | undefined;
    const fake = new EventEmitter() as EventEmitter & { close(): void };
    fake.close = () => undefined;
    const reported: FileEvent[] = [];
    let settle!: () => void;
    const flushed = new Promise<void>((resolve) => (settle = resolve));
    const watcher = new DiskWatcher({
      globs: watchedFileGlobs,
      timers: realTimers,
      quietMs: 0,
      log: () => undefined,
      tell: () => undefined,
      knownFilesUnder: (folder) => files.filter((file) => file.startsWith(folder + path.sep)),
      onChanges(changes) {
        reported.push(...changes);
        settle();
      },
      watch: (_folder, _options, onEvent) => ((listener = onEvent as typeof listener), fake as unknown as FSWatcher),
    });
    watcher.add(root);
    await rm(path.join(root, 'removed'), { recursive: true });
    listener!('rename', path.join('removed', 'main.tf'));
    // The watcher's timers do not hold the process open (a server's watch never should): this does, until the report.
    const alive = setInterval(() => undefined, 1_000);
    await flushed.finally(() => clearInterval(alive));
    watcher.dispose();
    assert.deepEqual(
      reported.map((change) => `${path.relative(root, fileURLToPath(change.uri))} ${change.type}`).sort(),
      [`${path.join('removed', 'deep', 'er', 'values.tfvars')} ${FileChangeType.Deleted}`, `${path.join('removed', 'main.tf')} ${FileChangeType.Deleted}`],
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
