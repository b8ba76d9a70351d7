// A resource instance's arguments as a plan shows them: the evaluated ones by name (nested blocks, also `dynamic`
// ones, as arrays of objects under the block's name), the names of those only known after apply, and the names of
// those that read a sensitive value. Meta-arguments are Terraform's, not the resource's, and are left out.
import type { Node } from 'web-tree-sitter';
import type { LiteralObject, LiteralValue } from '../../../server/src/model/hclLiterals';
import { attributeName, attributeValue, blockKeyword, blockLabelNodes, bodyItems, labelValue } from '../../../server/src/model/syntaxTree';
import { evaluate, withSymbols, type Scope } from './evaluate';
import { attributeNode } from './modules';
import { isObject, unknown, type Value } from './values';

const metaAttributes = new Set(['count', 'for_each', 'depends_on', 'provider']);
const metaBlocks = new Set(['lifecycle', 'provisioner', 'connection']);

export interface ResourceArguments {
  values: Record<string, LiteralValue>;
  unknown: string[];
  sensitive: string[];
}

export function resourceArguments(block: Node, scope: Scope, sensitivity: { readsSensitive(node: Node): boolean }): ResourceArguments {
  const values: Record<string, LiteralValue> = {};
  const unknownNames = new Set<string>();
  const sensitive = new Set<string>();
  for (const item of bodyItems(block)) {
    const name = item.type === 'attribute' ? attributeName(item) : nestedBlockName(item);
    if (!name || (item.type === 'attribute' ? metaAttributes : metaBlocks).has(name)) continue;
    if (sensitivity.readsSensitive(item)) sensitive.add(name);
    if (unknownNames.has(name)) continue;
    const value = item.type === 'attribute' ? attributeOf(item, scope) : nestedBlocks(item, scope);
    if (value === unknown) {
      unknownNames.add(name);
      delete values[name];
    } else if (item.type === 'attribute') values[name] = value;
    else values[name] = [...((values[name] as LiteralValue[] | undefined) ?? []), ...(value as LiteralValue[])];
  }
  return { values, unknown: [...unknownNames], sensitive: [...sensitive] };
}

/** `ingress { … }` → "ingress"; `dynamic "ingress" { … }` → "ingress". */
export function nestedBlockName(block: Node): string {
  const keyword = blockKeyword(block);
  if (keyword !== 'dynamic') return keyword;
  const label = blockLabelNodes(block)[0];
  return label ? labelValue(label) : '';
}

function attributeOf(attribute: Node, scope: Scope): Value {
  const value = attributeValue(attribute);
  return value ? evaluate(value, scope) : unknown;
}

/** The objects one nested block (or one `dynamic` block, once per element of its for_each) stands for. */
function nestedBlocks(block: Node, scope: Scope): Value {
  if (blockKeyword(block) !== 'dynamic') return wrap(blockObject(block, scope));
  const content = bodyItems(block).find((item) => item.type === 'block' && blockKeyword(item) === 'content');
  const forEachNode = attributeNode(block, 'for_each');
  const forEach = forEachNode ? evaluate(forEachNode, scope) : unknown;
  // Unlike a resource's, a dynamic block's for_each may be a list (of objects, say): the key is then the index.
  const pairs: Array<[LiteralValue, LiteralValue]> | undefined = Array.isArray(forEach) ? forEach.map((item, index) => [index, item]) : isObject(forEach) ? Object.entries(forEach) : undefined;
  if (!content || !pairs) return unknown;
  // The iterator is named by `iterator = name`, else after the block type; it has .key and .value.
  const iterator = attributeNode(block, 'iterator')?.text ?? nestedBlockName(block);
  const objects = pairs.map(([key, value]) => blockObject(content, withSymbols(scope, [[iterator, { key, value }]])));
  return objects.some((object) => object === unknown) ? unknown : (objects as LiteralValue[]);
}

function wrap(value: Value): Value {
  return value === unknown ? unknown : [value];
}

function blockObject(block: Node, scope: Scope): Value {
  const object: LiteralObject = {};
  for (const item of bodyItems(block)) {
    const name = item.type === 'attribute' ? attributeName(item) : nestedBlockName(item);
    if (!name) continue;
    const value = item.type === 'attribute' ? attributeOf(item, scope) : nestedBlocks(item, scope);
    if (value === unknown) return unknown;
    object[name] = item.type === 'attribute' ? value : [...((object[name] as LiteralValue[] | undefined) ?? []), ...(value as LiteralValue[])];
  }
  return object;
}
