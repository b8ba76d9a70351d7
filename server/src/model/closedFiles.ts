// How a module folder's closed files become facts: read from disk, then parsed on this thread (one file per turn of
// the event loop, a large one in slices) or by an indexing worker, with the reason a file was kept out (unreadable,
// unparsable, over the size limit). ModuleFolderModel decides which files are closed and keeps the index (its disk
// side, diskUpdates.ts, makes this reader); this file reads them, and numbers every update of a file so that a slow
// read never overwrites newer content.
import path from 'node:path';
import type { FileContribution } from './contributions';
import { describeError, extractFileText, extractFileTextInSlices } from './fileExtraction';
import type { FileExtraction } from './fileExtraction';
import type { ModelFileKind } from './fileKinds';
import type { ModelFileSystem } from './fileSystem';
import { holdingParseTurns, nextParseTurn } from './parseTurns';
import type { ParsePriority } from './parseTurns';
import type { TerraformParser } from './terraformParser';

/**
 * A closed file at least this long, read on the server's thread (not in an indexing worker), is parsed in slices and
 * read in steps: parsed at once it holds the requests up for 20 ms or more (a 160 KB file of 2,000 variables, 0.3 s).
 */
export const slicedReadLength = 32 * 1024;

export interface ClosedFilesOptions {
  folder: string;
  parser: TerraformParser;
  fileSystem: ModelFileSystem;
  /** Past this many characters a file is not parsed (see ModuleFolderModelOptions.maxFileSize). */
  maxFileSize: number;
  onLargeFile(file: string, size: number): void;
  /** See ModuleFolderModelOptions.offload. */
  offload?(file: string, kind: ModelFileKind, text: string): Promise<FileExtraction | undefined> | undefined;
  /** Parse one file per turn of the event loop (see ModuleFolderModelOptions.yieldBetweenFiles). */
  yieldBetweenFiles: boolean;
  parsePriority: ParsePriority;
  /** Whether the file is open in the editor now: its text is the editor's, and a read from disk is dropped. */
  isOpen(file: string): boolean;
  /** Whether the model was disposed: nobody reads what a file would give. */
  disposed(): boolean;
  /** Whether the server is stopping: nothing more is parsed. */
  stopped(): boolean;
}

/**
 * Where a read's facts go (undefined: the file has none, e.g. unreadable or over the limit). Called in the same turn as
 * the read's last check that nothing newer came (an open, a change, a newer read), so nothing can come in between.
 */
export type ApplyFacts = (contribution: FileContribution | undefined) => void;

export class ClosedFiles {
  /** Files that exist but could not be read or parsed, with the reason (what the Problems view shows). */
  readonly problems = new Map<string, string>();
  /** The priority of the parse turns its files take (the background indexer's first load goes last). */
  parsePriority: ParsePriority;
  /** The size limit, for what is read or edited from now on. */
  maxFileSize: number;
  /** Bumped on every update of a file, so a slow disk read cannot overwrite newer content. */
  private readonly generations = new Map<string, number>();
  private readonly tooLargeFiles = new Set<string>();

  constructor(private readonly options: ClosedFilesOptions) {
    this.parsePriority = options.parsePriority;
    this.maxFileSize = options.maxFileSize;
  }

  /** A new update of `file` begins: what is still under way for an older one is dropped when it ends. */
  bump(file: string): number {
    const generation = (this.generations.get(file) ?? 0) + 1;
    this.generations.set(file, generation);
    return generation;
  }

  /** Whether `generation` is still the newest update of `file`. */
  isLatest(file: string, generation: number): boolean {
    return this.generations.get(file) === generation;
  }

  /** Files over the size limit, which get no analysis (absolute paths). */
  largeFiles(): string[] {
    return [...this.tooLargeFiles];
  }

  /** Whether `text` is over the limit; tells onLargeFile the first time a file crosses it. */
  tooLarge(file: string, text: string): boolean {
    if (text.length <= this.maxFileSize) {
      this.tooLargeFiles.delete(file);
      return false;
    }
    if (!this.tooLargeFiles.has(file)) {
      this.tooLargeFiles.add(file);
      this.problems.delete(file);
      this.options.onLargeFile(file, text.length);
    }
    return true;
  }

  /** Reads `file` from disk and extracts its facts, as a new update of it; `apply` gets them unless newer content won. */
  async load(file: string, kind: ModelFileKind, apply: ApplyFacts): Promise<void> {
    const { isOpen, disposed, stopped } = this.options;
    const generation = this.bump(file);
    let text: string | undefined;
    try {
      text = await this.options.fileSystem.readFile(file);
    } catch (error) {
      if (!this.isLatest(file, generation)) return;
      this.problems.set(file, `Cannot read ${path.basename(file)}: ${describeError(error)}`);
      apply(undefined);
      return;
    }
    // Opened or changed while we were reading: the newer content is already in place.
    if (!this.isLatest(file, generation) || isOpen(file) || disposed()) return;
    if (text === undefined) {
      this.problems.delete(file);
      apply(undefined);
      return;
    }
    const offloaded = !this.tooLarge(file, text) ? this.options.offload?.(file, kind, text) : undefined;
    if (offloaded) {
      // Parsed in an indexing worker (a large file): this thread stays free for requests meanwhile. A worker that
      // fails (crashed, missing) leaves the file to this thread, unless the model was disposed meanwhile (at shutdown
      // that parse would cost seconds of CPU for nothing).
      const extraction = await offloaded.catch(() => (disposed() ? undefined : extractFileText(this.options.parser, file, kind, text)));
      if (extraction === undefined || disposed() || !this.isLatest(file, generation) || isOpen(file)) return;
      apply(this.settle(file, extraction));
      return;
    }
    if (this.options.yieldBetweenFiles) {
      const wanted = () => this.isLatest(file, generation) && !isOpen(file) && !disposed() && !stopped();
      if (text.length >= slicedReadLength && !this.tooLarge(file, text)) {
        // A file this large is parsed in slices and read in steps, the requests answered between them, and no other
        // file's parse starts meanwhile.
        const extraction = await holdingParseTurns(this.parsePriority, async () =>
          wanted() ? extractFileTextInSlices(this.options.parser, file, kind, text, () => !wanted()) : undefined,
        );
        if (extraction && wanted()) apply(this.settle(file, extraction));
        return;
      }
      // One file per turn of the event loop, across every folder (parseTurns.ts).
      await nextParseTurn(this.parsePriority);
      if (!wanted()) return;
    }
    apply(this.extract(file, kind, text));
  }

  /** Reads a file's text from disk, recording why it could not be (undefined: it does not exist, or that). */
  async readText(file: string): Promise<string | undefined> {
    try {
      const text = await this.options.fileSystem.readFile(file);
      this.problems.delete(file);
      return text;
    } catch (error) {
      this.problems.set(file, `Cannot read ${path.relative(this.options.folder, file)}: ${describeError(error)}`);
      return undefined;
    }
  }

  /** Parses text that is not kept open: the tree is freed right after extraction to keep memory flat. */
  extract(file: string, kind: ModelFileKind, text: string): FileContribution | undefined {
    if (this.tooLarge(file, text)) return undefined;
    return this.settle(file, extractFileText(this.options.parser, file, kind, text));
  }

  /** Records what an extraction found: the facts, or the problem that kept the file out. */
  private settle(file: string, extraction: FileExtraction): FileContribution | undefined {
    if (extraction.problem !== undefined) this.problems.set(file, extraction.problem);
    else this.problems.delete(file);
    return extraction.contribution;
  }
}
