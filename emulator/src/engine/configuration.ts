// What an uploaded configuration declares, read with the same tree-sitter grammar as the language server: the
// resource instances (literal `count` and `for_each` expanded, also through variables with literal values), a
// fingerprint of each resource's arguments (its text and the values of the variables it reads) so a plan can tell
// an unchanged resource from an updated one, `terraform_data`'s replacement trigger, and the outputs' values where
// they are literals or variables. Anything else is "known after apply".
import { createHash } from 'node:crypto';
import type { Node } from 'web-tree-sitter';
import type { TerraformParser } from '../../../server/src/model';
import { readLiteral, type LiteralValue } from '../../../server/src/model/hclLiterals';
import { attributeName, attributeValue, blockKeyword, blockLabelNodes, bodyItems, labelValue, topLevelBlocks } from '../../../server/src/model/syntaxTree';

export interface DeclaredInstance {
  address: string;
  type: string;
  /** Changes when the resource's arguments (or a variable they read) change. */
  fingerprint: string;
  /** `terraform_data.triggers_replace`: a change replaces the instance. */
  replaceTrigger?: string;
}

export interface DeclaredOutput {
  name: string;
  sensitive: boolean;
  /** Absent when the value is only known after apply. */
  value?: LiteralValue;
}

export interface DeclaredConfiguration {
  instances: DeclaredInstance[];
  outputs: DeclaredOutput[];
}

/** Variable values by name: run variables over workspace variables over defaults (the caller merges them). */
export type VariableValues = ReadonlyMap<string, LiteralValue>;

/** The root module's declarations; undefined when no `.tf` file declares a resource or an output. */
export function readConfiguration(parser: TerraformParser, files: ReadonlyMap<string, Buffer>, variables: VariableValues): DeclaredConfiguration | undefined {
  const instances: DeclaredInstance[] = [];
  const outputs: DeclaredOutput[] = [];
  const defaults = new Map<string, LiteralValue>();
  const blocks: Array<{ keyword: string; labels: string[]; node: Node }> = [];
  const trees = [];
  try {
    for (const [path, content] of [...files.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      if (!path.endsWith('.tf') || path.includes('/')) continue; // root module only
      const tree = parser.parse(content.toString('utf8'));
      trees.push(tree);
      for (const block of topLevelBlocks(tree.rootNode)) blocks.push({ keyword: blockKeyword(block), labels: blockLabelNodes(block).map(labelValue), node: block });
    }
    for (const block of blocks.filter((b) => b.keyword === 'variable' && b.labels[0])) {
      const value = attributeLiteral(block.node, 'default', new Map());
      if (value !== undefined) defaults.set(block.labels[0]!, value);
    }
    const values = new Map([...defaults, ...variables]);
    for (const block of blocks) {
      if (block.keyword === 'resource' && block.labels.length === 2) instances.push(...resourceInstances(block.labels[0]!, block.labels[1]!, block.node, values));
      if (block.keyword === 'output' && block.labels[0]) {
        const value = attributeLiteral(block.node, 'value', values);
        const sensitive = attributeLiteral(block.node, 'sensitive', values) === true;
        outputs.push({ name: block.labels[0], sensitive, ...(value !== undefined ? { value } : {}) });
      }
    }
  } finally {
    for (const tree of trees) tree.delete();
  }
  return instances.length > 0 || outputs.length > 0 ? { instances, outputs } : undefined;
}

function resourceInstances(type: string, name: string, block: Node, values: VariableValues): DeclaredInstance[] {
  const base = `${type}.${name}`;
  const fingerprint = fingerprintOf(block, values);
  const trigger = type === 'terraform_data' ? attributeText(block, 'triggers_replace', values) : undefined;
  const one = (address: string): DeclaredInstance => ({ address, type, fingerprint, ...(trigger !== undefined ? { replaceTrigger: trigger } : {}) });
  const count = attributeLiteral(block, 'count', values);
  if (typeof count === 'number') return Array.from({ length: Math.max(0, Math.floor(count)) }, (_, index) => one(`${base}[${index}]`));
  const forEach = attributeLiteral(block, 'for_each', values);
  if (Array.isArray(forEach)) return [...new Set(forEach.map(String))].map((key) => one(`${base}[${JSON.stringify(key)}]`));
  if (forEach && typeof forEach === 'object') return Object.keys(forEach).map((key) => one(`${base}[${JSON.stringify(key)}]`));
  return [one(base)];
}

function attributeNode(block: Node, name: string): Node | undefined {
  const attribute = bodyItems(block).find((item) => item.type === 'attribute' && attributeName(item) === name);
  return attribute ? attributeValue(attribute) : undefined;
}

/** An attribute's value when it is a literal or a lone `var.x` with a known value. */
function attributeLiteral(block: Node, name: string, values: VariableValues): LiteralValue | undefined {
  const expression = attributeNode(block, name);
  return expression ? expressionValue(expression, values) : undefined;
}

/** A literal, `var.x`, or `toset(…)` / `tolist(…)` of one (what `for_each` usually says). */
function expressionValue(expression: Node, values: VariableValues): LiteralValue | undefined {
  const literal = readLiteral(expression);
  if (literal) return literal.value;
  const variable = lonelyVariable(expression);
  if (variable !== undefined) return values.get(variable);
  const call = expression.namedChildren.length === 1 && expression.namedChildren[0]?.type === 'function_call' ? expression.namedChildren[0] : undefined;
  const fn = call?.namedChildren[0]?.text;
  const argument = call?.namedChildren.find((child) => child?.type === 'function_arguments')?.namedChildren[0];
  if ((fn === 'toset' || fn === 'tolist') && argument?.type === 'expression') {
    const inner = expressionValue(argument, values);
    return Array.isArray(inner) ? (fn === 'toset' ? [...new Set(inner.map((v) => JSON.stringify(v)))].map((v) => JSON.parse(v) as LiteralValue) : inner) : undefined;
  }
  return undefined;
}

function attributeText(block: Node, name: string, values: VariableValues): string | undefined {
  const expression = attributeNode(block, name);
  return expression ? `${expression.text}|${JSON.stringify(referencedValues(expression, values))}` : undefined;
}

/** `var.name` as the whole expression → `name`. */
function lonelyVariable(expression: Node): string | undefined {
  const [head, attribute, ...rest] = expression.namedChildren;
  if (rest.length > 0 || head?.type !== 'variable_expr' || head.text !== 'var' || attribute?.type !== 'get_attr') return undefined;
  return attribute.namedChildren[0]?.text;
}

/**
 * The arguments' text and the values of the variables they read, hashed. `count` and `for_each` decide which
 * instances exist, not what each one is, so they are left out.
 */
function fingerprintOf(block: Node, values: VariableValues): string {
  const items = bodyItems(block).filter((item) => !(item.type === 'attribute' && ['count', 'for_each'].includes(attributeName(item))));
  const hash = createHash('sha1');
  for (const item of items) hash.update(item.text.replace(/\s+/g, ' ')).update(JSON.stringify(referencedValues(item, values))).update('\n');
  return hash.digest('hex');
}

/** The variables a node reads (`var.x` anywhere below it), with their values, sorted by name. */
function referencedValues(node: Node, values: VariableValues): Array<[string, LiteralValue | null]> {
  const names = new Set<string>();
  for (const variable of node.descendantsOfType('variable_expr')) {
    if (variable?.text !== 'var') continue;
    const attribute = variable.nextNamedSibling;
    const name = attribute?.type === 'get_attr' ? attribute.namedChildren[0]?.text : undefined;
    if (name) names.add(name);
  }
  return [...names].sort().map((name) => [name, values.get(name) ?? null]);
}
