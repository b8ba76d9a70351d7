// How a ModuleFolderModel follows the disk: the folder's listing read again with every closed file (many reads under
// way at once), a file changed or deleted on disk, a document the editor closed whose disk content takes over, and
// the workspace `terraform workspace select` chose (.terraform/environment). Apart from the model, which keeps the
// open documents and answers the keystrokes: none of this runs per keystroke, all of it waits on the disk, and every
// read of it is numbered (ClosedFiles.bump) so that a slow one never overwrites what the editor did meanwhile. How one
// closed file is read and parsed is closedFiles.ts: this file makes that reader, and the model holds it too.
import path from 'node:path';
import { ClosedFiles } from './closedFiles';
import { localPathOf } from './filePaths';
import { classifyFileName, kindInFolder } from './fileKinds';
import type { ModelFileSystem } from './fileSystem';
import type { FolderIndex } from './folderIndex';
import type { LinkInputs } from './folderLink';
import type { FileReadProblem, ModuleFolderModelOptions } from './moduleFolderOptions';
import type { OpenDocument } from './openDocument';
import type { TerraformParser } from './terraformParser';

/** How many files are read at once: a pool rather than fixed batches, so reads keep flowing while finished files are parsed. */
const readConcurrency = 32;

/** The model's parts its disk side updates: the same objects, shared. */
export interface DiskUpdatesParts {
  /** Absolute path of the module folder. */
  folder: string;
  /** The path of the selected workspace file (.terraform/environment) in the folder. */
  selectedWorkspacePath: string;
  parser: TerraformParser;
  fileSystem: ModelFileSystem;
  index: FolderIndex;
  /** The documents open in the editor: their text wins over the disk's (closeDocument takes one out). */
  openDocuments: Map<string, OpenDocument>;
  link: LinkInputs;
  /** Tells the model's listeners these files changed (and forgets the resolved link). */
  invalidate(files: string[]): void;
  /** Whether the model was disposed: nobody reads what a file would give. */
  disposed(): boolean;
  /** Whether the server is stopping: a model still loading reads and parses nothing more. */
  stopped(): boolean;
}

export class DiskUpdates {
  /** The path of the selected workspace file: a file of the model's, though not a module file. */
  readonly selectedWorkspacePath: string;
  /** The files read from disk: their reads, their problems, the size limit, and every file's update count. */
  readonly closed: ClosedFiles;

  constructor(options: ModuleFolderModelOptions, private readonly parts: DiskUpdatesParts) {
    this.selectedWorkspacePath = parts.selectedWorkspacePath;
    this.closed = new ClosedFiles({
      folder: parts.folder,
      parser: parts.parser,
      fileSystem: parts.fileSystem,
      maxFileSize: options.maxFileSize ?? Number.POSITIVE_INFINITY,
      onLargeFile: options.onLargeFile?.bind(options) ?? (() => undefined),
      ...(options.offload ? { offload: options.offload.bind(options) } : {}),
      yieldBetweenFiles: options.yieldBetweenFiles ?? false,
      // The background indexer's first load takes its turns last; anything after it is something the user did.
      parsePriority: options.background ? 'background' : 'urgent',
      isOpen: (file) => parts.openDocuments.has(file),
      disposed: parts.disposed,
      stopped: parts.stopped,
    });
  }

  /** Re-reads the folder listing and every file that is not open. */
  async reindex(): Promise<void> {
    const { folder, index, openDocuments } = this.parts;
    const names = await this.parts.fileSystem.listFiles(folder);
    const files = names.filter((name) => classifyFileName(name)).map((name) => path.join(folder, name));
    const listed = new Set(files);
    const gone = index.files().filter((known) => !listed.has(known) && !openDocuments.has(known));
    for (const file of gone) index.replace(file, undefined);
    let next = 0;
    const worker = async () => {
      while (next < files.length) await this.load(files[next++]);
    };
    await Promise.all(Array.from({ length: Math.min(readConcurrency, files.length) }, worker));
    await this.loadSelectedWorkspace();
    this.parts.invalidate([...files, ...gone]);
  }

  /** See ModuleFolderModel.fileChanged. */
  async fileChanged(pathOrUri: string, text?: string): Promise<boolean> {
    const file = localPathOf(pathOrUri);
    const { closed } = this;
    const { index } = this.parts;
    if (file === this.selectedWorkspacePath) {
      const generation = closed.bump(file);
      const content = text ?? (await closed.readText(file));
      if (!closed.isLatest(file, generation)) return true;
      this.parts.link.selectedWorkspace = content === undefined ? undefined : { name: content.trim(), file };
      this.parts.invalidate([file]);
      return true;
    }
    const kind = kindInFolder(this.parts.folder, file);
    if (!kind) return false;
    if (this.parts.openDocuments.has(file)) return true;
    if (text === undefined) {
      await this.load(file);
    } else {
      closed.bump(file);
      index.replace(file, closed.extract(file, kind, text));
    }
    this.parts.invalidate([file]);
    return true;
  }

  /** See ModuleFolderModel.fileDeleted (`file`: an absolute path). */
  fileDeleted(file: string): boolean {
    const { closed } = this;
    if (file === this.selectedWorkspacePath) {
      closed.bump(file);
      this.parts.link.selectedWorkspace = undefined;
      this.parts.invalidate([file]);
      return true;
    }
    if (!kindInFolder(this.parts.folder, file)) return false;
    if (this.parts.openDocuments.has(file)) return true; // the open buffer still holds the text
    closed.bump(file);
    closed.problems.delete(file);
    this.parts.index.replace(file, undefined);
    this.parts.invalidate([file]);
    return true;
  }

  /** See ModuleFolderModel.closeDocument. */
  async closeDocument(pathOrUri: string): Promise<boolean> {
    const file = localPathOf(pathOrUri);
    const open = this.parts.openDocuments.get(file);
    if (!open) return false;
    open.dispose();
    this.parts.openDocuments.delete(file);
    const generation = this.closed.bump(file);
    let disk: string | undefined;
    try {
      disk = await this.parts.fileSystem.readFile(file);
    } catch {
      disk = undefined; // load below reports it
    }
    if (!this.closed.isLatest(file, generation) || this.parts.openDocuments.has(file)) return true;
    // Its facts are the disk's already, unless they still waited for a parse (of the open text, or of changes).
    if (disk !== undefined && disk === open.text && !open.waitsForParse) return true;
    await this.load(file);
    this.parts.invalidate([file]);
    return true;
  }

  /** Reads a model file of the folder from disk into the index, unless it is open or nobody wants it any more. */
  async load(file: string): Promise<void> {
    const kind = kindInFolder(this.parts.folder, file);
    if (!kind || this.parts.openDocuments.has(file) || this.parts.disposed() || this.parts.stopped()) return;
    await this.closed.load(file, kind, (contribution) => this.parts.index.replace(file, contribution));
  }

  private async loadSelectedWorkspace(): Promise<void> {
    const { closed } = this;
    const file = this.selectedWorkspacePath;
    const generation = closed.bump(file);
    const content = await closed.readText(file);
    if (closed.isLatest(file, generation)) this.parts.link.selectedWorkspace = content === undefined ? undefined : { name: content.trim(), file };
  }

  /**
   * Every file the model holds something of (absolute paths): indexed, over the size limit, unreadable, and the
   * selected workspace file once read.
   */
  knownFiles(): string[] {
    const files = new Set([...this.parts.index.files(), ...this.closed.largeFiles(), ...this.closed.problems.keys()]);
    if (this.parts.link.selectedWorkspace) files.add(this.parts.link.selectedWorkspace.file);
    return [...files];
  }

  /** Files that exist but could not be read, with the reason. */
  fileReadProblems(): FileReadProblem[] {
    return [...this.closed.problems].map(([file, message]) => ({ file, message }));
  }
}
