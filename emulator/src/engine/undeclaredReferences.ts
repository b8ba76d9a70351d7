// References in the root module to things it does not declare, found as `terraform validate` (which every plan runs
// first) finds them: resources, data sources and module calls statically ("Reference to undeclared resource" /
// "… module", and "Missing resource instance key" for `type.name.attr` on a counted resource), input variables and
// local values when the expression is evaluated ("Reference to undeclared input variable" / "… local value").
// Terraform evaluates a block only when what it references validated: a block (a local value) whose references
// reach one that failed reports nothing, and one with a static error is not evaluated, so reports no variable or
// local errors of its own (internal/terraform/evaluate_valid.go, evaluate.go). Texts are Terraform's, word for word.
import type { Node } from 'web-tree-sitter';
import { attributeName, attributeValue, blockKeyword, blockLabelNodes, bodyItems, labelValue } from '../../../server/src/model/syntaxTree';
import type { ConfigBlock } from './modules';
import { nameSuggestion } from './nameSuggestion';

export interface ReferenceProblem {
  summary: string;
  detail: string;
  /** The reference as Terraform highlights it (`aws_instance.x`, `data.t.n`, `var.x`, `module.m.out`): first and last node. */
  from: Node;
  to: Node;
  /** The top-level block it is in, for Terraform's "in resource …" context. */
  block: ConfigBlock;
}

/** Roots that are never resource types; `data`, `var`, `local`, `module` are checked on their own. */
const otherRoots = new Set(['count', 'each', 'path', 'self', 'terraform', 'ephemeral']);
/** Arguments holding addresses or provider references rather than expressions Terraform validates here. */
const skippedArguments: Record<string, Set<string>> = {
  lifecycle: new Set(['ignore_changes', 'replace_triggered_by']),
  moved: new Set(['from', 'to']),
  removed: new Set(['from']),
  import: new Set(['to', 'provider']),
  module: new Set(['providers', 'source', 'version']),
  resource: new Set(['provider']),
  data: new Set(['provider']),
  ephemeral: new Set(['provider']),
  variable: new Set(['type']),
};
const skippedBlocks = new Set(['terraform', 'required_providers', 'backend', 'cloud']);

interface Declared {
  variables: Set<string>;
  locals: Set<string>;
  modules: Set<string>;
  /** `type.name` of managed resources, `data.type.name` of data sources (check blocks' scoped ones too), with how each expands. */
  resources: Map<string, 'single' | 'count' | 'for_each'>;
}

/** A unit Terraform evaluates as one: a top-level block, each local value, each `depends_on`. */
interface Unit {
  key: string;
  block: ConfigBlock;
  nodes: Node[];
}

export function undeclaredReferences(blocks: readonly ConfigBlock[]): ReferenceProblem[] {
  const declared = declarations(blocks);
  const units = unitsOf(blocks);
  const byKey = new Map(units.map((unit) => [unit.key, unit]));
  const status = new Map<string, 'pending' | 'ok' | 'failed' | 'blocked'>();
  const problems: ReferenceProblem[] = [];

  const visit = (unit: Unit): 'ok' | 'failed' | 'blocked' => {
    const known = status.get(unit.key);
    if (known === 'pending') return 'ok'; // a cycle is reported by Terraform otherwise; not here
    if (known) return known;
    status.set(unit.key, 'pending');
    const references = unit.nodes.flatMap(referencesIn);
    // What it reads must have validated first (a graph walk skips the dependents of a failed node).
    const blocked = references.some((reference) => {
      const target = byKey.get(targetKey(reference));
      return target !== undefined && target !== unit && visit(target) !== 'ok';
    });
    if (blocked) {
      status.set(unit.key, 'blocked');
      return 'blocked';
    }
    const found = references.flatMap((reference) => staticProblems(reference, declared, unit.block));
    if (found.length === 0) found.push(...references.flatMap((reference) => dynamicProblems(reference, declared, unit.block)));
    problems.push(...found);
    const result = found.length > 0 ? 'failed' : 'ok';
    status.set(unit.key, result);
    return result;
  };
  for (const unit of units) visit(unit);
  return problems;
}

interface Reference {
  root: string;
  /** The traversal after the root: attribute names, or undefined for an index step. */
  steps: Array<{ name?: string; node: Node }>;
  node: Node;
}

function declarations(blocks: readonly ConfigBlock[]): Declared {
  const declared: Declared = { variables: new Set(), locals: new Set(), modules: new Set(), resources: new Map() };
  const addResource = (prefix: string, block: Node, labels: string[]) => {
    if (labels.length !== 2) return;
    const items = bodyItems(block).filter((item) => item.type === 'attribute').map(attributeName);
    declared.resources.set(`${prefix}${labels[0]}.${labels[1]}`, items.includes('count') ? 'count' : items.includes('for_each') ? 'for_each' : 'single');
  };
  for (const { keyword, labels, node } of blocks) {
    if (keyword === 'variable' && labels[0]) declared.variables.add(labels[0]);
    if (keyword === 'module' && labels[0]) declared.modules.add(labels[0]);
    if (keyword === 'locals') for (const item of bodyItems(node)) if (item.type === 'attribute') declared.locals.add(attributeName(item));
    if (keyword === 'resource') addResource('', node, labels);
    if (keyword === 'data') addResource('data.', node, labels);
    if (keyword === 'check') {
      for (const item of bodyItems(node)) if (item.type === 'block' && blockKeyword(item) === 'data') addResource('data.', item, labelsOf(item));
    }
  }
  return declared;
}

function labelsOf(block: Node): string[] {
  return blockLabelNodes(block).map(labelValue);
}

function unitsOf(blocks: readonly ConfigBlock[]): Unit[] {
  const units: Unit[] = [];
  for (const block of blocks) {
    if (skippedBlocks.has(block.keyword)) continue;
    if (block.keyword === 'locals') {
      for (const item of bodyItems(block.node)) if (item.type === 'attribute') units.push({ key: `local.${attributeName(item)}`, block, nodes: [item] });
      continue;
    }
    const key = unitKey(block);
    const items = bodyItems(block.node);
    const dependsOn = items.filter((item) => item.type === 'attribute' && attributeName(item) === 'depends_on');
    units.push({ key, block, nodes: items.filter((item) => !dependsOn.includes(item)) });
    if (dependsOn.length > 0) units.push({ key: `${key} depends_on`, block, nodes: dependsOn });
  }
  return units;
}

function unitKey({ keyword, labels }: ConfigBlock): string {
  if (keyword === 'resource') return labels.join('.');
  if (keyword === 'data') return `data.${labels.join('.')}`;
  if (keyword === 'variable') return `var.${labels[0]}`;
  return `${keyword}.${labels.join('.')}`;
}

/** The unit a reference reads, by the keys unitsOf gives (`type.name`, `data.type.name`, `var.x`, `local.x`, `module.m`). */
function targetKey(reference: Reference): string {
  const [first, second] = reference.steps.map((step) => step.name);
  return reference.root === 'data' ? `data.${first}.${second}` : `${reference.root}.${first}`;
}

/** The references under the nodes, leaving out names bound by `for` expressions and dynamic blocks' iterators. */
function referencesIn(node: Node): Reference[] {
  const found: Reference[] = [];
  const walk = (current: Node, bound: ReadonlySet<string>, enclosing: string | undefined) => {
    if (current.type === 'attribute' && enclosing && skippedArguments[enclosing]?.has(attributeName(current))) return;
    if (current.type === 'block') {
      const keyword = blockKeyword(current);
      if (skippedBlocks.has(keyword)) return;
      if (keyword === 'dynamic') {
        // The iterator is the block's label unless `iterator = name` renames it; it is bound in `content` only,
        // but binding it across the block does no harm (for_each cannot name it).
        const iterator = bodyItems(current).find((item) => item.type === 'attribute' && attributeName(item) === 'iterator');
        const name = iterator ? (attributeValue(iterator)?.text ?? '') : (labelsOf(current)[0] ?? '');
        bound = new Set([...bound, name]);
      }
      enclosing = keyword;
    }
    if (current.type === 'for_tuple_expr' || current.type === 'for_object_expr') {
      const intro = current.namedChildren.find((child) => child?.type === 'for_intro');
      const names = (intro?.namedChildren ?? []).filter((child) => child?.type === 'identifier').map((child) => child!.text);
      bound = new Set([...bound, ...names]);
    }
    if (current.type === 'variable_expr') {
      const root = current.text;
      if (!bound.has(root) && !otherRoots.has(root)) {
        const steps: Reference['steps'] = [];
        for (let next = current.nextNamedSibling; next && (next.type === 'get_attr' || next.type === 'index'); next = next.nextNamedSibling) {
          steps.push(next.type === 'get_attr' ? { name: next.namedChildren[0]?.text ?? '', node: next } : { node: next });
        }
        // A bare name (`string` in a type, `tags` in ignore_changes) is no reference.
        if (steps[0]?.name !== undefined) found.push({ root, steps, node: current });
      }
      return;
    }
    for (const child of current.namedChildren) if (child) walk(child, bound, enclosing);
  };
  walk(node, new Set(), node.type === 'block' ? undefined : enclosingKeyword(node));
  return found;
}

/** The keyword of the block an attribute sits in (for a local value or a depends_on unit). */
function enclosingKeyword(node: Node): string | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) if (parent.type === 'block') return blockKeyword(parent);
  return undefined;
}

const problem = (summary: string, detail: string, reference: Reference, steps: number, block: ConfigBlock): ReferenceProblem => ({
  summary,
  detail,
  from: reference.node,
  to: reference.steps[steps - 1]?.node ?? reference.node,
  block,
});

/** Resource, data source and module call references: checked before anything is evaluated. */
function staticProblems(reference: Reference, declared: Declared, block: ConfigBlock): ReferenceProblem[] {
  const { root, steps } = reference;
  if (root === 'var' || root === 'local') return [];
  if (root === 'module') {
    const name = steps[0]!.name!;
    if (declared.modules.has(name)) return [];
    const suggestion = nameSuggestion(name, [...declared.modules].sort());
    const withOutput = steps[1]?.name !== undefined ? 2 : 1;
    return [problem('Reference to undeclared module', `No module call named "${name}" is declared in the root module.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`, reference, withOutput, block)];
  }
  const data = root === 'data';
  const [type, name] = data ? [steps[0]!.name, steps[1]?.name] : [root, steps[0]!.name];
  if (type === undefined || name === undefined) return [];
  const address = `${data ? 'data.' : ''}${type}.${name}`;
  const addressSteps = data ? 2 : 1;
  const expansion = declared.resources.get(address);
  if (!expansion) {
    const dataHint = !data && declared.resources.has(`data.${address}`) ? `\n\nDid you mean the data resource data.${address}?` : '';
    return [problem('Reference to undeclared resource', `A ${data ? 'data' : 'managed'} resource "${type}" "${name}" has not been declared in the root module.${dataHint}`, reference, addressSteps, block)];
  }
  // `type.name.attr` on a counted resource: the attributes belong to its instances.
  const next = steps[addressSteps];
  if (expansion !== 'single' && next?.name !== undefined) {
    const [meta, key] = expansion === 'count' ? ['count', 'count.index'] : ['for_each', 'each.key'];
    return [problem('Missing resource instance key', `Because ${address} has "${meta}" set, its attributes must be accessed on specific instances.\n\nFor example, to correlate with indices of a referring resource, use:\n    ${address}[${key}]`, reference, addressSteps, block)];
  }
  return [];
}

/** Input variables and local values: Terraform finds these undeclared when it evaluates the expression. */
function dynamicProblems(reference: Reference, declared: Declared, block: ConfigBlock): ReferenceProblem[] {
  const name = reference.steps[0]!.name!;
  if (reference.root === 'var' && !declared.variables.has(name)) {
    const suggestion = nameSuggestion(name, [...declared.variables].sort());
    const hint = suggestion ? ` Did you mean "${suggestion}"?` : ` This variable can be declared with a variable "${name}" {} block.`;
    return [problem('Reference to undeclared input variable', `An input variable with the name "${name}" has not been declared.${hint}`, reference, 1, block)];
  }
  if (reference.root === 'local' && !declared.locals.has(name)) {
    const suggestion = nameSuggestion(name, [...declared.locals].sort());
    return [problem('Reference to undeclared local value', `A local value with the name "${name}" has not been declared.${suggestion ? ` Did you mean "${suggestion}"?` : ''}`, reference, 1, block)];
  }
  return [];
}
