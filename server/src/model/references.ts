// Every `var.x` in a file, wherever it appears (attributes, templates, for expressions, broken code).
import type { Node } from 'web-tree-sitter';
import type { VariableReference } from './contributions';
import { rangeOfNode } from './positions';
import type { Range } from './positions';

/**
 * The word `var` is looked up in the text first and each hit confirmed in the tree (a `variable_expr` node):
 * asking the tree for every variable_expr would also return every type keyword and object key, which costs
 * most of the indexing time of a large module.
 */
export function findVariableReferences(root: Node, file: string, document?: { text: string; endIndex: number }): VariableReference[] {
  const references: VariableReference[] = [];
  // root.text starts at root.startIndex (not 0 when only a region of the file was parsed). With `document`, `root`
  // is one piece of a whole-file tree: the character after a node is read from the document, up to the end of
  // the whole tree, exactly as if the whole tree had been searched.
  const source = document ? document.text.slice(root.startIndex, root.endIndex) : root.text;
  const charAfter = document
    ? (node: Node) => (node.endIndex < document.endIndex ? document.text.charCodeAt(node.endIndex) : NaN)
    : (node: Node) => source.charCodeAt(node.endIndex - root.startIndex);
  for (const match of source.matchAll(/\bvar\b/g)) {
    const start = root.startIndex + match.index;
    const identifier = root.descendantForIndex(start, start + 3);
    const candidate = identifier?.parent;
    // The hit must be the whole identifier: not part of `var-x`, `évar`, a comment or a string.
    if (identifier?.type !== 'identifier' || identifier.startIndex !== start || identifier.endIndex !== start + 3) continue;
    if (candidate?.type !== 'variable_expr') continue;
    const reference = referenceAt(candidate, charAfter, file);
    if (reference) references.push(reference);
  }
  return references;
}

function referenceAt(varNode: Node, charAfter: (node: Node) => number, file: string): VariableReference | undefined {
  const attribute = varNode.nextSibling;
  if (attribute?.type === 'get_attr') {
    const dot = attribute.firstChild;
    const nameNode = attribute.lastChild;
    // `var.` then a newline: the identifier tree-sitter attaches belongs to the next line (the user is typing).
    const sameLine = dot && nameNode && nameNode.type === 'identifier' && !nameNode.isMissing && nameNode.startPosition.row === dot.startPosition.row;
    if (sameLine) {
      return { name: nameNode.text, file, range: { start: rangeOfNode(varNode).start, end: rangeOfNode(nameNode).end }, nameRange: rangeOfNode(nameNode) };
    }
    return incompleteReference(varNode, dot ? rangeOfNode(dot).end : rangeOfNode(varNode).end, file);
  }
  // Error recovery may leave the dot outside any get_attr (e.g. `"${var.}"`): look at the source itself.
  if (charAfter(varNode) === 46 /* . */) {
    const afterDot = { line: varNode.endPosition.row, character: varNode.endPosition.column + 1 };
    return incompleteReference(varNode, afterDot, file);
  }
  return undefined;
}

function incompleteReference(varNode: Node, afterDot: Range['start'], file: string): VariableReference {
  return { name: '', file, range: { start: rangeOfNode(varNode).start, end: afterDot }, nameRange: { start: afterDot, end: afterDot } };
}
