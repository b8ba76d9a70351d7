// What one top-level piece of a .tf file (a block, an attribute, an ERROR node) contributes, and the file's lists
// made from its pieces in order: built whole (append), or with one piece swapped (spliceBlock), which is what a
// keystroke in a 1 MB file costs. Used by incrementalTerraformFile.ts.
import type { MovedBlock, TargetAddress, TerraformFileContribution } from './contributions';
import { moveReference, movedReference } from './references';
import type { Range } from './positions';

export type Facts = Omit<TerraformFileContribution, 'kind' | 'file' | 'syntaxProblems' | 'moved'> & { moved: MovedBlock[]; blockCount: number };

export function emptyContribution(file: string, syntaxProblems: TerraformFileContribution['syntaxProblems']): TerraformFileContribution {
  return { kind: 'terraform', file, variables: [], references: [], addresses: [], moved: [], cloudBlocks: [], remoteBackends: [], syntaxProblems };
}

export function append(into: TerraformFileContribution, all: Facts[]): TerraformFileContribution {
  // Runs over every block of the file (6,000 in 1 MB): plain index loops, no iterator per (mostly empty) list.
  into.variables = concatLists(into.variables, all, (facts) => facts.variables);
  into.addresses = concatLists(into.addresses, all, (facts) => facts.addresses);
  into.moved = concatLists(into.moved ?? [], all, (facts) => facts.moved);
  into.cloudBlocks = concatLists(into.cloudBlocks, all, (facts) => facts.cloudBlocks);
  into.remoteBackends = concatLists(into.remoteBackends, all, (facts) => facts.remoteBackends);
  into.references = concatLists(into.references, all, (facts) => facts.references);
  return into;
}

/**
 * `last`'s lists (those of `entries` in order) with piece `index`'s items (`before`) replaced by `after`'s, and the
 * items of the pieces after it moved by `rowDelta` lines, in place (the pieces share those objects).
 */
export function spliceBlock(file: string, last: TerraformFileContribution, entries: readonly { facts: Facts }[], index: number, before: Facts, after: Facts, rowDelta: number): TerraformFileContribution {
  // Where the piece's items start in each list: one pass over the pieces before it (3,000 in the middle of 1 MB),
  // not one per list through a callback, which cost ~1.5 ms per keystroke there.
  let variables = 0;
  let references = 0;
  let addresses = 0;
  let moved = 0;
  let cloudBlocks = 0;
  let remoteBackends = 0;
  for (let item = 0; item < index; item++) {
    const facts = entries[item].facts;
    variables += facts.variables.length;
    references += facts.references.length;
    addresses += facts.addresses.length;
    moved += facts.moved.length;
    cloudBlocks += facts.cloudBlocks.length;
    remoteBackends += facts.remoteBackends.length;
  }
  const spliced = {
    kind: 'terraform' as const,
    file,
    variables: swapItems(last.variables, variables, before.variables, after.variables),
    references: swapItems(last.references, references, before.references, after.references),
    addresses: swapItems(last.addresses, addresses, before.addresses, after.addresses),
    moved: swapItems(last.moved ?? [], moved, before.moved, after.moved),
    cloudBlocks: swapItems(last.cloudBlocks, cloudBlocks, before.cloudBlocks, after.cloudBlocks),
    remoteBackends: swapItems(last.remoteBackends, remoteBackends, before.remoteBackends, after.remoteBackends),
    syntaxProblems: [],
  };
  if (rowDelta !== 0) {
    shiftListsInPlace(spliced, rowDelta, {
      variables: variables + after.variables.length,
      references: references + after.references.length,
      addresses: addresses + after.addresses.length,
      moved: moved + after.moved.length,
      cloudBlocks: cloudBlocks + after.cloudBlocks.length,
      remoteBackends: remoteBackends + after.remoteBackends.length,
    });
  }
  return spliced;
}

/** A copy of `list` with the `removed.length` items at `offset` replaced by `added` (the list itself when both are empty). */
function swapItems<T>(list: readonly T[], offset: number, removed: readonly T[], added: readonly T[]): T[] {
  if (removed.length === 0 && added.length === 0) return list as T[];
  return list.slice(0, offset).concat(added, list.slice(offset + removed.length));
}

function concatLists<T>(first: readonly T[], all: readonly Facts[], listOf: (facts: Facts) => readonly T[]): T[] {
  // Grown by push, not allocated at its size: a preallocated array stays "holey" in V8, and the next keystroke's
  // slice/concat over a holey array takes the slow path.
  const result = first.slice();
  for (let index = 0; index < all.length; index++) {
    const list = listOf(all[index]);
    for (let item = 0; item < list.length; item++) result.push(list[item]);
  }
  return result;
}

/** Values that never hold positions, however they look (a literal `{ line = 1, character = 2 }` is user data). */
const opaqueKeys = new Set(['literal', 'parsed', 'value']);

/** The lists of a piece's facts, or of a whole file's contribution (the pieces' lists one after the other). */
type FactLists = Pick<Facts, 'variables' | 'references' | 'addresses' | 'moved' | 'cloudBlocks' | 'remoteBackends'>;
type ListStarts = { [list in keyof FactLists]: number };

/**
 * Moves the items of each list from its start in `from` on by `delta` lines, in place: the blocks after an edit that
 * added or removed lines (Enter in a 1 MB file moves 24,000 references). Copying them cost ~190 ms, and as new
 * objects they made the folder index and the garbage collector redo as much again; moved in place they stay the
 * objects the index and the pieces already hold. Safe because no two facts share an object that holds a position
 * (test/model/factsOwnership.test.ts checks it), and the values under opaque keys, the only shared (frozen) ones,
 * hold no positions. They are moved through the file's lists, where they lie one after the other: going block by
 * block through 6,000 blocks' small lists took ~3 ms per Enter in 1 MB, the flat lists ~0.5 ms.
 */
function shiftListsInPlace(lists: FactLists, delta: number, from: ListStarts): void {
  // References, addresses and variables are nearly all of a file's facts (30,000, 6,000 and 2,000 in 1 MB): they are
  // moved directly; the walk over every key cost ~15 ms per Enter there.
  const { references, addresses, variables, moved, cloudBlocks, remoteBackends } = lists;
  for (let index = from.references; index < references.length; index++) moveReference(references[index], delta);
  for (let index = from.addresses; index < addresses.length; index++) {
    const address = addresses[index];
    shiftRange(address.range, delta);
    shiftRange(address.labelsRange, delta);
    if (address.attributes) for (const attribute of address.attributes) attribute.endLine += delta;
  }
  for (let index = from.variables; index < variables.length; index++) {
    const variable = variables[index];
    shiftRange(variable.range, delta);
    shiftRange(variable.nameRange, delta);
    if (variable.type) shiftRange(variable.type.range, delta);
    if (variable.default) shiftRange(variable.default.range, delta);
  }
  // The rest (rare) by the walk.
  for (let index = from.moved; index < moved.length; index++) shiftRowsInPlace(moved[index], delta);
  for (let index = from.cloudBlocks; index < cloudBlocks.length; index++) shiftRowsInPlace(cloudBlocks[index], delta);
  for (let index = from.remoteBackends; index < remoteBackends.length; index++) shiftRowsInPlace(remoteBackends[index], delta);
}

/**
 * Every key of Facts, with how shiftListsInPlace moves it: a key added to Facts fails to compile here until it is
 * moved there too (its positions would otherwise stay behind after an Enter).
 */
export const shiftedFactKeys: Record<keyof Facts, 'direct' | 'walked' | 'no positions'> = {
  references: 'direct',
  addresses: 'direct',
  variables: 'direct',
  moved: 'walked',
  cloudBlocks: 'walked',
  remoteBackends: 'walked',
  blockCount: 'no positions',
};

function shiftRange(range: Range, delta: number): void {
  range.start.line += delta;
  range.end.line += delta;
}

/** Moves every position's line in `value` (any shape) by `delta`, in place; see shiftListsInPlace. */
export function shiftRowsInPlace(value: unknown, delta: number): void {
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) shiftRowsInPlace(value[index], delta);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  if (isPosition(record)) {
    (record as { line: number }).line += delta;
    return;
  }
  for (const key in record) if (!opaqueKeys.has(key)) shiftRowsInPlace(record[key], delta);
}

/** `{ line, character }` and nothing else (what shiftRows treats as a position too). */
function isPosition(record: Record<string, unknown>): boolean {
  if (typeof record.line !== 'number' || typeof record.character !== 'number') return false;
  let keys = 0;
  for (const key in record) if (++keys > 2 || (key !== 'line' && key !== 'character')) return false;
  return true;
}

/** A copy of a piece's facts with every position's line moved by `delta`. */
export function shiftedFacts(facts: Facts, delta: number): Facts {
  // Key by key, in pieceFacts' order: a spread would give the copy a hidden class of its own (factShapes.test.ts).
  return {
    variables: shiftRows(facts.variables, delta),
    // References hold their lines as plain numbers (contributions.ts), which the generic walk cannot tell from user data.
    references: facts.references.map((reference) => movedReference(reference, delta)),
    addresses: facts.addresses.map((address) => movedAddress(address, delta)),
    moved: shiftRows(facts.moved, delta),
    cloudBlocks: shiftRows(facts.cloudBlocks, delta),
    remoteBackends: shiftRows(facts.remoteBackends, delta),
    blockCount: facts.blockCount,
  };
}

function movedAddress(address: TargetAddress, delta: number): TargetAddress {
  const { attributes, ...rest } = address;
  const moved = shiftRows(rest as TargetAddress, delta);
  // Attribute ends are plain numbers (contributions.ts): the walk would leave them.
  if (attributes) moved.attributes = attributes.map(({ name, endLine, endCharacter }) => ({ name, endLine: endLine + delta, endCharacter }));
  return moved;
}

/** A copy of `value` with every position's line moved by `delta`. */
export function shiftRows<T>(value: T, delta: number): T {
  if (Array.isArray(value)) return value.map((item) => shiftRows(item, delta)) as T;
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (isPosition(record)) {
    return { line: (record.line as number) + delta, character: record.character } as T;
  }
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) copy[key] = opaqueKeys.has(key) ? item : shiftRows(item, delta);
  return copy as T;
}
