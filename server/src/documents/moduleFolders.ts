// The module folders of the open workspace folders (every folder holding .tf or .tfvars files) and their code
// models. Models are created on discovery, when a document of an unknown folder opens, or when a watched file
// appears in one. Every operation on a folder runs in order on that folder's queue, so an edit that arrives while
// the folder is still loading is applied after the load, never lost or reordered. Which folders are module folders
// is folderDiscovery.ts; when the background indexer loads each, backgroundLoads.ts.
import path from 'node:path';
import { ModuleFolderModel } from '../model';
import type { ModelChange, ServiceLinkOverride, TerraformParser } from '../model';
import type { ModelFileKind } from '../model/fileKinds';
import type { ModelFileSystem } from '../model/fileSystem';
import { localPathOf } from '../model/filePaths';
import { IndexingStopped, largeFileLength } from '../indexing/indexPool';
import type { IndexPool } from '../indexing/indexPool';
import { BackgroundLoads } from './backgroundLoads';
import { findModuleFolders, folderOfFile } from './folderDiscovery';
import { ModuleCalls } from './moduleCalls';

export interface ModuleFoldersOptions {
  /** Loaded once at start-up; models wait for it. */
  parser: Promise<TerraformParser>;
  environment: Readonly<Record<string, string | undefined>>;
  log(message: string): void;
  /** Discovery stops descending below this depth (module trees are shallow; node_modules-like trees are not). */
  maxDepth?: number;
  /** Files longer than this get no analysis (see ModuleFolderModelOptions.maxFileSize); told once per file. */
  maxFileSize?: number;
  onLargeFile?(file: string, size: number): void;
  /** Workers that parse the files read from disk (none: this thread parses them). */
  indexPool?: IndexPool;
  /**
   * How many folders the background indexer loads at once (default: 2 with an index pool on a machine of 2 or more
   * cores, else 1): one on this thread, the others' files all parsed by the pool's worker.
   */
  backgroundLanes?: number;
  /** Where the models read closed files from (default: the disk). */
  fileSystem?: ModelFileSystem;
}

export type FolderEvent =
  | { kind: 'added'; model: ModuleFolderModel }
  | { kind: 'changed'; model: ModuleFolderModel; change: ModelChange }
  /** The folder left the workspace (see removeRoot, releaseIfOutside): the model is disposed right after this event. */
  | { kind: 'removed'; model: ModuleFolderModel };

export class ModuleFolders {
  private readonly models = new Map<string, ModuleFolderModel>();
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly roots = new Map<string, ServiceLinkOverride>();
  private readonly listeners = new Set<(event: FolderEvent) => void>();
  /** Which folders the others call as modules: the override links root modules only (overrideFor). */
  private readonly moduleCalls = new ModuleCalls();
  /**
   * Workspace folders whose module folders are not all loaded yet: until they are, a folder's callers may not be
   * known (an editor opens a child module, which loads first), so no folder that has not taken its override yet
   * takes it meanwhile (overrideFor). Linked for the moment it takes its caller to load, a child module was told
   * of a workspace, its variables "had no value", and run actions offered the wrong addresses.
   */
  private readonly rootsLoading = new Set<string>();
  /** Folders whose override was decided once every caller was known: they keep it through later root loads. */
  private readonly decided = new Set<string>();

  private maxFileSize: number;
  /** Aborted by dispose(): the folders still loading stop reading and parsing (the server is shutting down). */
  private readonly stopping = new AbortController();
  /** The folders addRoot found, loaded in the background after those an editor waits for. */
  private readonly background: BackgroundLoads;

  constructor(private readonly options: ModuleFoldersOptions) {
    this.maxFileSize = options.maxFileSize ?? Number.POSITIVE_INFINITY;
    this.background = new BackgroundLoads({
      indexPool: options.indexPool,
      backgroundLanes: options.backgroundLanes,
      stopping: this.stopping.signal,
      isLoaded: (folder) => this.models.has(folder),
      // Its workspace folder was closed while it waited: nothing to load. A worker that failed (the pool is no
      // longer available) leaves the rest of this lane's files to this thread, file by file (ensureLoaded).
      load: (folder, toWorker) => (this.rootOf(folder) ? this.enqueue(folder, () => this.ensureLoaded(folder, undefined, true, toWorker)).catch(() => undefined) : undefined),
    });
  }

  onDidChange(listener: (event: FolderEvent) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  all(): ModuleFolderModel[] {
    return [...this.models.values()];
  }

  get(folder: string): ModuleFolderModel | undefined {
    return this.models.get(path.resolve(folder));
  }

  /** The model a file (URI or path) belongs to, if its folder has one. */
  modelFor(uriOrPath: string): ModuleFolderModel | undefined {
    const folder = folderOfFile(localPathOf(uriOrPath));
    return folder ? this.models.get(folder) : undefined;
  }

  /**
   * The files the models hold below `folder` (absolute paths): a module folder inside it, or a folder inside a
   * module folder (its `.terraform`, for the selected workspace file).
   */
  knownFilesUnder(folder: string): string[] {
    const resolved = path.resolve(folder);
    const below = (file: string) => file.startsWith(resolved + path.sep);
    const related = (model: ModuleFolderModel) => model.folder === resolved || below(model.folder) || resolved.startsWith(model.folder + path.sep);
    return this.all().filter(related).flatMap((model) => model.knownFiles().filter(below));
  }

  /**
   * Adds a workspace folder and loads every module folder below it, in the background: one folder at a time per
   * lane (backgroundLanes), each reading its files in turns that let requests through, and pausing while a folder
   * an editor opened a file in loads first. Resolves once every folder is loaded.
   */
  async addRoot(root: string, override?: ServiceLinkOverride): Promise<void> {
    const resolved = path.resolve(root);
    this.rootsLoading.add(resolved);
    try {
      // Settings may have arrived first (setOverride): keep them unless told otherwise.
      if (override || !this.roots.has(resolved)) this.roots.set(resolved, override ?? {});
      const folders = await findModuleFolders(resolved, this.options.maxDepth ?? 8, this.options.log);
      await Promise.all(folders.map((folder) => this.background.add(path.resolve(folder))));
    } finally {
      this.rootLoaded(resolved);
    }
  }

  /**
   * Workspace folders about to be added (addRoot): from now until they are loaded, folders opened in them take no
   * override. For a server that reads the settings before it adds the folders, while the editor opens files.
   */
  expectRoots(roots: readonly string[]): void {
    for (const root of roots) this.rootsLoading.add(path.resolve(root));
  }

  /** Every module call known once no workspace folder is loading: the folders waiting for it take their override. */
  private rootLoaded(root: string): void {
    if (!this.rootsLoading.delete(root) || this.rootsLoading.size > 0) return;
    this.applyOverrides();
  }

  /**
   * A workspace folder was closed: its module folders go away, except a folder still inside another root and a
   * folder with documents open in the editor. The client owns an open document's text (LSP), and may keep it open
   * and edit it after closing its workspace folder: a model read again from disk would answer for text the user
   * no longer has. Such a folder stays until its last document closes (releaseIfOutside).
   */
  removeRoot(root: string): void {
    const resolved = path.resolve(root);
    // A folder removed before it was loaded: what waited for its calls waits no more.
    this.rootLoaded(resolved);
    if (!this.roots.delete(resolved)) return;
    for (const model of [...this.models.values()]) {
      if (model.folder !== resolved && !model.folder.startsWith(resolved + path.sep)) continue;
      if (!this.rootOf(model.folder) && model.openFiles().length === 0) this.remove(model);
    }
    // The folders that stay no longer take the removed folder's override (another root's, or none).
    this.applyOverrides();
  }

  /**
   * A document of the file's folder closed: a folder outside every workspace folder has a model for its open
   * documents only (a file opened from elsewhere, or kept by removeRoot), so with none left it goes.
   */
  releaseIfOutside(uriOrPath: string): Promise<void> {
    const folder = folderOfFile(localPathOf(uriOrPath));
    if (!folder) return Promise.resolve();
    return this.enqueue(folder, async () => {
      const model = this.models.get(folder);
      if (model && !this.rootOf(folder) && model.openFiles().length === 0) this.remove(model);
    });
  }

  private remove(model: ModuleFolderModel): void {
    this.models.delete(model.folder);
    this.decided.delete(model.folder);
    this.emit({ kind: 'removed', model });
    model.dispose();
    // The modules it called may be root modules now.
    if (this.moduleCalls.forget(model.folder)) this.applyOverrides();
  }

  /** Changes the size above which files get no analysis; files a higher limit admits are analysed now (in order with each folder's work). */
  setMaxFileSize(maxFileSize: number): void {
    if (maxFileSize === this.maxFileSize) return;
    this.maxFileSize = maxFileSize;
    for (const model of this.models.values()) void this.enqueue(model.folder, () => model.setMaxFileSize(maxFileSize));
  }

  /** Changes the link override of a workspace folder's root module folders. */
  setOverride(root: string, override: ServiceLinkOverride): void {
    this.roots.set(path.resolve(root), override);
    this.applyOverrides();
  }

  /**
   * Gives every model the override it takes now (overrideFor), in order with the work queued on its folder; the
   * model ignores one equal to its own. Called when the settings, the workspace folders or the module calls change.
   */
  private applyOverrides(): void {
    for (const model of this.models.values()) void this.enqueue(model.folder, async () => model.setOverride(this.overrideFor(model.folder)));
  }

  /** Runs `work` with the folder's model (created and loaded first if needed), in order with earlier work. */
  withModel<T>(uriOrPath: string, work: (model: ModuleFolderModel) => T | Promise<T>, opening?: { text: string }): Promise<T | undefined> {
    const file = localPathOf(uriOrPath);
    const folder = folderOfFile(file);
    if (!folder) return Promise.resolve(undefined);
    const loaded = this.models.has(folder);
    const done = this.enqueue(folder, async () => {
      // A folder first loaded because a file in it opens reads that file from the editor, not from disk.
      const model = await this.ensureLoaded(folder, opening ? new Map([[file, opening.text]]) : undefined);
      return model ? work(model) : undefined;
    });
    if (!loaded) {
      // An editor waits on this folder: it loads before the background continues.
      this.background.putFirst(done);
    }
    return done;
  }

  /** Ensures a model exists for a folder (no-op when it does). */
  ensure(folder: string): Promise<ModuleFolderModel | undefined> {
    const resolved = path.resolve(folder);
    return this.enqueue(resolved, () => this.ensureLoaded(resolved));
  }

  dispose(): void {
    this.stopping.abort();
    this.options.indexPool?.dispose();
    for (const model of this.models.values()) model.dispose();
    this.models.clear();
    this.listeners.clear();
  }

  /**
   * `background`: loaded by the background indexer (not a folder an editor waits for). `everyFileToWorker`: the
   * pool's worker parses every file of the folder, small ones too (a background lane of its own).
   */
  private async ensureLoaded(folder: string, openDocuments?: ReadonlyMap<string, string>, background = false, everyFileToWorker = false): Promise<ModuleFolderModel | undefined> {
    const existing = this.models.get(folder);
    if (existing) return existing;
    try {
      const parser = await this.options.parser;
      const pool = this.options.indexPool;
      // Large closed files go to the indexing worker (see indexPool.ts), except while a folder an editor waits for
      // is first read: the worker's start (a WebAssembly parser) would delay that folder's first diagnostics.
      let workersTakeFiles = background;
      const model = await ModuleFolderModel.load({
        folder,
        parser,
        ...(this.options.fileSystem ? { fileSystem: this.options.fileSystem } : {}),
        environment: this.options.environment,
        override: this.overrideFor(folder),
        ...(openDocuments ? { openDocuments } : {}),
        maxFileSize: this.maxFileSize,
        onLargeFile: (file, size) => this.options.onLargeFile?.(file, size),
        yieldBetweenFiles: true,
        parseOpenedInSlicesFrom: largeFileLength,
        isolateBrokenBlocksFrom: largeFileLength,
        background,
        stopped: () => this.stopping.signal.aborted,
        ...(pool
          ? {
              offload: (file: string, kind: ModelFileKind, text: string) => {
                if (!workersTakeFiles || (!everyFileToWorker && text.length < largeFileLength)) return undefined;
                // A stopped pool still takes the file, to say it is wanted no more (wantedNoMore), not to parse it here.
                return pool.available || pool.stopped ? pool.extract(file, kind, text).catch(wantedNoMore) : undefined;
              },
            }
          : {}),
      });
      workersTakeFiles = true;
      // Stopped while it loaded (it read nothing more): nobody is to see it.
      if (this.stopping.signal.aborted) {
        model.dispose();
        return undefined;
      }
      const callsChanged = this.moduleCalls.update(model, model.index.files());
      // Settings that arrived while it loaded (the editor's answer to workspace/configuration races the first
      // didOpen) reached only the models already listed: this one takes them now, before anyone reads its link.
      model.setOverride(this.overrideFor(folder));
      model.setMaxFileSize(this.maxFileSize);
      this.models.set(folder, model);
      model.onDidChange((change) => {
        if (this.moduleCalls.update(model, change.files)) this.applyOverrides();
        this.emit({ kind: 'changed', model, change });
      });
      this.emit({ kind: 'added', model });
      // The modules it calls were maybe linked as root modules until now.
      if (callsChanged) this.applyOverrides();
      return model;
    } catch (error) {
      this.options.log(`Cannot read the module folder ${folder}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private enqueue<T>(folder: string, work: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(folder) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch((error: unknown) => this.options.log(`Model update failed in ${folder}: ${error instanceof Error ? error.message : String(error)}`));
    this.queues.set(folder, settled);
    void settled.then(() => {
      if (this.queues.get(folder) === settled) this.queues.delete(folder);
    });
    return next;
  }

  /**
   * The link override setting of the workspace folder a module folder is in ({} outside every workspace folder).
   * The setting names the workspace a root module runs in: a child module (another folder calls it, moduleCalls.ts)
   * runs as part of its caller's configuration, and keeps what its own code says, normally no link at all.
   */
  private overrideFor(folder: string): ServiceLinkOverride {
    if (this.moduleCalls.isChild(folder)) return {};
    if (!this.decided.has(folder)) {
      if (this.rootsLoading.size > 0) return {}; // maybe a child whose caller has not loaded yet
      this.decided.add(folder);
    }
    const root = this.rootOf(folder);
    return (root && this.roots.get(root)) || {};
  }

  /** The innermost workspace folder containing `folder`. */
  rootOf(folder: string): string | undefined {
    let best: string | undefined;
    for (const root of this.roots.keys()) {
      if ((folder === root || folder.startsWith(root + path.sep)) && (!best || root.length > best.length)) best = root;
    }
    return best;
  }

  private emit(event: FolderEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.options.log(`A listener failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

/** The workers were disposed (the server is stopping): the file is left out rather than parsed on this thread. */
function wantedNoMore(error: unknown): undefined {
  if (error instanceof IndexingStopped) return undefined;
  throw error;
}
