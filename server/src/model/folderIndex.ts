// The folder-wide view over per-file contributions. Replacing one file's contribution touches only the index
// entries of the names that file declares or references, so an edit costs the size of the file, not the folder.
import type { FileContribution, TargetAddress, TfvarsEntry, VariableDeclaration, VariableReference } from './contributions';
import { compareTfvarsLoadOrder } from './fileKinds';
import { comparePositions } from './positions';
import path from 'node:path';

/**
 * What an edit swapped in a file's lists, when the caller knows it (an edit read from one block: its old items out,
 * its new ones in, everything else the same objects): the index updates those items alone, without comparing the
 * lists (25,000 references in 1 MB, ~1 ms per keystroke). `basedOn` is the contribution the swap was made from.
 */
export interface SwappedItems {
  basedOn: FileContribution;
  removed: { variables: readonly VariableDeclaration[]; references: readonly VariableReference[] };
  added: { variables: readonly VariableDeclaration[]; references: readonly VariableReference[] };
}

/** How many changed names the journal keeps (a full index of 1,000 files adds ~7,000; a keystroke one or two). */
const maxJournalLength = 16_384;

export class FolderIndex {
  private readonly contributions = new Map<string, FileContribution>();
  private readonly variablesByName = new Map<string, VariableDeclaration[]>();
  private readonly referencesByName = new Map<string, VariableReference[]>();
  /**
   * The names whose references changed, oldest first (a name appears once per change): completion ranks 2,000
   * variables by use on every keystroke, and asks which names changed since its last ranking instead of counting
   * every name's references again. Bounded: the oldest half goes when it is full, and a reader whose position went
   * with it counts everything again.
   */
  private readonly referenceJournal: string[] = [];
  private referenceJournalDropped = 0;

  /** Sets (or with undefined, removes) a file's contribution; `swapped` says what changed, when the caller knows. */
  replace(file: string, next: FileContribution | undefined, swapped?: SwappedItems): void {
    const previous = this.contributions.get(file);
    if (next) this.contributions.set(file, next);
    else this.contributions.delete(file);
    // Made from what the index holds (not from a contribution it has since replaced): only those items changed.
    if (swapped && previous && swapped.basedOn === previous && next?.kind === 'terraform') {
      moveItems(this.variablesByName, swapped.removed.variables, swapped.added.variables);
      moveItems(this.referencesByName, swapped.removed.references, swapped.added.references, this.journalReferences);
      return;
    }
    const before = previous?.kind === 'terraform' ? previous : undefined;
    const after = next?.kind === 'terraform' ? next : undefined;
    replaceItems(this.variablesByName, before?.variables ?? [], after?.variables ?? []);
    replaceItems(this.referencesByName, before?.references ?? [], after?.references ?? [], this.journalReferences);
  }

  /** Where the journal of reference changes stands now: pass it to referenceNamesChangedSince later. */
  get referenceCursor(): number {
    return this.referenceJournalDropped + this.referenceJournal.length;
  }

  /**
   * The names whose references changed since `cursor` (duplicates possible), or undefined when that part of the
   * journal was dropped: the caller then counts every name again.
   */
  referenceNamesChangedSince(cursor: number): readonly string[] | undefined {
    if (cursor < this.referenceJournalDropped || cursor > this.referenceCursor) return undefined;
    return this.referenceJournal.slice(cursor - this.referenceJournalDropped);
  }

  private readonly journalReferences = (name: string): void => {
    if (this.referenceJournal.length >= maxJournalLength) {
      const dropped = this.referenceJournal.length >> 1;
      this.referenceJournal.splice(0, dropped);
      this.referenceJournalDropped += dropped;
    }
    this.referenceJournal.push(name);
  };

  get(file: string): FileContribution | undefined {
    return this.contributions.get(file);
  }

  files(): string[] {
    return [...this.contributions.keys()].sort();
  }

  all(): FileContribution[] {
    return this.files().map((file) => this.contributions.get(file) as FileContribution);
  }

  /** Every declaration of a name (more than one is a Terraform error the diagnostics can report). */
  declarationsOf(name: string): readonly VariableDeclaration[] {
    return this.variablesByName.get(name) ?? [];
  }

  variableNames(): string[] {
    return [...this.variablesByName.keys()].sort();
  }

  /** All declarations, one per name (the first by file, then position), sorted by name. */
  variables(): VariableDeclaration[] {
    return this.variableNames().map((name) => firstDeclaration(this.variablesByName.get(name) as VariableDeclaration[]));
  }

  referencesTo(name: string): readonly VariableReference[] {
    return this.referencesByName.get(name) ?? [];
  }

  /** References (with a name) to variables no file declares. */
  undeclaredReferences(): VariableReference[] {
    const undeclared: VariableReference[] = [];
    for (const [name, references] of this.referencesByName) {
      if (name !== '' && !this.variablesByName.has(name)) undeclared.push(...references);
    }
    return undeclared;
  }

  addresses(): TargetAddress[] {
    return this.all().flatMap((contribution) => (contribution.kind === 'terraform' ? contribution.addresses : []));
  }

  /** Auto-loaded tfvars entries in Terraform's load order (later entries win). */
  autoLoadedTfvarsEntries(): TfvarsEntry[] {
    return this.all()
      .filter((contribution) => contribution.kind === 'tfvars' && contribution.autoLoaded)
      .sort((a, b) => compareTfvarsLoadOrder(path.basename(a.file), path.basename(b.file)))
      .flatMap((contribution) => (contribution.kind === 'tfvars' ? contribution.entries : []));
  }

  /** The auto-loaded value Terraform would use for a key, if any tfvars file sets it. */
  effectiveTfvarsEntry(key: string): TfvarsEntry | undefined {
    return this.effectiveTfvarsEntries().get(key);
  }

  /** For every key set by an auto-loaded tfvars file, the entry that wins (for whole-folder diagnostics). */
  effectiveTfvarsEntries(): Map<string, TfvarsEntry> {
    const winners = new Map<string, TfvarsEntry>();
    for (const entry of this.autoLoadedTfvarsEntries()) winners.set(entry.key, entry);
    return winners;
  }
}

/**
 * Swaps one file's items in a by-name index. An open file's re-extraction keeps the objects of the blocks nobody
 * touched, so only the items that really changed are removed and added: a keystroke in a 1 MB file costs its
 * block, not the file's 20,000 references.
 */
function replaceItems<T extends { name: string }>(index: Map<string, T[]>, previous: readonly T[], next: readonly T[], changed?: (name: string) => void): void {
  if (previous.length === 0 && next.length === 0) return;
  // Items keep their order, so what changed is the middle between an identical start and an identical end.
  let head = 0;
  while (head < previous.length && head < next.length && previous[head] === next[head]) head++;
  let tail = 0;
  while (tail < previous.length - head && tail < next.length - head && previous[previous.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  let removed = previous.slice(head, previous.length - tail);
  let added = next.slice(head, next.length - tail);
  if (removed.length > 0 && added.length > 0) {
    // An object can also move within the middle (a block reused after a re-read one): keep it where it is.
    const inAdded = new Set(added);
    const inRemoved = new Set(removed);
    removed = removed.filter((item) => !inAdded.has(item));
    added = added.filter((item) => !inRemoved.has(item));
  }
  moveItems(index, removed, added, changed);
}

/** Takes `removed` out of a by-name index and puts `added` in (no item is in both); `changed` hears each name touched. */
function moveItems<T extends { name: string }>(index: Map<string, T[]>, removed: readonly T[], added: readonly T[], changed?: (name: string) => void): void {
  if (removed.length > 0) {
    const gone = new Set(removed);
    for (const name of new Set(removed.map((item) => item.name))) {
      changed?.(name);
      const remaining = (index.get(name) ?? []).filter((item) => !gone.has(item));
      if (remaining.length > 0) index.set(name, remaining);
      else index.delete(name);
    }
  }
  addAll(index, added);
  if (changed) for (const item of added) changed(item.name);
}

function addAll<T extends { name: string }>(index: Map<string, T[]>, items: readonly T[]): void {
  for (const item of items) {
    const list = index.get(item.name);
    if (list) list.push(item);
    else index.set(item.name, [item]);
  }
}

/**
 * The declaration that counts when a name is declared more than once (a Terraform error the diagnostics report):
 * the first by file, then by position. Not the first in the by-name list, whose order follows the edits (an edited
 * block's items are added at the end), which made hover and completion switch to the other one after an edit.
 */
function firstDeclaration(declarations: VariableDeclaration[]): VariableDeclaration {
  return declarations.reduce((first, candidate) =>
    candidate.file < first.file || (candidate.file === first.file && comparePositions(candidate.range.start, first.range.start) < 0) ? candidate : first,
  );
}
