// One document open in the editor, as a folder's model keeps it: its text, its syntax tree (kept for incremental
// re-parsing), the pieces already extracted from it, and the changes still waiting for a whole-file parse. This
// file owns how a document's text becomes facts, edit by edit; ModuleFolderModel owns the folder-wide side (the
// index the facts go into, the size limit, which file changed, the disk).
import type { Tree } from 'web-tree-sitter';
import type { FileContribution } from './contributions';
import { applyTextChanges } from './documentEdits';
import type { ChangeOffsets, TextChange } from './documentEdits';
import { describeError } from './fileExtraction';
import type { SwappedItems } from './folderIndex';
import type { ModelFileKind } from './fileKinds';
import { IncrementalTerraformExtractor } from './incrementalTerraformFile';
import type { BlockEditResult } from './incrementalTerraformFile';
import type { EditSpan } from './editWindow';
import { pointsAfterLineStart, TreeSitterPoints } from './positions';
import type { SliceControl, TerraformParser } from './terraformParser';
import type { RegionParser } from './terraformFile';
import { allSteps, stepsInSlices } from './steps';
import type { Steps } from './steps';
import { extractTfvarsFile } from './tfvarsFile';
import path from 'node:path';

/** Told what kept the file out of the index (a failure to extract it), or undefined once it was read again. */
export type ReportProblem = (problem: string | undefined) => void;

/** What the changes waiting for a parse left alone: the first `prefix` and last `suffix` characters. */
interface PendingParse extends EditSpan {
  /** False once a change replaced the whole text: the old tree is of no use. */
  reusable: boolean;
  /** Every change since the last whole-file parse was read from its block (unverified): the facts follow the text. */
  blockwise: boolean;
}

/** What a change did to the document's facts (see OpenDocument.change). */
export type ChangeOutcome =
  /** The text went over the size limit: no tree, no facts. */
  | { kind: 'too-large' }
  /**
   * Read from the edited block alone; `exact` unless a whole-file parse still has to confirm it. `isolated`: a
   * region read alone still holds a syntax error, and that parse waits until it is repaired (see `isolateFrom`).
   */
  | { kind: 'block'; contribution: FileContribution; exact: boolean; swapped?: SwappedItems; isolated?: boolean }
  /** The whole file was parsed again. */
  | { kind: 'parsed'; contribution: FileContribution | undefined }
  /** The whole-file parse the change needs waits for `parsePending` (the caller asked for that). */
  | { kind: 'deferred' };

export interface ChangeOptions {
  /** Where each change falls, when the caller knows (documentEdits.ts ChangeOffsets). */
  offsets?: readonly (ChangeOffsets | undefined)[];
  /** See ModuleFolderModel.changeDocument. */
  deferWholeParse?: boolean;
}

export class OpenDocument {
  private tree: Tree | undefined;
  private readonly extractor: IncrementalTerraformExtractor | undefined;
  /** Changes in `text` (and edited into `tree`) that wait for a whole-file parse (see ChangeOptions.deferWholeParse). */
  private unparsed: PendingParse | undefined;

  private constructor(
    private readonly parser: TerraformParser,
    private readonly file: string,
    private readonly kind: ModelFileKind,
    public text: string,
    private readonly report: ReportProblem,
    /**
     * From this many characters on, the document is read region by region while it is broken (isolatedRegions.ts):
     * an edit that breaks its block, and a whole-file parse that finds the file broken.
     */
    private readonly isolateFrom: number,
  ) {
    this.extractor = kind.kind === 'terraform' ? new IncrementalTerraformExtractor(file) : undefined;
  }

  /** Opened and parsed: the document and its facts (undefined when extracting them failed; that is reported). */
  static parsed(parser: TerraformParser, file: string, kind: ModelFileKind, text: string, report: ReportProblem, isolateFrom = Infinity): { document: OpenDocument; contribution: FileContribution | undefined } {
    const document = new OpenDocument(parser, file, kind, text, report, isolateFrom);
    document.tree = parser.parse(text);
    return { document, contribution: allSteps(document.extractTree(document.tree, text)) };
  }

  /**
   * Opened, its parse left for parseWholeInSlices (or parseWhole): a large document, whose parse at once would hold
   * up every request meanwhile (1.1-1.3 s for 1 MB). No facts until then.
   */
  static unparsed(parser: TerraformParser, file: string, kind: ModelFileKind, text: string, report: ReportProblem, isolateFrom = Infinity): OpenDocument {
    const document = new OpenDocument(parser, file, kind, text, report, isolateFrom);
    document.unparsed = { prefix: 0, suffix: 0, reusable: false, blockwise: false };
    document.unread = true;
    return document;
  }

  /** Opened unparsed, and not read yet: the folder has none of its facts (not even an older text's). */
  get awaitsFirstRead(): boolean {
    return this.unread;
  }

  private unread = false;

  /** Opened over the size limit: kept as text only (no analysis, so nothing to re-parse incrementally). */
  static textOnly(parser: TerraformParser, file: string, kind: ModelFileKind, text: string, report: ReportProblem, isolateFrom = Infinity): OpenDocument {
    return new OpenDocument(parser, file, kind, text, report, isolateFrom);
  }

  /** Whether changes wait for a whole-file parse (parsePending would parse). */
  get waitsForParse(): boolean {
    return this.unparsed !== undefined;
  }

  /** Characters of text the kept tree was parsed from (0 without a tree): what the parser's memory must hold. */
  get treeTextLength(): number {
    return this.tree ? this.text.length : 0;
  }

  /**
   * Applies LSP content changes; ranged changes re-parse incrementally from the previous tree. `resultText` (the text
   * the changes make, when the caller holds it) is kept instead of a copy of our own. `tooLarge` says whether a text
   * is over the size limit.
   */
  change(changes: readonly TextChange[], resultText: string | undefined, options: ChangeOptions, tooLarge: (text: string) => boolean): ChangeOutcome {
    // A tree of a runtime a recycle replaced (its re-parse in slices is not done yet, or the model was still loading,
    // so the recycle did not reach it): let go, or it would keep the old runtime's whole memory alive for as long as
    // the edits stay in one block. The change then waits for a whole-file parse, in slices with deferWholeParse
    // (parsing it again at once took 0.3-1.5 s for 1 MB, on a keystroke).
    if (this.tree && !this.parser.owns(this.tree)) {
      this.tree.delete();
      this.tree = undefined;
    }
    // A document kept as text only (over the size limit) has no tree to tell where the changes went: with the
    // caller's text there is nothing to locate (160,000 lines of a 4 MB file per keystroke otherwise).
    const applied = !this.tree && resultText !== undefined ? undefined : applyTextChanges(this.text, this.tree, changes, options.offsets);
    const text = resultText !== undefined && (applied === undefined || resultText.length === applied.text.length) ? resultText : (applied?.text ?? this.text);
    if (tooLarge(text)) {
      this.tree?.delete();
      this.tree = undefined;
      this.text = text;
      this.unparsed = undefined;
      this.unread = false; // text only: there are no facts to wait for
      this.extractor?.reset();
      return { kind: 'too-large' };
    }
    // An edit inside one block: that block alone is parsed. The file's tree is not re-parsed but keeps the edit
    // (tree.edit above), so the next whole-file parse still re-uses it. With `deferWholeParse` a broken block is read
    // alone too, and the whole-file parse that checks it waits for parsePending.
    const blockwise = !this.unparsed || this.unparsed.blockwise;
    if (blockwise && applied?.reusableTree && this.tree && this.extractor) {
      const deferred = options.deferWholeParse === true;
      const isolate = deferred && text.length >= this.isolateFrom;
      const read = this.extractBlockEdit(this.extractor, text, { prefix: applied.prefix, suffix: applied.suffix }, deferred, isolate);
      if (read) {
        this.text = text;
        const exact = read.exact && !this.unparsed;
        if (!exact) this.unparsed = pendingAfter(this.unparsed, applied, true);
        return { kind: 'block', contribution: read.contribution, exact, isolated: read.isolated, ...(read.swapped ? { swapped: read.swapped } : {}) };
      }
    }
    this.unparsed = pendingAfter(this.unparsed, applied, false);
    this.text = text;
    if (options.deferWholeParse) return { kind: 'deferred' };
    return { kind: 'parsed', contribution: this.parseWhole() };
  }

  /** Parses the whole text again (re-using the tree where the waiting changes allow), and extracts what changed. */
  parseWhole(): FileContribution | undefined {
    const pending = this.unparsed;
    const reuse = this.reusesTree(pending);
    return allSteps(this.takeTree(this.parser.parse(this.text, reuse ? this.tree : undefined), pending, reuse));
  }

  /**
   * parseWhole with the parse in slices (TerraformParser.parseInSlices), the event loop free between them:
   * 'stopped' when the parse stopped before its end (the changes still wait for one), else the facts. The caller
   * keeps every other change to this document out until it resolves (the folder's queue).
   */
  async parseWholeInSlices(control: SliceControl): Promise<{ contribution: FileContribution | undefined } | 'stopped'> {
    const pending = this.unparsed;
    const text = this.text;
    const reuse = this.reusesTree(pending);
    const tree = await this.parser.parseInSlices(text, reuse ? this.tree : undefined, control);
    if (!tree) return 'stopped';
    if (this.text !== text || this.unparsed !== pending || (reuse && !this.tree)) {
      tree.delete(); // changed meanwhile after all: what was parsed is no longer the document
      return 'stopped';
    }
    // Read in slices too: reading the tree of a large broken file takes as long as parsing it.
    return { contribution: await stepsInSlices(this.takeTree(tree, pending, reuse), control.pause) };
  }

  /** Back under the limit (or never over it): a tree to re-use when there is one, a fresh parse otherwise. */
  private reusesTree(pending: PendingParse | undefined): boolean {
    return pending?.reusable !== false && this.tree !== undefined;
  }

  /**
   * Keeps `tree`, a whole-file parse of the text, instead of the old one, and extracts what changed. In steps, the
   * caller keeping every change to the document out until the last one.
   */
  private *takeTree(tree: Tree, pending: PendingParse | undefined, reuse: boolean): Steps<FileContribution | undefined> {
    this.unparsed = undefined;
    const text = this.text;
    const prefix = Math.min(pending?.prefix ?? 0, text.length);
    const edit = reuse && pending ? { prefix, suffix: Math.min(pending.suffix, text.length - prefix) } : undefined;
    if (!reuse) this.extractor?.reset();
    try {
      const contribution = yield* this.extractTree(tree, text, edit);
      this.unread = false;
      return contribution;
    } finally {
      if (this.disposed) tree.delete(); // closed, or its folder removed, between two steps
      else if (this.parser.owns(tree)) {
        this.tree?.delete();
        this.tree = tree;
      } else {
        // A recycle came between two steps. The tree it re-parsed from this same text in the fresh runtime, if there
        // was one to re-parse, is kept; without one, the next change parses the whole file (in slices) afresh.
        // Keeping this one would keep the old runtime's whole memory, and the next keystroke would parse it again
        // at once.
        tree.delete();
        if (this.tree && !this.parser.owns(this.tree)) {
          this.tree.delete();
          this.tree = undefined;
        }
      }
    }
  }

  /**
   * Parses the kept tree afresh, a slice at a time (the event loop free between slices: a 1 MB file takes 0.3-1.5 s),
   * and deletes the old one: after TerraformParser.recycle the old tree belongs to the runtime being let go. The
   * text is the same, so the facts are too: nothing is extracted again. A tree that waits for a whole-file parse
   * matches its text now, which that parse re-uses. A change that comes meanwhile lets the old tree go itself (see
   * change): this parse is then of no use, and stops.
   */
  async reparseInSlices(): Promise<void> {
    const old = this.tree;
    if (!old || this.parser.owns(old)) return;
    const text = this.text;
    const outdated = () => this.tree !== old || this.text !== text || this.disposed;
    const tree = await this.parser.parseInSlices(text, undefined, { cancelled: outdated });
    if (!tree) return;
    if (outdated()) {
      tree.delete();
      return;
    }
    old.delete();
    this.tree = tree;
  }

  /** Frees the syntax tree (it lives in WebAssembly memory). */
  dispose(): void {
    this.disposed = true;
    this.tree?.delete();
    this.tree = undefined;
  }

  private disposed = false;

  /**
   * A failure to index the file (a bug meeting unexpected input) must not take the folder or the server down: the
   * file is left out and reported like an unreadable one.
   */
  private *extractTree(tree: Tree, text: string, edit?: EditSpan): Steps<FileContribution | undefined> {
    try {
      // Every .tf document has its extractor (the constructor makes one for each, over the size limit too).
      const contribution =
        this.kind.kind === 'tfvars'
          ? extractTfvarsFile(tree, this.file, this.kind.format, this.kind.autoLoaded)
          : yield* (this.extractor as IncrementalTerraformExtractor).extractSteps(tree, text, this.regionParser(text), edit, text.length >= this.isolateFrom);
      this.report(undefined);
      return contribution;
    } catch (error) {
      this.extractor?.reset();
      this.report(`Cannot index ${path.basename(this.file)}: ${describeError(error)}`);
      return undefined;
    }
  }

  private extractBlockEdit(extractor: IncrementalTerraformExtractor, text: string, edit: EditSpan, unverified: boolean, isolate: boolean): BlockEditResult | undefined {
    try {
      const read = extractor.extractBlockEdit(text, edit, (start, end, startRow) => this.parser.parseRegion(text, start, end, pointsAfterLineStart(text, start, startRow)), unverified, isolate);
      if (read) this.report(undefined);
      return read;
    } catch {
      extractor.reset(); // the whole-file way reads everything again
      return undefined;
    }
  }

  /** Region parses of one text share its line-break index (built only if a region is actually parsed). */
  private regionParser(text: string): RegionParser {
    let points: TreeSitterPoints | undefined;
    return (start, end) => this.parser.parseRegion(text, start, end, (points ??= new TreeSitterPoints(text)));
  }
}

/** The changes waiting for a whole-file parse, with one more (`blockwise`: read from its block already). */
function pendingAfter(previous: PendingParse | undefined, applied: { prefix: number; suffix: number; reusableTree: boolean } | undefined, blockwise: boolean): PendingParse {
  return {
    prefix: Math.min(previous?.prefix ?? Infinity, applied?.prefix ?? 0),
    suffix: Math.min(previous?.suffix ?? Infinity, applied?.suffix ?? 0),
    reusable: (previous?.reusable ?? true) && applied?.reusableTree === true,
    blockwise: (previous?.blockwise ?? true) && blockwise,
  };
}
