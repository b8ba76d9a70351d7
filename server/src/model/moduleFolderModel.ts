// The code model of one Terraform module folder: what its .tf and tfvars files declare and reference, and which
// service workspace it is linked to. Files come from disk unless open in the editor (open text wins). The LSP
// layer feeds it: openDocument/changeDocument/closeDocument for editor buffers, fileChanged/fileDeleted from
// file watching. Only the changed file is re-parsed and re-extracted. This file keeps the folder-wide side (which
// files are open, the index, the link); how closed files are read from disk is closedFiles.ts, how an open
// document's edits become facts is openDocument.ts.
import path from 'node:path';
import type { TextChange } from './documentEdits';
import { classifyFileName, selectedWorkspaceFile } from './fileKinds';
import type { ModelFileKind } from './fileKinds';
import { nodeFileSystem } from './fileSystem';
import type { ModelFileSystem } from './fileSystem';
import { FolderIndex } from './folderIndex';
import { resolveServiceLink } from './serviceLink';
import type { ServiceLink, ServiceLinkOverride } from './serviceLink';
import type { SliceControl, TerraformParser } from './terraformParser';
import { localPathOf } from './filePaths';
import type { FileExtraction } from './fileExtraction';
import type { FileContribution } from './contributions';
import { ClosedFiles } from './closedFiles';
import { OpenDocument } from './openDocument';
import type { ChangeOptions, ReportProblem } from './openDocument';

export interface ModuleFolderModelOptions {
  /** Absolute path of the module folder. */
  folder: string;
  parser: TerraformParser;
  fileSystem?: ModelFileSystem;
  /** The environment Terraform would run with (TF_CLOUD_*, TF_WORKSPACE). Not read from process.env implicitly. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Editor setting that wins over the code and the environment. */
  override?: ServiceLinkOverride;
  /** Files already open in the editor (path → text): read from here, not from disk, so each is parsed once. */
  openDocuments?: ReadonlyMap<string, string>;
  /**
   * Files longer than this many characters are not parsed: they contribute nothing and keep no syntax tree (a
   * 4 MB file's tree costs hundreds of MB of parser memory). `onLargeFile` hears about each one.
   */
  maxFileSize?: number;
  onLargeFile?(file: string, size: number): void;
  /**
   * Extracts a file read from disk elsewhere (an indexing worker), or returns undefined to leave it to this thread.
   * The promise rejects when the worker failed (this thread parses the file instead), and resolves undefined when
   * the file is wanted no more (the workers were stopped with the server): it is then left out, not parsed here.
   */
  offload?(file: string, kind: ModelFileKind, text: string): Promise<FileExtraction | undefined> | undefined;
  /** Parse one file read from disk per turn of the event loop, so requests go between them (the server does). */
  yieldBetweenFiles?: boolean;
  /** Loaded by the background indexer: its first load's files take their turns after those of folders an editor waits for. */
  background?: boolean;
  /**
   * An opened document of at least this many characters is not parsed by openDocument, which says 'deferred': the
   * caller parses it in slices (parsePendingInSlices), and the facts the index has for the file stay until then.
   */
  parseOpenedInSlicesFrom?: number;
  /** Open documents of at least this many characters are read region by region while broken (OpenDocument's `isolateFrom`). */
  isolateBrokenBlocksFrom?: number;
  /** True once the server is stopping: a model still loading then reads and parses nothing more. */
  stopped?(): boolean;
}

export interface ModelChange {
  /** Absolute paths whose contribution changed (or `.terraform/environment`). */
  files: string[];
}

/** A file the model could not read (permissions, a folder where a file was expected...). */
export interface FileReadProblem {
  file: string;
  message: string;
}

const readConcurrency = 32;

export class ModuleFolderModel {
  readonly folder: string;
  /** Folder-wide queries: variables, references, addresses, tfvars entries, per-file contributions. */
  readonly index = new FolderIndex();
  private readonly parser: TerraformParser;
  private readonly fileSystem: ModelFileSystem;
  private environment: Readonly<Record<string, string | undefined>>;
  private override: ServiceLinkOverride;
  private readonly openDocuments = new Map<string, OpenDocument>();
  /** The files read from disk: their reads, their problems, the size limit, and every file's update count. */
  private readonly closed: ClosedFiles;
  private selectedWorkspace: { name: string; file: string } | undefined;
  private cachedLink: ServiceLink | undefined;
  private readonly listeners = new Set<(change: ModelChange) => void>();
  /** Set by dispose: files still being read or extracted are not parsed (nobody reads this model any more). */
  private disposed = false;

  private constructor(options: ModuleFolderModelOptions) {
    this.folder = path.resolve(options.folder);
    this.parser = options.parser;
    this.fileSystem = options.fileSystem ?? nodeFileSystem;
    this.environment = options.environment ?? {};
    this.override = options.override ?? {};
    this.stopped = options.stopped ?? (() => false);
    this.parseOpenedInSlicesFrom = options.parseOpenedInSlicesFrom ?? Number.POSITIVE_INFINITY;
    this.isolateBrokenBlocksFrom = options.isolateBrokenBlocksFrom ?? Number.POSITIVE_INFINITY;
    this.closed = new ClosedFiles({
      folder: this.folder,
      parser: this.parser,
      fileSystem: this.fileSystem,
      maxFileSize: options.maxFileSize ?? Number.POSITIVE_INFINITY,
      onLargeFile: options.onLargeFile?.bind(options) ?? (() => undefined),
      ...(options.offload ? { offload: options.offload.bind(options) } : {}),
      yieldBetweenFiles: options.yieldBetweenFiles ?? false,
      // The background indexer's first load takes its turns last; anything after it is something the user did.
      parsePriority: options.background ? 'background' : 'urgent',
      isOpen: (file) => this.openDocuments.has(file),
      disposed: () => this.disposed,
      stopped: this.stopped,
    });
  }

  private readonly parseOpenedInSlicesFrom: number;
  private readonly isolateBrokenBlocksFrom: number;

  private readonly stopped: () => boolean;

  /** Creates the model and indexes every model file of the folder from disk. */
  static async load(options: ModuleFolderModelOptions): Promise<ModuleFolderModel> {
    const model = new ModuleFolderModel(options);
    for (const [file, text] of options.openDocuments ?? []) model.openDocument(file, text);
    await model.reindex();
    model.closed.parsePriority = 'urgent';
    return model;
  }

  /** Re-reads the folder listing and every file that is not open. */
  async reindex(): Promise<void> {
    const names = await this.fileSystem.listFiles(this.folder);
    const files = names.filter((name) => classifyFileName(name)).map((name) => path.join(this.folder, name));
    const listed = new Set(files);
    const gone = this.index.files().filter((known) => !listed.has(known) && !this.openDocuments.has(known));
    for (const file of gone) this.index.replace(file, undefined);
    // A pool rather than fixed batches: reads keep flowing while finished files are parsed.
    let next = 0;
    const worker = async () => {
      while (next < files.length) await this.loadFromDisk(files[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(readConcurrency, files.length) }, worker));
    await this.loadSelectedWorkspace();
    this.invalidate([...files, ...gone]);
  }

  // ---- updates ----

  /**
   * A file changed on disk. With `text`, that is its new content; without, it is read from disk. Ignored while
   * the file is open in the editor (the editor's text wins). Returns whether the file belongs to this model.
   */
  async fileChanged(pathOrUri: string, text?: string): Promise<boolean> {
    const file = this.toPath(pathOrUri);
    if (file === this.selectedWorkspacePath) {
      const generation = this.closed.bump(file);
      const content = text ?? (await this.closed.readText(file));
      if (!this.closed.isLatest(file, generation)) return true;
      this.selectedWorkspace = content === undefined ? undefined : { name: content.trim(), file };
      this.invalidate([file]);
      return true;
    }
    const kind = this.kindOf(file);
    if (!kind) return false;
    if (this.openDocuments.has(file)) return true;
    if (text === undefined) {
      await this.loadFromDisk(file);
    } else {
      this.closed.bump(file);
      this.index.replace(file, this.closed.extract(file, kind, text));
    }
    this.invalidate([file]);
    return true;
  }

  fileDeleted(pathOrUri: string): boolean {
    const file = this.toPath(pathOrUri);
    if (file === this.selectedWorkspacePath) {
      this.closed.bump(file);
      this.selectedWorkspace = undefined;
      this.invalidate([file]);
      return true;
    }
    if (!this.kindOf(file)) return false;
    if (this.openDocuments.has(file)) return true; // the open buffer still holds the text
    this.closed.bump(file);
    this.closed.problems.delete(file);
    this.index.replace(file, undefined);
    this.invalidate([file]);
    return true;
  }

  /**
   * The editor opened the file: its text takes over from the disk's. 'deferred' when the document is large enough to
   * be parsed in slices (see ModuleFolderModelOptions.parseOpenedInSlicesFrom): it waits for parsePendingInSlices.
   */
  openDocument(pathOrUri: string, text: string): boolean | 'deferred' {
    const file = this.toPath(pathOrUri);
    const kind = this.kindOf(file);
    if (!kind) return false;
    const inSlices = text.length >= this.parseOpenedInSlicesFrom;
    // Opened again with the same text (the folder was loaded for this very open): nothing to parse.
    const already = this.openDocuments.get(file);
    if (already?.text === text) {
      if (!already.waitsForParse) return true;
      if (inSlices) return 'deferred';
      this.parseWhole(file, already);
      return true;
    }
    this.closed.bump(file);
    already?.dispose();
    if (this.closed.tooLarge(file, text)) {
      this.openDocuments.set(file, OpenDocument.textOnly(this.parser, file, kind, text, this.problemsOf(file), this.isolateBrokenBlocksFrom));
      this.index.replace(file, undefined);
      this.invalidate([file]);
      return true;
    }
    if (inSlices) {
      this.openDocuments.set(file, OpenDocument.unparsed(this.parser, file, kind, text, this.problemsOf(file), this.isolateBrokenBlocksFrom));
      return 'deferred';
    }
    const { document, contribution } = OpenDocument.parsed(this.parser, file, kind, text, this.problemsOf(file), this.isolateBrokenBlocksFrom);
    this.openDocuments.set(file, document);
    this.index.replace(file, contribution);
    this.invalidate([file]);
    return true;
  }

  /**
   * Applies LSP content changes; ranged changes re-parse incrementally from the previous tree.
   * `offsets`: where each change falls, when the caller knows (documentEdits.ts ChangeOffsets).
   * `resultText`: the text these changes make, when the caller already holds it (the server's copy of the open
   * document). The model then keeps that string instead of building its own: one copy of a 1 MB text, not two, and
   * V8 joins its pieces (flattens it) once, not twice per keystroke.
   * `deferWholeParse`: an edit that cannot be read from its block alone (it breaks the block, or reaches outside
   * it) needs the whole file parsed (~20 ms for 1 MB); with this option the model keeps the text and returns
   * 'deferred' instead, and `parsePending` parses later, once the requests sent with the keystroke are answered.
   * With this option a block the edit leaves broken (a half-typed `var.`) is still read from its own text when it
   * parses as one block: the facts follow the text at once, and 'unverified' says a whole-file parse (parsePending)
   * still has to confirm them, which the caller does once the typing pauses. In a document of at least
   * `isolateBrokenBlocksFrom` characters an edit that breaks its block is read from its region alone, and
   * 'isolated' says the file is still broken there: that parse is not wanted until a later edit repairs it (then
   * 'unverified').
   */
  changeDocument(
    pathOrUri: string,
    changes: readonly TextChange[],
    resultText?: string,
    options: ChangeOptions = {},
  ): boolean | 'deferred' | 'unverified' | 'isolated' {
    const file = this.toPath(pathOrUri);
    const open = this.kindOf(file) ? this.openDocuments.get(file) : undefined;
    if (!open) return false;
    this.closed.bump(file);
    const outcome = open.change(changes, resultText, options, (text) => this.closed.tooLarge(file, text));
    if (outcome.kind === 'deferred') return 'deferred';
    if (outcome.kind === 'block') this.index.replace(file, outcome.contribution, outcome.swapped);
    else this.index.replace(file, outcome.kind === 'too-large' ? undefined : outcome.contribution);
    this.invalidate([file]);
    if (outcome.kind === 'block' && !outcome.exact) return outcome.isolated ? 'isolated' : 'unverified';
    return true;
  }

  /** Parses a document whose changes were deferred (changeDocument's `deferWholeParse`); false when none wait. */
  parsePending(pathOrUri: string): boolean {
    const file = this.toPath(pathOrUri);
    const open = this.kindOf(file) ? this.openDocuments.get(file) : undefined;
    if (!open?.waitsForParse) return false;
    this.parseWhole(file, open);
    return true;
  }

  /**
   * parsePending with the parse in slices, the event loop free between them (OpenDocument.parseWholeInSlices):
   * 'stopped' when it stopped before its end, and the changes still wait for a parse. The caller keeps the folder's
   * other work out until it resolves.
   */
  async parsePendingInSlices(pathOrUri: string, control: SliceControl): Promise<boolean | 'stopped'> {
    const file = this.toPath(pathOrUri);
    const open = this.kindOf(file) ? this.openDocuments.get(file) : undefined;
    if (!open?.waitsForParse) return false;
    const parsed = await open.parseWholeInSlices(control);
    if (parsed === 'stopped') return 'stopped';
    if (this.openDocuments.get(file) !== open) return false; // closed meanwhile: its disk content took over
    this.index.replace(file, parsed.contribution);
    this.invalidate([file]);
    return true;
  }

  private parseWhole(file: string, open: OpenDocument): void {
    this.index.replace(file, open.parseWhole());
    this.invalidate([file]);
  }

  /**
   * The editor closed the file: its disk content (if any) takes over again. Its syntax tree is freed (closed files
   * keep only their extracted facts); when the disk holds the text the editor had, those facts stay as they are.
   */
  async closeDocument(pathOrUri: string): Promise<boolean> {
    const file = this.toPath(pathOrUri);
    const open = this.openDocuments.get(file);
    if (!open) return false;
    open.dispose();
    this.openDocuments.delete(file);
    const generation = this.closed.bump(file);
    let disk: string | undefined;
    try {
      disk = await this.fileSystem.readFile(file);
    } catch {
      disk = undefined; // loadFromDisk below reports it
    }
    if (!this.closed.isLatest(file, generation) || this.openDocuments.has(file)) return true;
    // Its facts are the disk's already, unless they still waited for a parse (of the open text, or of changes).
    if (disk !== undefined && disk === open.text && !open.waitsForParse) return true;
    await this.loadFromDisk(file);
    this.invalidate([file]);
    return true;
  }

  setEnvironment(environment: Readonly<Record<string, string | undefined>>): void {
    this.environment = environment;
    this.invalidate([]);
  }

  /**
   * A new size limit. A lower one applies to what is read or edited from now on; a higher one analyses at once the
   * files it now admits, open or closed: the large-file notice says "raise the setting to analyse it", and an open
   * file used to wait for its next edit.
   */
  async setMaxFileSize(maxFileSize: number): Promise<void> {
    this.closed.maxFileSize = maxFileSize;
    for (const file of this.closed.largeFiles()) {
      const open = this.openDocuments.get(file);
      if (open) {
        if (open.text.length > maxFileSize) continue;
        // Opened again with its own text: parsed now (at once, even a text that an open parses in slices).
        open.dispose();
        this.openDocuments.delete(file);
        if (this.openDocument(file, open.text) === 'deferred') this.parsePending(file);
      } else {
        await this.loadFromDisk(file); // over the limit still: it stays a large file, told no more
        this.invalidate([file]);
      }
    }
  }

  /** Files over the size limit, which get no analysis (absolute paths). */
  largeFiles(): string[] {
    return this.closed.largeFiles();
  }

  /** An override equal to the current one changes nothing (no new link, no change event). */
  setOverride(override: ServiceLinkOverride): void {
    if (sameOverride(this.override, override)) return;
    this.override = override;
    this.invalidate([]);
  }

  onDidChange(listener: (change: ModelChange) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /**
   * Whether a document opened in slices has not been read yet: the folder's facts lack all of it meanwhile (its
   * declarations too), so diagnostics wait for it.
   */
  awaitsFirstRead(): boolean {
    for (const open of this.openDocuments.values()) if (open.awaitsFirstRead) return true;
    return false;
  }

  /** Characters of text the kept syntax trees (open documents') were parsed from: what the parser's memory must hold. */
  heldTreeText(): number {
    let characters = 0;
    for (const open of this.openDocuments.values()) characters += open.treeTextLength;
    return characters;
  }

  /**
   * Parses every kept tree afresh, in slices (OpenDocument.reparseInSlices), and deletes the old one: after
   * TerraformParser.recycle the old trees belong to the runtime being let go. The text is the same, so the facts are
   * too: nothing is extracted again. A tree that waits for a whole-file parse (changeDocument's 'deferred') matches
   * its text now, which that parse re-uses.
   */
  async reparseTrees(): Promise<void> {
    for (const open of [...this.openDocuments.values()]) await open.reparseInSlices();
  }

  /** Frees the syntax trees kept for open documents (they live in WebAssembly memory). */
  dispose(): void {
    this.disposed = true;
    for (const open of this.openDocuments.values()) open.dispose();
    this.openDocuments.clear();
    this.listeners.clear();
  }

  // ---- queries ----

  serviceLink(): ServiceLink {
    this.cachedLink ??= this.resolveLink(this.index.all());
    return this.cachedLink;
  }

  /**
   * The link as it would be were `file` to contribute `contribution` instead (completion in a half-typed cloud
   * block reads the block from its text with the string closed; the index holds the broken file without it).
   */
  serviceLinkWith(file: string, contribution: FileContribution): ServiceLink {
    const resolved = this.toPath(file);
    // In the index's order (by file): the first cloud block found is the one that links, as for serviceLink().
    const files = [...new Set([...this.index.files(), resolved])].sort();
    return this.resolveLink(files.map((other) => (other === resolved ? contribution : this.index.get(other))).filter((found): found is FileContribution => found !== undefined));
  }

  private resolveLink(contributions: readonly FileContribution[]): ServiceLink {
    return resolveServiceLink({
      cloudBlocks: contributions.flatMap((contribution) => (contribution.kind === 'terraform' ? contribution.cloudBlocks : [])),
      remoteBackends: contributions.flatMap((contribution) => (contribution.kind === 'terraform' ? contribution.remoteBackends : [])),
      environment: this.environment,
      selectedWorkspace: this.selectedWorkspace,
      override: this.override,
    });
  }

  /** The text the model currently uses for an open document (undefined when the file is not open). */
  openText(pathOrUri: string): string | undefined {
    return this.openDocuments.get(this.toPath(pathOrUri))?.text;
  }

  /** The files open in the editor (absolute paths). */
  openFiles(): string[] {
    return [...this.openDocuments.keys()];
  }

  isOpen(pathOrUri: string): boolean {
    return this.openDocuments.has(this.toPath(pathOrUri));
  }

  /**
   * Every file the model holds something of (absolute paths): indexed, over the size limit, unreadable, and the
   * selected workspace file once read. What a deletion of the folder must take back (DiskWatcher.knownFilesUnder).
   */
  knownFiles(): string[] {
    const files = new Set([...this.index.files(), ...this.closed.largeFiles(), ...this.closed.problems.keys()]);
    if (this.selectedWorkspace) files.add(this.selectedWorkspace.file);
    return [...files];
  }

  /** Files that exist but could not be read, with the reason. */
  fileReadProblems(): FileReadProblem[] {
    return [...this.closed.problems].map(([file, message]) => ({ file, message }));
  }

  /** Whether a path or file URI is one of this folder's model files (by name; it need not exist yet). */
  owns(pathOrUri: string): boolean {
    const file = this.toPath(pathOrUri);
    return file === this.selectedWorkspacePath || this.kindOf(file) !== undefined;
  }

  // ---- internals ----

  private get selectedWorkspacePath(): string {
    return path.join(this.folder, selectedWorkspaceFile);
  }

  private toPath(pathOrUri: string): string {
    return localPathOf(pathOrUri);
  }

  /** Only files directly in the folder: a sub-folder is another module with its own model. */
  private kindOf(file: string): ModelFileKind | undefined {
    return path.dirname(file) === this.folder ? classifyFileName(path.basename(file)) : undefined;
  }

  private async loadFromDisk(file: string): Promise<void> {
    const kind = this.kindOf(file);
    if (!kind || this.openDocuments.has(file) || this.disposed || this.stopped()) return;
    await this.closed.load(file, kind, (contribution) => this.index.replace(file, contribution));
  }

  private async loadSelectedWorkspace(): Promise<void> {
    const file = this.selectedWorkspacePath;
    const generation = this.closed.bump(file);
    const content = await this.closed.readText(file);
    if (this.closed.isLatest(file, generation)) this.selectedWorkspace = content === undefined ? undefined : { name: content.trim(), file };
  }

  /** Where an open document's extraction says what kept it out of the index (or that nothing does any more). */
  private problemsOf(file: string): ReportProblem {
    return (problem) => (problem === undefined ? this.closed.problems.delete(file) : this.closed.problems.set(file, problem));
  }

  private invalidate(files: string[]): void {
    this.cachedLink = undefined;
    const change = { files };
    for (const listener of [...this.listeners]) listener(change);
  }
}

function sameOverride(a: ServiceLinkOverride, b: ServiceLinkOverride): boolean {
  return a.hostname === b.hostname && a.organization === b.organization && a.workspace === b.workspace && a.project === b.project;
}
