// Function calls that fail, found by evaluating the root module's expressions as Terraform does twice: while
// validating (every variable unknown, so only calls on constants fail) and while planning (with the variables'
// values). Each failure is Terraform's diagnostic: "Invalid function argument" pointing at the argument, "Error in
// function call", "Call to unknown function", with the "while calling f(params)" line the CLI draws from it.
import type { Node } from 'web-tree-sitter';
import { attributeName, attributeValue, bodyItems } from '../../../server/src/model/syntaxTree';
import { evaluate, type Scope } from '../engine/evaluate';
import { collectProblems, type EvaluationProblem } from '../engine/evaluationProblems';
import { functionSignatures } from '../engine/functionSignatures';
import { expand, ModuleInstance, type Binding, type ConfigBlock } from '../engine/modules';
import { unknown } from '../engine/values';
import type { TerraformType } from '../../../server/src/model';
import type { ConfigurationFinding, FindingLocation } from './configurationCheck';
import { expressionValues, type Hidden } from './variableValidation';

export interface CallCheckFile {
  path: string;
  lines: string[];
  blocks: ConfigBlock[];
}

/** Blocks whose expressions Terraform does not evaluate as values (addresses, types, settings). */
const skippedBlocks = new Set(['terraform', 'variable', 'moved', 'removed', 'import', 'provider']);
/** Arguments that hold addresses, not values. */
const addressArguments = new Set(['depends_on', 'ignore_changes', 'replace_triggered_by', 'providers', 'provider']);

/** 'validate': the validate pass (every root variable unknown); a binding: the plan pass with the variables' values. */
export function functionCallFindings(
  files: CallCheckFile[],
  binding: Binding | 'validate',
  {
    types = new Map(),
    runVariable = () => false,
    unreached = new Set(),
  }: {
    types?: ReadonlyMap<string, TerraformType | undefined>;
    runVariable?: (name: string) => boolean;
    /** Variables that failed their validation rules: a call reading one is never evaluated. */
    unreached?: ReadonlySet<string>;
  } = {},
): ConfigurationFinding[] {
  const variables: Binding = binding === 'validate' ? { value: () => unknown, sensitive: () => false } : binding;
  const root = new ModuleInstance(new Map([['', files.flatMap((file) => file.blocks)]]), '', '', variables);
  // The "var.x is …" lines under a failed call: what the call read, never a sensitive or run variable's value.
  const hidden: Hidden = { variable: (name) => root.sensitivity.variable(name) || runVariable(name), local: (name) => root.sensitivity.local(name) };
  const valuesOf = (node: Node) => expressionValues(node, root.scope, hidden, types);
  const [, problems] = collectProblems(() => {
    for (const block of files.flatMap((file) => file.blocks)) {
      if (skippedBlocks.has(block.keyword)) continue;
      if (block.keyword === 'locals') {
        for (const item of bodyItems(block.node)) if (item.type === 'attribute') root.scope.local(attributeName(item));
        continue;
      }
      const instances = block.keyword === 'resource' || block.keyword === 'data' || block.keyword === 'module' ? expand(block.node, root.scope).instances : [{ scope: root.scope }];
      for (const { scope } of instances) evaluateBody(block.node, scope);
    }
  });
  const fileOf = (node: Node) => files.find((file) => file.blocks.some((block) => block.node.startIndex <= node.startIndex && node.endIndex <= block.node.endIndex));
  const findings = new Map<string, ConfigurationFinding>();
  for (const problem of problems) {
    if (problem.kind !== 'function' || readsAny(problem.call, unreached)) continue;
    const finding = findingOf(problem, fileOf(problem.call), valuesOf);
    if (!finding) continue;
    // An expression evaluated once per instance (or read by several others) fails the same way each time: said once.
    findings.set(`${finding.location?.file}:${finding.location?.line}:${finding.location?.columns?.start}:${finding.detail}`, finding);
  }
  return [...findings.values()];
}

/** Every argument in a block and its nested blocks (a dynamic block's content reads its iterator: unknown here). */
function evaluateBody(block: Node, scope: Scope): void {
  for (const item of bodyItems(block)) {
    if (item.type === 'attribute') {
      const value = attributeValue(item);
      if (value && !addressArguments.has(attributeName(item))) evaluate(value, scope);
    } else evaluateBody(item, scope);
  }
}

function findingOf(problem: Extract<EvaluationProblem, { kind: 'function' }>, file: CallCheckFile | undefined, valuesOf: (node: Node) => ConfigurationFinding['values']): ConfigurationFinding | undefined {
  if (!file) return undefined;
  const block = file.blocks.find((candidate) => candidate.node.startIndex <= problem.call.startIndex && problem.call.endIndex <= candidate.node.endIndex);
  const context = block ? [block.keyword, ...block.labels.map((label) => JSON.stringify(label))].join(' ') : undefined;
  const [params, variadic] = functionSignatures[problem.name] ?? [[]];
  const functionCall = { calledAs: problem.name, params: [...params], ...(variadic ? { variadic } : {}) };
  const { problem: what } = problem;
  if (what.kind === 'unknown-function') {
    const name = problem.call.namedChildren[0] ?? problem.call;
    return { severity: 'error', summary: 'Call to unknown function', detail: `There is no function named "${problem.name}".`, location: locationOf(file, name, context) };
  }
  if (what.kind === 'argument') {
    const argument = problem.arguments[what.index] ?? problem.call;
    return { severity: 'error', summary: 'Invalid function argument', detail: `Invalid value for "${what.parameter}" parameter: ${what.message}.`, location: locationOf(file, argument, context), values: valuesOf(argument), functionCall };
  }
  return { severity: 'error', summary: 'Error in function call', detail: `Call to function "${problem.name}" failed: ${what.message}.`, location: locationOf(file, problem.call, context), values: valuesOf(problem.call), functionCall };
}

function locationOf(file: CallCheckFile, node: Node, context: string | undefined): FindingLocation {
  const line = node.startPosition.row;
  const text = file.lines[line] ?? '';
  const end = node.endPosition.row === line ? node.endPosition.column : text.length;
  return { file: file.path, line: line + 1, text, ...(context ? { context } : {}), columns: { start: node.startPosition.column + 1, end: end + 1 } };
}

function readsAny(node: Node, variables: ReadonlySet<string>): boolean {
  return node.descendantsOfType('variable_expr').some((variable) => variable?.text === 'var' && variables.has(variable.nextNamedSibling?.namedChildren[0]?.text ?? ''));
}
