// The server's own watch of the workspace folders, for clients that cannot watch files for it (no dynamic
// registration of workspace/didChangeWatchedFiles: Neovim 0.7, and Neovim 0.10+ on Linux by default). Without it a
// file changed, added or deleted outside the editor was never seen until a restart: a deleted *.auto.tfvars kept
// setting its variable. Changes come out as the FileEvents a client would send, for the same globs, so they take
// the same path into the models. One recursive fs.watch per folder (native on macOS and Windows; Node 20 emulates it
// on Linux, one inotify watch per folder); bursts (a save writes twice, a checkout writes hundreds) are reported
// together once the disk has been still for `quietMs`. A folder deleted or moved away may be reported alone, without
// the files it held (a move is one event; a recursive delete races the removal of the sub-folders' watches), so its
// known files (knownFilesUnder) that are gone are reported deleted too, as a client's per-file deletions would be.
// (A folder moved in needs nothing of the kind: Node's watch of the new folder reports the files it finds there.)
import { watch as fsWatch } from 'node:fs';
import type { FSWatcher, WatchListener } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { FileChangeType } from 'vscode-languageserver';
import type { FileEvent } from 'vscode-languageserver';
import type { TimerHandle, Timers } from '../workspaces/timers';
import { deletedEvent, goneFilesBelow, statOrGone } from './folderEvents';
import { mayHoldWatchedFiles, watchedPathFilter } from './watchedPaths';

export type WatchFunction = (folder: string, options: { recursive: boolean; persistent: boolean }, listener: WatchListener<string>) => FSWatcher;

export interface DiskWatcherOptions {
  globs: readonly string[];
  onChanges(changes: FileEvent[]): void;
  /** Every failure to watch a folder, at the start or later (its watches stopped): changes there are not seen. */
  log(message: string): void;
  /**
   * The first failure, with what the user can do: told once, as the next folders fail for the same reason (the
   * system's limit of watches) and a notice per folder would say the same thing again.
   */
  tell(message: string): void;
  timers: Pick<Timers, 'now' | 'setTimer'>;
  /** fs.watch (a test passes one that fails as a full system does). */
  watch?: WatchFunction;
  quietMs?: number;
  /** However long the disk keeps changing, what changed is reported at least this often. */
  maxWaitMs?: number;
  /**
   * The watched files known below a folder (absolute paths): the files the models hold. Without it, a folder
   * deleted or moved away reports only the files the platform happened to name.
   */
  knownFilesUnder?(folder: string): readonly string[];
}

export class DiskWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  /** Changed paths not reported yet, with whether a 'rename' (a creation or deletion) was among their events. */
  private readonly pending = new Map<string, { renamed: boolean }>();
  /** Paths the globs do not name that were created, deleted or moved: maybe folders whose files are gone. */
  private readonly maybeGoneFolders = new Set<string>();
  private readonly isWatched: (relativePath: string) => boolean;
  private flushTimer?: TimerHandle;
  private firstPendingAt?: number;
  private disposed = false;
  private failureTold = false;

  constructor(private readonly options: DiskWatcherOptions) {
    this.isWatched = watchedPathFilter(options.globs);
  }

  /** Starts watching a workspace folder (no-op when it is watched already). */
  add(root: string): void {
    const resolved = path.resolve(root);
    if (this.disposed || this.watchers.has(resolved)) return;
    const watch = this.options.watch ?? fsWatch;
    let watcher: FSWatcher;
    try {
      watcher = watch(resolved, { recursive: true, persistent: false }, (event, filename) => this.noted(resolved, event, filename));
    } catch (error) {
      this.failed(resolved, error as NodeJS.ErrnoException);
      return;
    }
    watcher.on('error', (error: NodeJS.ErrnoException) => {
      // The watch is broken from here on (inotify out of watches for a new folder, the folder deleted...).
      this.remove(resolved);
      this.failed(resolved, error);
    });
    this.watchers.set(resolved, watcher);
  }

  /** Stops watching a workspace folder (closed in the editor). */
  remove(root: string): void {
    const resolved = path.resolve(root);
    const watcher = this.watchers.get(resolved);
    if (!watcher) return;
    this.watchers.delete(resolved);
    watcher.close();
  }

  dispose(): void {
    this.disposed = true;
    for (const root of [...this.watchers.keys()]) this.remove(root);
    this.flushTimer?.cancel();
    this.pending.clear();
    this.maybeGoneFolders.clear();
  }

  private failed(root: string, error: NodeJS.ErrnoException): void {
    this.options.log(`Cannot watch ${root} for changes on disk: ${error.code ?? error.message}`);
    if (this.failureTold) return;
    this.failureTold = true;
    this.options.tell(watchFailureNotice(root, error));
  }

  private noted(root: string, event: string, filename: string | Buffer | null): void {
    // No name: the platform lost track (an overflowed queue); nothing to report precisely.
    if (filename === null || !this.watchers.has(root)) return;
    const relative = filename.toString();
    if (!this.isWatched(relative)) {
      if (event === 'rename' && mayHoldWatchedFiles(relative)) {
        this.maybeGoneFolders.add(path.join(root, relative));
        this.scheduleFlush();
      }
      return;
    }
    const file = path.join(root, relative);
    const entry = this.pending.get(file) ?? { renamed: false };
    entry.renamed ||= event === 'rename';
    this.pending.set(file, entry);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    const quietMs = this.options.quietMs ?? 100;
    const maxWaitMs = this.options.maxWaitMs ?? 1000;
    const now = this.options.timers.now();
    this.firstPendingAt ??= now;
    this.flushTimer?.cancel();
    const wait = Math.max(0, Math.min(quietMs, this.firstPendingAt + maxWaitMs - now));
    this.flushTimer = this.options.timers.setTimer(wait, () => void this.flush());
  }

  /** Reports the pending paths as the disk has them now: there, created or changed; gone, deleted. */
  private async flush(): Promise<void> {
    this.flushTimer = undefined;
    this.firstPendingAt = undefined;
    const batch = [...this.pending];
    this.pending.clear();
    const folders = [...this.maybeGoneFolders];
    this.maybeGoneFolders.clear();
    const batched = new Set(batch.map(([file]) => file));
    const [changes, held] = await Promise.all([
      Promise.all(
        batch.map(async ([file, { renamed }]) => {
          const stats = await statOrGone(file);
          if (stats === 'gone') return deletedEvent(file);
          return stats?.isFile() ? { uri: pathToFileURL(file).href, type: renamed ? FileChangeType.Created : FileChangeType.Changed } : undefined;
        }),
      ),
      goneFilesBelow(folders, { knownFilesUnder: (folder) => this.options.knownFilesUnder?.(folder) ?? [], except: batched, log: this.options.log }),
    ]);
    // A shell's `rm -rf` can remove a sub-folder's watch before its events are read, and the events of the folders
    // themselves may never come: a file reported deleted whose folder is gone too has its gone folder's other known
    // files swept as well (a file deleted alone leaves its folder, and costs one stat).
    const goneFolders = await goneFoldersOf(changes.filter((change): change is FileEvent => change?.type === FileChangeType.Deleted), folders);
    const swept = goneFolders.length > 0 ? await goneFilesBelow(goneFolders, { knownFilesUnder: (folder) => this.options.knownFilesUnder?.(folder) ?? [], except: new Set([...batched, ...held.map((event) => fileURLToPath(event.uri))]), log: this.options.log }) : [];
    const reported = [...changes.filter((change): change is FileEvent => change !== undefined), ...held, ...swept];
    if (!this.disposed && reported.length > 0) this.options.onChanges(reported);
  }
}

/** The highest gone folder above each deleted file, when its own folder is gone; none already swept (`swept`). */
async function goneFoldersOf(deleted: FileEvent[], swept: readonly string[]): Promise<string[]> {
  const folders = new Set<string>();
  for (const event of deleted) {
    let folder = path.dirname(fileURLToPath(event.uri));
    if ((await statOrGone(folder)) !== 'gone') continue;
    while ((await statOrGone(path.dirname(folder))) === 'gone') folder = path.dirname(folder);
    if (!swept.some((above) => folder === above || folder.startsWith(above + path.sep))) folders.add(folder);
  }
  return [...folders];
}

/** What the user can do when a folder cannot be watched, by the reason the system gave. */
export function watchFailureNotice(root: string, error: NodeJS.ErrnoException): string {
  const consequence = `HCP Terraform cannot watch ${root} for changes on disk, so files changed outside the editor are not seen until they are opened or the language server restarts.`;
  const enableClientWatching = 'Or let your editor watch files for the server (LSP workspace.didChangeWatchedFiles; in Neovim 0.10+ set capabilities.workspace.didChangeWatchedFiles.dynamicRegistration = true).';
  switch (error.code) {
    case 'ENOSPC':
      return `${consequence} The system's limit of file watches is reached (${error.code}): raise it (sysctl fs.inotify.max_user_watches=524288) and restart the server. ${enableClientWatching}`;
    case 'EMFILE':
    case 'ENFILE':
      return `${consequence} Too many files are open (${error.code}): raise the open-file limit (ulimit -n, or fs.inotify.max_user_instances) and restart the server. ${enableClientWatching}`;
    default:
      return `${consequence} (${error.code ?? error.message}) ${enableClientWatching}`;
  }
}
