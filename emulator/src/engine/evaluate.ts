// A small evaluator over the tree-sitter HCL syntax tree: literals, `var.*`, `local.*`, `module.*`, `count.index`,
// `each.*`, templates, tuples and objects, `for` expressions, conditionals, arithmetic and comparisons, and the
// functions in functions.ts. Whatever it cannot know (a resource's attributes the caller does not give, data
// sources, functions it does not evaluate) is `unknown`, never a guess.
import type { Node } from 'web-tree-sitter';
import { objectKeyOf, readLiteral, type LiteralValue } from '../../../server/src/model/hclLiterals';
import { collectProblems, reportProblem } from './evaluationProblems';
import { callFunction } from './functions';
import { renderTemplate } from './templates';
import { asNumber, asText, isObject, sameValue, unknown, type Value } from './values';

/** What names mean where an expression is evaluated. A plain object, so `withSymbols` can copy it. */
export interface Scope {
  variable(name: string): Value;
  local(name: string): Value;
  /** `module.<name>`: its outputs (a tuple or map of them under count / for_each). */
  module(name: string): Value;
  /**
   * `<type>.<name>`: a managed resource's attributes where the caller knows them (an object, a tuple of them under
   * count, a map under for_each); unknown when it does not, as before an apply.
   */
  resource?(type: string, name: string): Value;
  /** `path.module` relative to the configuration's root ("." for the root module). */
  modulePath: string;
  /** `terraform.workspace`, where the run tells it (engine/terraformWorkspace.ts); unknown otherwise. */
  workspaceName?: string;
  count?: number;
  each?: { key: string; value: LiteralValue };
  /** Names bound by `for` expressions and dynamic blocks' iterators. */
  symbols?: ReadonlyMap<string, LiteralValue>;
}

export function withSymbols(scope: Scope, symbols: Iterable<[string, LiteralValue]>): Scope {
  return { ...scope, symbols: new Map([...(scope.symbols ?? []), ...symbols]) };
}

/** Hostile or generated input must not exhaust the call stack: deeper than this is unknown. */
const maxDepth = 200;

/** The value of an `expression` node (or any node that is one of its parts). */
export function evaluate(node: Node, scope: Scope, depth = 0): Value {
  if (depth > maxDepth || node.isMissing || node.isError) return unknown;
  if (node.type === 'expression') return evaluateParts(partsOf(node), scope, depth + 1);
  return primary(node, scope, depth + 1);
}

/** Children without comments: a primary (or `( expression )`) followed by attribute, index and splat accesses. */
function partsOf(node: Node): Node[] {
  return node.children.filter((child): child is Node => child !== null && child.type !== 'comment');
}

function evaluateParts(parts: Node[], scope: Scope, depth: number): Value {
  const [first] = parts;
  if (!first) return unknown;
  let value: Value;
  let next: number;
  if (first.type === '(') [value, next] = [parts[1] ? evaluate(parts[1], scope, depth) : unknown, 3];
  else if (first.type === 'variable_expr') [value, next] = reference(parts, scope);
  else [value, next] = [primary(first, scope, depth), 1];
  // A missing attribute of a variable's, local's or literal's value is an error (`try` and `can` catch it); a
  // resource's or module's value may lack attributes the emulator does not know, which is no error of the code's.
  const strict = first.type !== 'variable_expr' || ['var', 'local', 'each', 'count', 'path', 'terraform'].includes(first.text) || scope.symbols?.has(first.text) === true;
  for (const part of parts.slice(next)) {
    if (value === unknown) break;
    value = access(value, part, scope, depth, strict);
  }
  return value;
}

/** Roots that are not a resource type (`data.*` is a data source: unknown, as it is only read at apply). */
const nonResourceRoots = new Set(['var', 'local', 'module', 'count', 'each', 'path', 'data', 'self', 'terraform']);

/** `var.x`, `local.x`, `count.index`, `each.key|value`, `module.x`, `path.module`, `type.name`, a `for` symbol; else unknown. */
function reference(parts: Node[], scope: Scope): [Value, number] {
  const name = parts[0]!.text;
  if (scope.symbols?.has(name)) return [scope.symbols.get(name)!, 1];
  const attribute = parts[1]?.type === 'get_attr' ? parts[1].namedChildren[0]?.text : undefined;
  if (attribute === undefined) return [unknown, 1];
  const value = ((): Value | undefined => {
    if (name === 'var') return scope.variable(attribute);
    if (name === 'local') return scope.local(attribute);
    if (name === 'module') return scope.module(attribute);
    if (name === 'count' && attribute === 'index') return scope.count;
    if (name === 'each' && (attribute === 'key' || attribute === 'value')) return scope.each?.[attribute];
    if (name === 'path' && attribute === 'module') return scope.modulePath;
    if (name === 'path' && (attribute === 'root' || attribute === 'cwd')) return '.';
    if (name === 'terraform' && attribute === 'workspace') return scope.workspaceName;
    if (!nonResourceRoots.has(name)) return scope.resource?.(name, attribute);
    return undefined;
  })();
  // A null variable or key is a known null, not unknown.
  return [value === undefined ? unknown : value, 2];
}

/** `.name`, `[key]`, `[*]` / `.*` applied to a known value; `strict`: a miss is reported as a problem. */
function access(value: LiteralValue, part: Node, scope: Scope, depth: number, strict = false): Value {
  const missing = (): Value => {
    if (strict) reportProblem({ kind: 'access', node: part });
    return unknown;
  };
  if (part.type === 'get_attr') {
    const name = part.namedChildren[0]?.text ?? '';
    return isObject(value) && Object.hasOwn(value, name) ? value[name]! : missing();
  }
  if (part.type === 'index') {
    const keyNode = part.namedChildren[0]?.type === 'new_index' ? part.namedChildren[0].namedChildren[0] : undefined;
    const key = keyNode ? evaluate(keyNode, scope, depth) : unknown;
    if (key === unknown) return unknown;
    if (Array.isArray(value)) {
      const index = asNumber(key);
      return index !== undefined && Number.isInteger(index) && index >= 0 && index < value.length ? value[index]! : missing();
    }
    const name = asText(key);
    return isObject(value) && name !== undefined && Object.hasOwn(value, name) ? value[name]! : missing();
  }
  if (part.type === 'splat') {
    const accesses = partsOf(part.namedChildren[0] ?? part).filter((child) => child.isNamed);
    const items = Array.isArray(value) ? value : value === null ? [] : [value];
    const results = items.map((item) => accesses.reduce<Value>((current, next) => (current === unknown ? unknown : access(current, next, scope, depth, strict)), item));
    return results.some((result) => result === unknown) ? unknown : (results as LiteralValue[]);
  }
  return unknown;
}

function primary(node: Node, scope: Scope, depth: number): Value {
  switch (node.type) {
    case 'expression':
      return evaluate(node, scope, depth);
    case 'literal_value': {
      // `null` is a known value (an output set to null is no change), not "known after apply".
      const literal = readLiteral(node);
      return literal ? literal.value : unknown;
    }
    case 'collection_value':
    case 'template_expr':
    case 'operation':
    case 'for_expr':
      return node.namedChildren[0] ? primary(node.namedChildren[0], scope, depth + 1) : unknown;
    case 'tuple':
      return all(node.namedChildren.filter((child) => child?.type === 'expression').map((item) => evaluate(item!, scope, depth)));
    case 'object':
      return objectOf(node, scope, depth);
    case 'quoted_template':
    case 'heredoc_template':
      return renderTemplate(node, (inner) => evaluate(inner, scope, depth));
    case 'function_call':
      return functionCall(node, scope, depth);
    case 'conditional': {
      const [condition, then, otherwise] = node.namedChildren.filter((child) => child?.type === 'expression');
      const test = condition ? evaluate(condition, scope, depth) : unknown;
      const chosen = test === true ? then : test === false ? otherwise : undefined;
      return chosen ? evaluate(chosen, scope, depth) : unknown;
    }
    case 'binary_operation':
      return binary(node, scope, depth);
    case 'unary_operation': {
      const [operator, ...operand] = partsOf(node);
      const value = evaluateParts(operand, scope, depth);
      if (operator?.type === '-' && typeof value === 'number') return -value;
      return operator?.type === '!' && typeof value === 'boolean' ? !value : unknown;
    }
    case 'for_tuple_expr':
    case 'for_object_expr':
      return forExpression(node, scope, depth);
    default:
      return unknown;
  }
}

function all(values: Value[]): Value {
  return values.some((value) => value === unknown) ? unknown : (values as LiteralValue[]);
}

function objectOf(object: Node, scope: Scope, depth: number): Value {
  const entries: [string, LiteralValue][] = [];
  for (const element of object.namedChildren) {
    if (element?.type !== 'object_elem') continue;
    const keyNode = element.childForFieldName('key');
    const valueNode = element.childForFieldName('val');
    // A bare identifier is the key's name; `(expr)` and templates are evaluated.
    const key = keyNode ? (objectKeyOf(keyNode) ?? evaluate(keyNode, scope, depth)) : unknown;
    const value = valueNode ? evaluate(valueNode, scope, depth) : unknown;
    const name = key === unknown ? undefined : asText(key);
    if (name === undefined || value === unknown) return unknown;
    entries.push([name, value]);
  }
  return Object.fromEntries(entries);
}

function functionCall(call: Node, scope: Scope, depth: number): Value {
  const name = call.namedChildren[0]?.type === 'identifier' ? call.namedChildren[0].text : '';
  // Provider functions (`provider::aws::arn_parse`) are the provider's to evaluate.
  if (!name || call.text.includes('::')) return unknown;
  const argumentList = call.namedChildren.find((child) => child?.type === 'function_arguments');
  const argumentNodes = (argumentList?.namedChildren ?? []).filter((child): child is Node => child?.type === 'expression');
  if (name === 'try' || name === 'can') return tryOrCan(name, call, argumentNodes, scope, depth);
  const args = argumentNodes.map((arg) => evaluate(arg, scope, depth));
  // `f(a, list...)` spreads its last argument.
  if (argumentList?.namedChildren.some((child) => child?.type === 'ellipsis')) {
    const last = args.pop();
    if (!Array.isArray(last)) return unknown;
    args.push(...last);
  }
  return callFunction(name, args, (problem) => reportProblem({ kind: 'function', name, problem, call, arguments: argumentNodes }));
}

/**
 * `try(a, b, …)`: the first argument that evaluates without an error; unknown as soon as one is unknown (Terraform
 * cannot tell yet whether it fails), and when all fail (Terraform's "no expression succeeded" is not imitated).
 * `can(x)`: whether x evaluates without an error.
 */
function tryOrCan(name: 'try' | 'can', call: Node, argumentNodes: Node[], scope: Scope, depth: number): Value {
  if (name === 'can' && argumentNodes.length !== 1) return unknown;
  if (argumentNodes.length === 0) {
    reportProblem({ kind: 'function', name, problem: { kind: 'call', message: 'at least one argument is required' }, call, arguments: argumentNodes });
    return unknown;
  }
  for (const argument of argumentNodes) {
    const [value, problems] = collectProblems(() => evaluate(argument, scope, depth));
    if (name === 'can') return problems.length > 0 ? false : value === unknown ? unknown : true;
    if (problems.length === 0) return value;
  }
  return unknown;
}

const arithmetic: Record<string, (a: number, b: number) => number> = { '+': (a, b) => a + b, '-': (a, b) => a - b, '*': (a, b) => a * b, '/': (a, b) => a / b, '%': (a, b) => a % b };
const comparison: Record<string, (a: number, b: number) => boolean> = { '<': (a, b) => a < b, '>': (a, b) => a > b, '<=': (a, b) => a <= b, '>=': (a, b) => a >= b };

/** Binary operations are flat in this grammar: the operand parts on either side of the operator token. */
function binary(operation: Node, scope: Scope, depth: number): Value {
  const parts = partsOf(operation);
  const at = parts.findIndex((part) => !part.isNamed && (part.type in arithmetic || part.type in comparison || ['==', '!=', '&&', '||'].includes(part.type)));
  if (at <= 0) return unknown;
  const operator = parts[at]!.type;
  const left = evaluateParts(parts.slice(0, at), scope, depth);
  const right = evaluateParts(parts.slice(at + 1), scope, depth);
  if (left === unknown || right === unknown) return unknown;
  if (operator === '==' || operator === '!=') return sameValue(left, right) === (operator === '==');
  if (operator === '&&' || operator === '||') return typeof left === 'boolean' && typeof right === 'boolean' ? (operator === '&&' ? left && right : left || right) : unknown;
  const [a, b] = [asNumber(left), asNumber(right)];
  if (a === undefined || b === undefined) return unknown;
  if (operator in comparison) return comparison[operator]!(a, b);
  const result = arithmetic[operator]!(a, b);
  return Number.isFinite(result) ? result : unknown;
}

/** `[for k, v in coll : value if cond]` and `{for k, v in coll : key => value if cond}`; grouping (`...`) is unknown. */
function forExpression(node: Node, scope: Scope, depth: number): Value {
  const intro = node.namedChildren.find((child) => child?.type === 'for_intro');
  const names = (intro?.namedChildren ?? []).filter((child) => child?.type === 'identifier').map((child) => child!.text);
  const collectionNode = intro?.namedChildren.find((child) => child?.type === 'expression');
  const collection = collectionNode ? evaluate(collectionNode, scope, depth) : unknown;
  const expressions = node.namedChildren.filter((child) => child?.type === 'expression') as Node[];
  const condition = node.namedChildren.find((child) => child?.type === 'for_cond')?.namedChildren[0];
  const isObjectResult = node.type === 'for_object_expr';
  if (collection === unknown || names.length === 0 || (isObjectResult && node.namedChildren.some((child) => child?.type === 'ellipsis'))) return unknown;
  const pairs: [LiteralValue, LiteralValue][] = Array.isArray(collection) ? collection.map((item, index) => [index, item]) : isObject(collection) ? Object.entries(collection) : [];
  if (!Array.isArray(collection) && !isObject(collection)) return unknown;
  const tuple: LiteralValue[] = [];
  const entries: [string, LiteralValue][] = [];
  for (const [key, item] of pairs) {
    const inner = withSymbols(scope, names.length === 2 ? [[names[0]!, key], [names[1]!, item]] : [[names[0]!, item]]);
    if (condition) {
      const keep = evaluate(condition, inner, depth);
      if (keep === unknown || typeof keep !== 'boolean') return unknown;
      if (!keep) continue;
    }
    const values = expressions.map((expression) => evaluate(expression, inner, depth));
    if (values.some((value) => value === unknown)) return unknown;
    if (!isObjectResult) tuple.push(values[0] as LiteralValue);
    else {
      const name = asText(values[0] as LiteralValue);
      if (name === undefined || values[1] === undefined) return unknown;
      entries.push([name, values[1] as LiteralValue]);
    }
  }
  return isObjectResult ? Object.fromEntries(entries) : tuple;
}

/** The value of the reference a `variable_expr` starts (`var.x`, `each.value`, `module.net`), without later accesses. */
export function referenceValue(variable: Node, scope: Scope): Value {
  const next = variable.nextNamedSibling;
  return reference(next ? [variable, next] : [variable], scope)[0];
}
