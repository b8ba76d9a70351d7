// Small, named accessors over the HCL syntax tree of @tree-sitter-grammars/tree-sitter-hcl, so the extractors
// read like the Terraform they look for. A block is `identifier (string_lit | identifier)* block_start body? block_end`,
// an attribute is `identifier = expression`.
import type { Node } from 'web-tree-sitter';
import { decodeStringLiteral } from './hclLiterals';
import { rangeOfNode } from './positions';
import type { Range } from './positions';
import { allSteps } from './steps';
import type { Steps } from './steps';

export function blockKeyword(block: Node): string {
  const first = block.firstChild;
  return first?.type === 'identifier' ? first.text : '';
}

/** The label nodes after the keyword (`resource "aws_instance" "web"` → the two string_lit nodes). */
export function blockLabelNodes(block: Node): Node[] {
  const labels: Node[] = [];
  for (let child = block.firstChild?.nextSibling ?? null; child; child = child.nextSibling) {
    if (child.type === 'string_lit' || child.type === 'identifier') labels.push(child);
    else break;
  }
  return labels;
}

/** A label's value: quoted labels are decoded, bare identifiers (also valid HCL) are taken as written. */
export function labelValue(label: Node): string {
  return label.type === 'string_lit' ? decodeStringLiteral(label) : label.text;
}

/** The `body` of a block or of the file (not simply the first named child: comments are named nodes too). */
export function blockBody(block: Node): Node | undefined {
  // Fast path (indexing speed): in an intact block the body sits right before the closing brace.
  if (block.type === 'block' && !block.hasError) {
    const beforeEnd = block.lastNamedChild?.previousNamedSibling;
    if (beforeEnd?.type === 'body') return beforeEnd;
  }
  for (const child of block.namedChildren) if (child?.type === 'body') return child;
  return undefined;
}

/** Attributes and blocks directly in a block (or in a `body`/`config_file` node). */
export function bodyItems(container: Node): Node[] {
  const body = container.type === 'block' || container.type === 'config_file' ? blockBody(container) : container;
  if (!body || body.type !== 'body') return [];
  return body.namedChildren.filter((child): child is Node => child !== null && (child.type === 'attribute' || child.type === 'block'));
}

export function attributeName(attribute: Node): string {
  return attribute.firstChild?.type === 'identifier' ? attribute.firstChild.text : '';
}

export function attributeNameNode(attribute: Node): Node | undefined {
  const first = attribute.firstChild;
  return first?.type === 'identifier' ? first : undefined;
}

/** The value expression of an attribute, or undefined while it is being typed (`x =` with nothing after). */
export function attributeValue(attribute: Node): Node | undefined {
  for (const child of attribute.namedChildren) {
    if (child?.type === 'expression' && !child.isMissing) return child;
  }
  return undefined;
}

/** One `name = value` as written; `value` is absent while it is being typed or when it cannot be trusted. */
export interface AttributeParts {
  name: string;
  nameNode: Node;
  value?: Node;
  /** From the name to the end of the value (the whole line(s) a diagnostic should point at). */
  range: Range;
}

/**
 * The attribute(s) an `attribute` node really holds. Typing `count =` above `zone = "b"` makes tree-sitter read
 * `count = zone <ERROR => "b"`; the name on the later line is then split back out, so the half-typed line
 * does not steal the next line's value.
 */
export function attributeParts(attribute: Node): AttributeParts[] {
  const nameNode = attributeNameNode(attribute);
  if (!nameNode) return [];
  if (!attribute.hasError) {
    // Fast path: `identifier = expression`, nothing to recover.
    const value = attribute.lastNamedChild;
    return [{ name: nameNode.text, nameNode, ...(value?.type === 'expression' ? { value } : {}), range: rangeOfNode(attribute) }];
  }
  const error = attribute.namedChildren.find((child) => child?.type === 'ERROR');
  const value = attributeValue(attribute);
  if (!error) return [{ name: nameNode.text, nameNode, ...(value ? { value } : {}), range: rangeOfNode(attribute) }];
  const swallowedName = lastSwallowedName(error);
  const first: AttributeParts = { name: nameNode.text, nameNode, range: rangeOfNode(nameNode) };
  if (!swallowedName || !value || swallowedName.startPosition.row <= nameNode.startPosition.row) return [first];
  return [first, { name: swallowedName.text, nameNode: swallowedName, value, range: { start: rangeOfNode(swallowedName).start, end: rangeOfNode(attribute).end } }];
}

/** The identifier at the end of an ERROR node when it is a bare name (the next line's attribute name). */
function lastSwallowedName(error: Node): Node | undefined {
  const last = error.lastNamedChild;
  if (last?.type !== 'expression' || last.namedChildCount !== 1) return undefined;
  const variable = last.firstNamedChild;
  return variable?.type === 'variable_expr' ? (variable.firstNamedChild ?? undefined) : undefined;
}

/** Attributes of a block by name; the first one wins, as Terraform reports later duplicates as errors. */
export function blockAttributes(block: Node): Map<string, AttributeParts> {
  const attributes = new Map<string, AttributeParts>();
  for (const item of bodyItems(block)) {
    if (item.type !== 'attribute') continue;
    for (const parts of attributeParts(item)) if (!attributes.has(parts.name)) attributes.set(parts.name, parts);
  }
  return attributes;
}

export function nestedBlocks(block: Node, keyword: string): Node[] {
  return bodyItems(block).filter((item) => item.type === 'block' && blockKeyword(item) === keyword);
}

/** Blocks that only ever appear at the top level of a Terraform file. */
const topLevelKeywords = new Set(['terraform', 'variable', 'resource', 'data', 'module', 'output', 'locals', 'provider', 'ephemeral', 'check', 'import', 'moved', 'removed']);

/** A block whose keyword only starts a top-level block: one found inside a broken block was swallowed by it. */
export function isTopLevelBlock(block: Node): boolean {
  return topLevelKeywords.has(blockKeyword(block));
}

/** topLevelBlockSteps, run at once. */
export function topLevelBlocks(root: Node): Node[] {
  return allSteps(topLevelBlockSteps(root));
}

/**
 * The file's top-level blocks, a step at a time (steps.ts: a step per broken block looked into, and along the walk
 * of addBlocksInErrors). When a block is broken (an unclosed `{`, a missing `=`), tree-sitter's error recovery can
 * swallow the blocks that follow into its body; those are still returned, so one typo does not hide the rest of the
 * file.
 */
export function* topLevelBlockSteps(root: Node): Steps<Node[]> {
  const found: Node[] = [];
  // An explicit stack, not recursion: broken input can nest blocks deeper than the call stack allows.
  const pending: { container: Node; nested: boolean }[] = [{ container: root, nested: false }];
  while (pending.length > 0) {
    const { container, nested } = pending.pop() as { container: Node; nested: boolean };
    for (const item of bodyItems(container)) {
      if (item.type !== 'block') continue;
      if (!nested || isTopLevelBlock(item)) found.push(item);
      if (item.hasError) pending.push({ container: item, nested: true });
    }
    yield;
  }
  // Error recovery can also wrap whole blocks in ERROR nodes directly under the root.
  if (root.hasError) yield* addBlocksInErrors(root, found);
  return found.sort((a, b) => a.startIndex - b.startIndex);
}

/**
 * Adds to `found` every named `block` child with a top-level keyword of an ERROR node in `node` (the node itself
 * included) that it does not hold yet. Only nodes holding an error are walked into, with a cursor, a step every 128
 * nodes: after a brace too many in 1 MB one ERROR node holds half the file, 3,000 blocks among 34,000 children
 * (its children read at once, and a search of `found` per block, took ~70 ms).
 */
export function* addBlocksInErrors(node: Node, found: Node[]): Steps<void> {
  const foundIds = new Set(found.map((block) => block.id));
  const cursor = node.walk();
  // For each level below `node` that the cursor is on: whether that level's parent is an ERROR node.
  const parentIsError: boolean[] = [];
  let walked = 0;
  try {
    for (;;) {
      const current = cursor.currentNode;
      if (parentIsError.length > 0 && parentIsError[parentIsError.length - 1] && current.type === 'block' && isTopLevelBlock(current) && !foundIds.has(current.id)) {
        found.push(current);
        foundIds.add(current.id);
      }
      if (current.hasError && cursor.gotoFirstChild()) parentIsError.push(current.isError);
      else {
        while (!cursor.gotoNextSibling()) {
          if (parentIsError.length === 0 || !cursor.gotoParent()) return;
          parentIsError.pop();
        }
      }
      if (++walked % 128 === 0) yield;
    }
  } finally {
    cursor.delete();
  }
}
