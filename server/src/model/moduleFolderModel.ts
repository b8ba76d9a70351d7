// The code model of one Terraform module folder: what its .tf and tfvars files declare and reference, and which
// service workspace it is linked to. Files come from disk unless open in the editor (open text wins). The LSP
// layer feeds it: openDocument/changeDocument/closeDocument for editor buffers, fileChanged/fileDeleted from
// file watching. Only the changed file is re-parsed and re-extracted. This file keeps the folder-wide side (which
// files are open, the index, the link) and the editor's documents; what the model is made from is
// moduleFolderOptions.ts, how it follows the disk diskUpdates.ts (how a closed file is read closedFiles.ts), how an
// open document's edits become facts openDocument.ts, and how the link is resolved folderLink.ts.
import path from 'node:path';
import type { TextChange } from './documentEdits';
import { kindInFolder, selectedWorkspaceFile } from './fileKinds';
import { nodeFileSystem } from './fileSystem';
import { FolderIndex } from './folderIndex';
import type { ServiceLink, ServiceLinkOverride } from './serviceLink';
import type { SliceControl, TerraformParser } from './terraformParser';
import { localPathOf } from './filePaths';
import type { FileContribution } from './contributions';
import type { ClosedFiles } from './closedFiles';
import { DiskUpdates } from './diskUpdates';
import { resolveFolderLink, resolveFolderLinkWith, sameOverride } from './folderLink';
import type { LinkInputs } from './folderLink';
import type { FileReadProblem, ModelChange, ModuleFolderModelOptions } from './moduleFolderOptions';
import { OpenDocument } from './openDocument';
import type { ChangeOptions, ReportProblem } from './openDocument';

export class ModuleFolderModel {
  readonly folder: string;
  /** Folder-wide queries: variables, references, addresses, tfvars entries, per-file contributions. */
  readonly index = new FolderIndex();
  private readonly parser: TerraformParser;
  /** The environment, the override and the selected workspace: with the folder's code, what makes its link. */
  private readonly link: LinkInputs;
  private readonly openDocuments = new Map<string, OpenDocument>();
  /** The files read from disk (the disk side's): their reads, their problems, the size limit, every file's update count. */
  private readonly closed: ClosedFiles;
  /** The folder's listing, files changed on disk, closed documents and the selected workspace file. */
  private readonly disk: DiskUpdates;
  private cachedLink: ServiceLink | undefined;
  private readonly listeners = new Set<(change: ModelChange) => void>();
  /** Set by dispose: files still being read or extracted are not parsed (nobody reads this model any more). */
  private disposed = false;

  private constructor(options: ModuleFolderModelOptions) {
    this.folder = path.resolve(options.folder);
    this.parser = options.parser;
    this.link = { environment: options.environment ?? {}, override: options.override ?? {}, selectedWorkspace: undefined };
    this.stopped = options.stopped ?? (() => false);
    this.parseOpenedInSlicesFrom = options.parseOpenedInSlicesFrom ?? Number.POSITIVE_INFINITY;
    this.isolateBrokenBlocksFrom = options.isolateBrokenBlocksFrom ?? Number.POSITIVE_INFINITY;
    this.disk = new DiskUpdates(options, {
      folder: this.folder,
      selectedWorkspacePath: path.join(this.folder, selectedWorkspaceFile),
      parser: this.parser,
      fileSystem: options.fileSystem ?? nodeFileSystem,
      index: this.index,
      openDocuments: this.openDocuments,
      link: this.link,
      invalidate: (files) => this.invalidate(files),
      disposed: () => this.disposed,
      stopped: this.stopped,
    });
    // The disk side's reader, held here too: a keystroke bumps the file's update count and checks its size.
    this.closed = this.disk.closed;
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
  reindex(): Promise<void> {
    return this.disk.reindex();
  }

  // ---- updates ----

  /**
   * A file changed on disk. With `text`, that is its new content; without, it is read from disk. Ignored while
   * the file is open in the editor (the editor's text wins). Returns whether the file belongs to this model.
   */
  fileChanged(pathOrUri: string, text?: string): Promise<boolean> {
    return this.disk.fileChanged(pathOrUri, text);
  }

  fileDeleted(pathOrUri: string): boolean {
    return this.disk.fileDeleted(this.toPath(pathOrUri));
  }

  /**
   * The editor opened the file: its text takes over from the disk's. 'deferred' when the document is large enough to
   * be parsed in slices (see ModuleFolderModelOptions.parseOpenedInSlicesFrom): it waits for parsePendingInSlices.
   */
  openDocument(pathOrUri: string, text: string): boolean | 'deferred' {
    const file = this.toPath(pathOrUri);
    const kind = kindInFolder(this.folder, file);
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
    const open = kindInFolder(this.folder, file) ? this.openDocuments.get(file) : undefined;
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
    const open = kindInFolder(this.folder, file) ? this.openDocuments.get(file) : undefined;
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
    const open = kindInFolder(this.folder, file) ? this.openDocuments.get(file) : undefined;
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
  closeDocument(pathOrUri: string): Promise<boolean> {
    return this.disk.closeDocument(pathOrUri);
  }

  setEnvironment(environment: Readonly<Record<string, string | undefined>>): void {
    this.link.environment = environment;
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
        await this.disk.load(file); // over the limit still: it stays a large file, told no more
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
    if (sameOverride(this.link.override, override)) return;
    this.link.override = override;
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
    this.cachedLink ??= resolveFolderLink(this.index.all(), this.link);
    return this.cachedLink;
  }

  /**
   * The link as it would be were `file` to contribute `contribution` instead (completion in a half-typed cloud
   * block reads the block from its text with the string closed; the index holds the broken file without it).
   */
  serviceLinkWith(file: string, contribution: FileContribution): ServiceLink {
    return resolveFolderLinkWith(this.index, this.toPath(file), contribution, this.link);
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
    return this.disk.knownFiles();
  }

  /** Files that exist but could not be read, with the reason. */
  fileReadProblems(): FileReadProblem[] {
    return this.disk.fileReadProblems();
  }

  /** Whether a path or file URI is one of this folder's model files (by name; it need not exist yet). */
  owns(pathOrUri: string): boolean {
    const file = this.toPath(pathOrUri);
    return file === this.disk.selectedWorkspacePath || kindInFolder(this.folder, file) !== undefined;
  }

  // ---- internals ----

  private toPath(pathOrUri: string): string {
    return localPathOf(pathOrUri);
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
