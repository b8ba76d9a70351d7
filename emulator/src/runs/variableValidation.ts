// Root module variables' `validation` rules, checked as a plan does once the variables have values
// (internal/terraform/eval_variable.go): each rule's condition is evaluated with the variable's value (a workspace,
// run or TF_VAR_ variable, a tfvars file, else the default); false fails the plan with "Invalid value for variable",
// the rule's error_message and where the rule is. A condition the engine cannot evaluate (a function it lacks, a
// resource attribute) is skipped, as Terraform skips an unknown one: never a guess.
import type { Node } from 'web-tree-sitter';
import type { LiteralValue, TerraformType } from '../../../server/src/model';
import { attributeName, blockKeyword, bodyItems } from '../../../server/src/model/syntaxTree';
import { evaluate, type Scope } from '../engine/evaluate';
import { formatFloat } from '../engine/goNumberText';
import { attributeNode, ModuleInstance, type ConfigBlock } from '../engine/modules';
import { asText, isObject, unknown, type Value, type VariableValueMap } from '../engine/values';
import type { AssignedValue } from '../engine/variableAssignments';
import type { ConfigurationFinding, FindingLocation } from './configurationCheck';

export interface ValidationFile {
  path: string;
  lines: string[];
  blocks: ConfigBlock[];
}

export interface ValidationInputs {
  rootFiles: ValidationFile[];
  /** Every upload's file, for the line a tfvars file sets a variable on. */
  files: ReadonlyMap<string, Buffer>;
  /** What variableValues gives a plan (its `sensitive` names the workspace's sensitive variables). */
  values: VariableValueMap;
  /** Where each value came from (assignedVariables). */
  assigned: ReadonlyMap<string, AssignedValue>;
  /** Declared types by variable name, for the type named in "is list of string with 2 elements". */
  types: ReadonlyMap<string, TerraformType | undefined>;
}

/** The failures, and the variables that failed (what reads them is not planned). */
export function variableValidationFindings({ rootFiles, files, values, assigned, types }: ValidationInputs): { findings: ConfigurationFinding[]; failed: Set<string> } {
  const root = new ModuleInstance(new Map([['', rootFiles.flatMap((file) => file.blocks)]]), '', '', { value: (name) => values.get(name), sensitive: (name) => values.sensitive.has(name) });
  const hidden: Hidden = { variable: (variable) => root.sensitivity.variable(variable) || assigned.get(variable)?.origin === "the run's variables", local: (local) => root.sensitivity.local(local) };
  // Each variable's failures and the other variables its rules read: Terraform checks a variable only after those
  // (a rule may read other variables since 1.9), and not at all when one of them failed its own rules.
  const checked = new Map<string, { findings: ConfigurationFinding[]; reads: Set<string> }>();
  for (const file of rootFiles) {
    for (const block of file.blocks) {
      const name = block.labels[0];
      if (block.keyword !== 'variable' || !name) continue;
      const rules = bodyItems(block.node).filter((item) => item.type === 'block' && blockKeyword(item) === 'validation');
      const findings: ConfigurationFinding[] = [];
      const reads = new Set(rules.flatMap((rule) => variablesIn(rule)).filter((read) => read !== name));
      for (const rule of rules) {
        const failure = ruleFailure(rule, root.scope, hidden);
        if (!failure) continue;
        const ruleAt = `${file.path}:${rule.startPosition.row + 1},${rule.startPosition.column + 1}-${rule.startPosition.column + 1 + 'validation'.length}`;
        const invalidValue = failure.summary === 'Invalid value for variable';
        findings.push({
          severity: 'error',
          summary: failure.summary,
          detail: invalidValue ? `${failure.detail}\n\nThis was checked by the validation rule at ${ruleAt}.` : failure.detail,
          location: invalidValue ? valueLocation(file, block, assigned.get(name), files) : ruleConditionLocation(file, rule),
          values: failure.values(types),
        });
      }
      checked.set(name, { findings, reads });
    }
  }
  const blocked = (name: string, seen: Set<string>): boolean =>
    [...(checked.get(name)?.reads ?? [])].some((read) => !seen.has(read) && ((checked.get(read)?.findings.length ?? 0) > 0 || blocked(read, new Set([...seen, read]))));
  const reported = [...checked].filter(([name, { findings }]) => findings.length > 0 && !blocked(name, new Set([name])));
  return { findings: reported.flatMap(([, { findings }]) => findings), failed: new Set([...checked].filter(([, { findings }]) => findings.length > 0).map(([name]) => name)) };
}

interface RuleFailure {
  summary: string;
  detail: string;
  values(types: ValidationInputs['types']): FindingLocationValues;
}
type FindingLocationValues = NonNullable<ConfigurationFinding['values']>;

/** What is wrong with one rule, or undefined when it holds (or cannot be known here). */
function ruleFailure(rule: Node, scope: Scope, hidden: Hidden): RuleFailure | undefined {
  const condition = attributeNode(rule, 'condition');
  if (!condition) return undefined;
  const result = evaluate(condition, scope);
  const values = (types: ValidationInputs['types']) => expressionValues(condition, scope, hidden, types);
  if (result === unknown) return undefined;
  if (result === null) return { summary: 'Invalid variable validation result', detail: 'Validation condition expression must return either true or false, not null.', values };
  // Terraform converts the result to bool: "true"/"false" strings pass, anything else is not a condition.
  const holds = result === true || result === 'true' ? true : result === false || result === 'false' ? false : undefined;
  if (holds === undefined) return { summary: 'Invalid variable validation result', detail: 'Invalid validation condition result value: bool required.', values };
  if (holds) return undefined;
  const messageNode = attributeNode(rule, 'error_message');
  const message = messageNode ? evaluate(messageNode, scope) : unknown;
  const readsHidden = messageNode !== undefined && referencesIn(messageNode).some(({ root, name }) => (root === 'var' ? hidden.variable(name) : hidden.local(name)));
  const text = readsHidden ? 'The error message included a sensitive value, so it will not be displayed.' : message === unknown || message === null ? undefined : asText(message)?.trim();
  return { summary: 'Invalid value for variable', detail: text || 'Failed to evaluate condition error message.', values };
}

/** `var.x` names an expression reads. */
function variablesIn(node: Node): string[] {
  return referencesIn(node).flatMap(({ root, name }) => (root === 'var' ? [name] : []));
}

/** `var.x` and `local.x` an expression reads, each once. */
function referencesIn(node: Node): Array<{ root: 'var' | 'local'; name: string }> {
  const found = new Map<string, { root: 'var' | 'local'; name: string }>();
  for (const variable of node.descendantsOfType('variable_expr')) {
    const root = variable?.text;
    const attribute = variable?.nextNamedSibling;
    if ((root === 'var' || root === 'local') && attribute?.type === 'get_attr') {
      const name = attribute.namedChildren[0]?.text ?? '';
      found.set(`${root}.${name}`, { root, name });
    }
  }
  return [...found.values()];
}

/** Which values a diagnostic must not show: sensitive variables and locals, run variables. */
export interface Hidden {
  variable(name: string): boolean;
  local(name: string): boolean;
}

/**
 * Terraform's "var.env is \"prod\"" lines: each variable and local value the expression reads, once, sorted by
 * traversal. A sensitive one (or a run variable's) is left out: Terraform 1.11 shows a sensitive variable's own value
 * in a validation error, the emulator never shows one. An unknown value is left out too.
 */
export function expressionValues(node: Node, scope: Scope, hidden: Hidden, types: ValidationInputs['types']): FindingLocationValues {
  return referencesIn(node)
    .filter(({ root, name }) => !(root === 'var' ? hidden.variable(name) : hidden.local(name)))
    .flatMap(({ root, name }) => {
      const value = root === 'var' ? scope.variable(name) : scope.local(name);
      return value === unknown ? [] : [{ traversal: `${root}.${name}`, statement: `is ${compactValue(value, root === 'var' ? types.get(name) : undefined)}` }];
    })
    .sort((a, b) => (a.traversal < b.traversal ? -1 : a.traversal > b.traversal ? 1 : 0));
}

/** tfdiags.CompactValueStr: primitives in full, collections by type and size. */
export function compactValue(value: LiteralValue, type: TerraformType | undefined): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return formatFloat(value, 'g', 10) ?? String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value) || (isObject(value) && type && (type.kind === 'map' || type.kind === 'list' || type.kind === 'set'))) {
    const length = Array.isArray(value) ? value.length : Object.keys(value).length;
    const name = friendlyName(value, type);
    return length === 0 ? `empty ${name}` : `${name} with ${length} element${length === 1 ? '' : 's'}`;
  }
  const keys = Object.keys(value);
  return keys.length === 0 ? 'object with no attributes' : keys.length === 1 ? `object with 1 attribute ${JSON.stringify(keys[0])}` : `object with ${keys.length} attributes`;
}

/** cty's FriendlyName for a collection: "list of string", "map of number"; a literal without a declared type is a tuple. */
function friendlyName(value: LiteralValue, type: TerraformType | undefined): string {
  if (!type || type.kind === 'any' || type.kind === 'unknown' || type.kind === 'tuple') return Array.isArray(value) ? 'tuple' : 'object';
  if (type.kind === 'list' || type.kind === 'set' || type.kind === 'map') return `${type.kind} of ${elementName(type.element, Array.isArray(value) ? value[0] : isObject(value) ? Object.values(value)[0] : undefined)}`;
  return type.kind;
}

function elementName(type: TerraformType, sample: LiteralValue | undefined): string {
  if (type.kind === 'list' || type.kind === 'set' || type.kind === 'map') return `${type.kind} of ${elementName(type.element, undefined)}`;
  if (type.kind === 'any') return typeof sample === 'string' ? 'string' : typeof sample === 'number' ? 'number' : typeof sample === 'boolean' ? 'bool' : 'dynamic';
  return type.kind === 'unknown' ? 'dynamic' : type.kind;
}

/**
 * Where Terraform points for a value that failed its rule: the tfvars line that set it, when a file in the upload
 * did; otherwise (a default, a workspace, TF_VAR_ or run variable) the `variable "x"` header.
 */
function valueLocation(file: ValidationFile, block: ConfigBlock, source: AssignedValue | undefined, files: ReadonlyMap<string, Buffer>): FindingLocation {
  if (source && files.has(source.origin) && !source.origin.endsWith('.json')) {
    const lines = files.get(source.origin)!.toString('utf8').split('\n');
    const name = block.labels[0]!;
    const at = lines.findIndex((line) => new RegExp(`^\\s*${name.replace(/[^\w-]/g, '\\$&')}\\s*=`).test(line));
    // Terraform highlights the value: from after `=` to the line's end.
    if (at >= 0) return { file: source.origin, line: at + 1, text: lines[at]!, columns: { start: /^[^=]*=\s*/.exec(lines[at]!)![0].length + 1, end: lines[at]!.trimEnd().length + 1 } };
  }
  const line = block.node.startPosition.row;
  const text = file.lines[line] ?? '';
  const header = text.slice(0, text.lastIndexOf('{')).trimEnd();
  return { file: file.path, line: line + 1, text, columns: { start: block.node.startPosition.column + 1, end: header.length + 1 } };
}

/** An invalid result points at the condition, inside its variable block. */
function ruleConditionLocation(file: ValidationFile, rule: Node): FindingLocation {
  const attribute = bodyItems(rule).find((item) => item.type === 'attribute' && attributeName(item) === 'condition') ?? rule;
  const line = attribute.startPosition.row;
  let parent = rule.parent;
  while (parent && parent.type !== 'block') parent = parent.parent;
  const header = parent ? (file.lines[parent.startPosition.row] ?? '').replace(/\s*\{.*$/, '').trim() : undefined;
  return { file: file.path, line: line + 1, text: file.lines[line] ?? '', ...(header ? { context: header } : {}) };
}
