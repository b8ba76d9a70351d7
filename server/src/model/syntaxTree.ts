// Small, named accessors over the HCL syntax tree of @tree-sitter-grammars/tree-sitter-hcl, so the extractors
// read like the Terraform they look for. A block is `identifier (string_lit | identifier)* block_start body? block_end`,
// an attribute is `identifier = expression`.
import type { Node } from 'web-tree-sitter';
import { decodeStringLiteral } from './hclLiterals';

export function blockKeyword(block: Node): string {
  return block.firstChild?.type === 'identifier' ? block.firstChild.text : '';
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
  return attribute.firstChild?.type === 'identifier' ? attribute.firstChild : undefined;
}

/** The value expression of an attribute, or undefined while it is being typed (`x =` with nothing after). */
export function attributeValue(attribute: Node): Node | undefined {
  for (const child of attribute.namedChildren) {
    if (child?.type === 'expression' && !child.isMissing) return child;
  }
  return undefined;
}

/** Attributes of a block by name; the first one wins, as Terraform reports later duplicates as errors. */
export function blockAttributes(block: Node): Map<string, Node> {
  const attributes = new Map<string, Node>();
  for (const item of bodyItems(block)) {
    if (item.type !== 'attribute') continue;
    const name = attributeName(item);
    if (name && !attributes.has(name)) attributes.set(name, item);
  }
  return attributes;
}

export function nestedBlocks(block: Node, keyword: string): Node[] {
  return bodyItems(block).filter((item) => item.type === 'block' && blockKeyword(item) === keyword);
}

/** Blocks that only ever appear at the top level of a Terraform file. */
const topLevelKeywords = new Set(['terraform', 'variable', 'resource', 'data', 'module', 'output', 'locals', 'provider', 'ephemeral', 'check', 'import', 'moved', 'removed']);

/**
 * The file's top-level blocks. When a block is broken (an unclosed `{`, a missing `=`), tree-sitter's error
 * recovery can swallow the blocks that follow into its body; those are still returned, so one typo does not hide
 * the rest of the file.
 */
export function topLevelBlocks(root: Node): Node[] {
  const found: Node[] = [];
  const visit = (container: Node, nested: boolean) => {
    for (const item of bodyItems(container)) {
      if (item.type !== 'block') continue;
      if (!nested || topLevelKeywords.has(blockKeyword(item))) found.push(item);
      if (item.hasError) visit(item, true);
    }
  };
  visit(root, false);
  // Error recovery can also wrap whole blocks in ERROR nodes directly under the root.
  if (root.hasError) {
    for (const error of root.descendantsOfType('ERROR')) {
      for (const child of error.namedChildren) {
        if (child?.type === 'block' && topLevelKeywords.has(blockKeyword(child)) && !found.some((block) => block.id === child.id)) found.push(child);
      }
    }
  }
  return found.sort((a, b) => a.startIndex - b.startIndex);
}
