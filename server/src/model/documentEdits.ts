// Applies LSP content changes to a document's text and describes each one to tree-sitter, so the next parse
// re-uses the unchanged parts of the old tree (incremental parsing).
import { Edit } from './treeSitter';
import type { Tree } from './treeSitter';
import { LineIndex, treeSitterPoint } from './positions';
import type { Range } from './positions';

/** The shape of LSP's TextDocumentContentChangeEvent: a ranged edit, or the whole new text when `range` is absent. */
export interface TextChange {
  range?: Range;
  text: string;
}

/**
 * Returns the new text. Ranged changes are applied to `tree` in place (tree.edit); returns `reusableTree: false`
 * when a whole-document change makes the old tree useless.
 */
export function applyTextChanges(text: string, tree: Tree | undefined, changes: readonly TextChange[]): { text: string; reusableTree: boolean } {
  let current = text;
  let reusableTree = tree !== undefined;
  for (const change of changes) {
    if (!change.range) {
      current = change.text;
      reusableTree = false;
      continue;
    }
    const lines = new LineIndex(current);
    const startIndex = lines.offsetAt(change.range.start);
    const oldEndIndex = Math.max(startIndex, lines.offsetAt(change.range.end));
    const next = current.slice(0, startIndex) + change.text + current.slice(oldEndIndex);
    if (reusableTree && tree) {
      tree.edit(
        new Edit({
          startIndex,
          oldEndIndex,
          newEndIndex: startIndex + change.text.length,
          startPosition: treeSitterPoint(current, startIndex),
          oldEndPosition: treeSitterPoint(current, oldEndIndex),
          newEndPosition: treeSitterPoint(next, startIndex + change.text.length),
        }),
      );
    }
    current = next;
  }
  return { text: current, reusableTree };
}
