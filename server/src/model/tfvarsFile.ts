// `.tfvars` (HCL) and `.tfvars.json` files: one entry per top-level key, with ranges for diagnostics.
// JSON files go through the same tree-sitter grammar (it accepts a top-level object precisely for this) for ranges,
// and through JSON.parse for values, so escapes and numbers mean exactly what JSON says.
import type { Node, Tree } from 'web-tree-sitter';
import type { TfvarsEntry, TfvarsFileContribution } from './contributions';
import { readLiteral } from './hclLiterals';
import type { LiteralValue } from './hclLiterals';
import { LineIndex, rangeOfNode } from './positions';
import type { Position } from './positions';
import { findSyntaxProblems } from './syntaxProblems';
import { attributeParts, blockBody } from './syntaxTree';

export function extractTfvarsFile(tree: Tree, file: string, format: 'hcl' | 'json', autoLoaded: boolean): TfvarsFileContribution {
  const root = tree.rootNode;
  const syntaxProblems = findSyntaxProblems(root);
  const base = { kind: 'tfvars' as const, file, format, autoLoaded, syntaxProblems };
  if (format === 'hcl') return { ...base, entries: hclEntries(root, file) };
  const entries = jsonEntries(root, file);
  // Where to point when JSON.parse does not say: the first spot tree-sitter or a member's JSON.parse rejects.
  const suspect = syntaxProblems[0]?.range.start ?? entries.find((entry) => !entry.literal)?.valueRange.start;
  const jsonError = validateJson(root.text, suspect);
  return { ...base, entries, ...(jsonError ? { jsonError } : {}) };
}

/** Top-level attributes, including those tree-sitter had to wrap in an ERROR node next to a broken line. */
function hclEntries(root: Node, file: string): TfvarsEntry[] {
  const body = blockBody(root) ?? root;
  const attributes: Node[] = [];
  for (const child of body.namedChildren) {
    if (child?.type === 'attribute') attributes.push(child);
    else if (child?.type === 'ERROR') attributes.push(...child.namedChildren.filter((inner): inner is Node => inner?.type === 'attribute'));
  }
  const entries: TfvarsEntry[] = [];
  for (const { name, nameNode, value, range } of attributes.flatMap(attributeParts)) {
    if (!value) continue;
    const literal = readLiteral(value);
    entries.push({
      key: name,
      file,
      range,
      keyRange: rangeOfNode(nameNode),
      valueText: value.text,
      valueRange: rangeOfNode(value),
      ...(literal ? { literal } : {}),
    });
  }
  return entries;
}

function jsonEntries(root: Node, file: string): TfvarsEntry[] {
  const members = topLevelMembers(root);
  const entries: TfvarsEntry[] = [];
  for (const member of members) {
    if (member?.type !== 'object_elem') continue;
    const keyNode = member.childForFieldName('key');
    const valueNode = member.childForFieldName('val');
    const key = keyNode ? parseJson(keyNode.text) : undefined;
    if (!keyNode || !valueNode || typeof key?.value !== 'string') continue;
    const literal = parseJson(valueNode.text);
    entries.push({
      key: key.value,
      file,
      range: rangeOfNode(member),
      keyRange: rangeOfNode(keyNode),
      valueText: valueNode.text,
      valueRange: rangeOfNode(valueNode),
      ...(literal ? { literal } : {}),
    });
  }
  return entries;
}

/**
 * The members of the top-level object. In a truncated file tree-sitter has no `object` node: the members then
 * sit in the ERROR node that starts with the opening brace.
 */
function topLevelMembers(root: Node): Node[] {
  const object = root.descendantsOfType('object')[0];
  const truncated = root.type === 'ERROR' ? root : root.namedChildren.find((child) => child?.type === 'ERROR');
  // The truncated form first: an object found then may be a nested value inside the broken outer one.
  const container = truncated?.firstChild?.type === 'object_start' ? truncated : object && !hasCollectionAncestor(object) ? object : undefined;
  return container ? container.namedChildren.filter((child): child is Node => child?.type === 'object_elem') : [];
}

function hasCollectionAncestor(node: Node): boolean {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent.type === 'tuple' || parent.type === 'object') return true;
  return false;
}

function parseJson(text: string): { value: LiteralValue } | undefined {
  try {
    return { value: JSON.parse(text) as LiteralValue };
  } catch {
    return undefined;
  }
}

/**
 * JSON.parse's verdict on the whole file, placed where it failed. V8's message is not passed on: it quotes the
 * surrounding text, which in a tfvars file may be a secret.
 */
function validateJson(text: string, suspect: Position | undefined): TfvarsFileContribution['jsonError'] {
  const lines = new LineIndex(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    // Newer V8 messages name no position for an unexpected token.
    const position = /position (\d+)/.exec(message);
    const truncated = /end of JSON input/.test(message);
    const offset = position ? Math.min(Number(position[1]), text.length) : truncated || !suspect ? text.length : lines.offsetAt(suspect);
    const at = lines.positionAt(offset);
    const what = truncated ? 'the file ends before the JSON is complete' : 'unexpected text';
    return {
      message: `Invalid JSON (${what}) at line ${at.line + 1}, column ${at.character + 1}. Fix the JSON or rename the file to .tfvars to write HCL.`,
      range: lines.rangeOf(offset, Math.min(offset + 1, text.length)),
    };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { message: 'A .tfvars.json file must hold one JSON object whose keys are variable names.', range: lines.rangeOf(0, text.length) };
  }
  return undefined;
}
