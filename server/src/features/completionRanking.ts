// The cut list of `var.` completion over many variables: the best matches of what was typed, ranked by how often the
// code uses each variable, made light enough to send on every keystroke. The use order is kept per item list and
// moved item by item as references change (a keystroke changes a name or two), never sorted again per keystroke.
import type { CompletionItem } from 'vscode-languageserver';
import type { FolderIndex, ModuleFolderModel } from '../model';

/**
 * Past this many variables a completion list is cut: the client gets the best matches of what was typed, ranked by
 * how often the code uses each variable, without their documentation (completionItem/resolve adds it to the one
 * the user looks at), and `isIncomplete` so it asks again as the user types. 2,000 variables made a 1 MB answer
 * on every keystroke.
 */
export const maxCompletionItems = 200;

/**
 * What completionItem/resolve needs to find an item's detail and documentation again: the folder, and the name when
 * the item carries its own data (with a shared itemDefaults.data, the name is the item's label).
 */
export interface VariableItemData {
  folder: string;
  name?: string;
}

/**
 * The best matches of `typed`, lightened for a list sent on every keystroke: no documentation, no `detail` (the
 * label details show the type and source; resolve adds both back), and `data` only when `folder` is given (a client
 * without itemDefaults.data). 200 items went from 42 KB to about half.
 */
export function rankVariableItems(model: ModuleFolderModel, items: readonly CompletionItem[], typed: string, folder: string | undefined): CompletionItem[] {
  const wanted = typed.toLowerCase();
  // In use order, prefix matches first: the same as sorting the matches by (prefix, uses, label), without a sort.
  const prefixed: CompletionItem[] = [];
  const others: CompletionItem[] = [];
  const { indices, lowerLabels } = useOrder(model, items);
  for (let place = 0; place < indices.length && prefixed.length < maxCompletionItems; place++) {
    const position = indices[place];
    const label = lowerLabels[position];
    // The client filters by subsequence too: never leave out an item it would have shown.
    if (label.startsWith(wanted)) prefixed.push(items[position]);
    else if (others.length < maxCompletionItems && isSubsequence(wanted, label)) others.push(items[position]);
  }
  return prefixed.concat(others).slice(0, maxCompletionItems).map((item, rank) => {
    // The rank decides the order the client shows (it sorts by sortText); declared before undeclared is kept.
    const ranked = lightCopy(item, `${item.sortText?.[0] ?? '0'}${String(rank).padStart(4, '0')}`);
    if (folder !== undefined) ranked.data = { folder, name: item.label } satisfies VariableItemData;
    return ranked;
  });
}

/**
 * `item` without its documentation and detail, with `sortText`: a new object per keystroke (the list goes out as
 * JSON), its other properties copied one by one into an object literal. Copied by object rest and spread
 * (`{ documentation, detail, ...light }`), 200 items took 1-5 ms on some keystrokes of the bench's 1 MB typing.
 * Shallow: nested objects (label details, edits) are the cached item's own, and nothing may change them.
 */
function lightCopy(item: CompletionItem, sortText: string): CompletionItem {
  const copy: CompletionItem = { label: item.label, sortText };
  for (const key in item) {
    if (key === 'documentation' || key === 'detail' || key === 'label' || key === 'sortText') continue;
    (copy as unknown as Record<string, unknown>)[key] = (item as unknown as Record<string, unknown>)[key];
  }
  return copy;
}

interface UseOrder {
  /** The index the counts were read from, and where its journal of reference changes stood then. */
  index: FolderIndex;
  cursor: number;
  /** How often the code used each item (by the items' own order) when the order was last brought up to date. */
  uses: number[];
  /** The items' indices by use (most first), then label (by code unit: only stability matters, and it runs per keystroke). */
  indices: number[];
  /** Each item's label in lower case, by the items' own order: lowered once per list, not per keystroke. */
  lowerLabels: string[];
  /** Each label's place in the items' own order (labels are unique: one item per variable name). */
  positions: Map<string, number>;
}

/** Kept per item list: a keystroke changes the use count of a name or two at most, and sorting 2,000 items per keystroke showed in the typing profile. */
const useOrders = new WeakMap<readonly CompletionItem[], UseOrder>();
/** Past this many changed counts a full sort is as cheap as moving each item. */
const maxMovedItems = 16;

function useOrder(model: ModuleFolderModel, items: readonly CompletionItem[]): UseOrder {
  const index = model.index;
  const cursor = index.referenceCursor;
  const cached = useOrders.get(items);
  // Only the names whose references changed since the last ranking are counted again (counting all 2,000 per
  // keystroke was most of completion's time in the typing profile); without the journal, every name is.
  const changedNames = cached?.index === index ? index.referenceNamesChangedSince(cached.cursor) : undefined;
  let uses: number[];
  const changed: number[] = [];
  if (cached && changedNames) {
    uses = cached.uses;
    for (const name of new Set(changedNames)) {
      const position = cached.positions.get(name);
      if (position === undefined) continue;
      const count = index.referencesTo(name).length;
      if (count === uses[position]) continue;
      if (uses === cached.uses) uses = uses.slice();
      uses[position] = count;
      changed.push(position);
    }
    if (changed.length === 0) {
      cached.cursor = cursor;
      return cached;
    }
  } else {
    uses = items.map((item) => index.referencesTo(item.label).length);
    if (cached) {
      for (let position = 0; position < uses.length && changed.length <= maxMovedItems; position++) if (cached.uses[position] !== uses[position]) changed.push(position);
      if (changed.length === 0) {
        cached.index = index;
        cached.cursor = cursor;
        return cached;
      }
    }
  }
  const before = (a: number, b: number) => uses[b] - uses[a] || (items[a].label < items[b].label ? -1 : items[a].label > items[b].label ? 1 : 0);
  let indices: number[];
  if (cached && changed.length <= maxMovedItems) {
    // The others keep their relative order: take the changed items out, then put each back where it now belongs.
    // With native array operations (slice, indexOf, splice): `filter` with a Set over the 2,000 indices and `map`s
    // over them took 0.6-1.8 ms per keystroke in the bench's 1 MB typing. `indices` holds every position once, and
    // `changed` none twice, so each is found.
    indices = cached.indices.slice();
    for (const position of changed) {
      const at = indices.indexOf(position);
      if (at >= 0) indices.splice(at, 1);
    }
    for (const position of changed) {
      let low = 0;
      let high = indices.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (before(indices[middle], position) < 0) low = middle + 1;
        else high = middle;
      }
      indices.splice(low, 0, position);
    }
  } else {
    indices = items.map((_, position) => position);
    indices.sort(before);
  }
  const positions = cached?.positions ?? new Map(items.map((item, position) => [item.label, position]));
  const lowerLabels = cached?.lowerLabels ?? items.map((item) => item.label.toLowerCase());
  const made = { index, cursor, uses, indices, lowerLabels, positions };
  useOrders.set(items, made);
  return made;
}

function isSubsequence(needle: string, haystack: string): boolean {
  let at = 0;
  for (let index = 0; index < haystack.length && at < needle.length; index++) if (haystack[index] === needle[at]) at++;
  return at === needle.length;
}
