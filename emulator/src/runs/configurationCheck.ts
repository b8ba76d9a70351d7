// What `terraform plan` would refuse before planning anything, checked against the configuration version's
// files: required variables with no value anywhere, values that do not convert to the declared type, references
// to undeclared variables, HCL workspace variables that do not parse. Only configurations that came with `.tf`
// files are checked (seeded versions without files plan as their workspace's outcome says).
// The files are read with the language server's tree-sitter model, the same one the editor's diagnostics use,
// so the emulator and the extension agree on what a configuration declares and references.
// Values are never quoted in the findings: variables may be sensitive.
import type { Node, Tree } from 'web-tree-sitter';
import type { TerraformParser, TerraformType, VariableDeclaration } from '../../../server/src/model';
import { checkValueAgainstType, extractTerraformFile } from '../../../server/src/model';
import { blockKeyword, blockLabelNodes, labelValue, topLevelBlocks } from '../../../server/src/model/syntaxTree';
import type { ConfigBlock } from '../engine/modules';
import { variableValues } from '../engine/plan';
import { undeclaredReferences } from '../engine/undeclaredReferences';
import { functionCallFindings } from './functionCallCheck';
import { variableValidationFindings } from './variableValidation';
import type { LiteralValue } from '../../../server/src/model';
import { readHclValue } from '../engine/hclValue';
import { assignedVariables } from '../engine/variableAssignments';
import type { Variable } from '../store/model';
import type { RunVariable } from './model';

export interface ConfigurationFinding {
  severity: 'error' | 'warning';
  summary: string;
  detail: string;
  /** `on <file> line <n>, in <context>:` and the line as written, when the finding points at a line. */
  location?: FindingLocation;
  /** Terraform's "├── var.x is \"a\"" lines under the snippet (never a sensitive value). */
  values?: Array<{ traversal: string; statement: string }>;
  /** The function a failed call called, for the CLI's "while calling f(a, b...)" line. */
  functionCall?: { calledAs: string; params: string[]; variadic?: string };
}

export interface FindingLocation {
  file: string;
  /** 1-based. */
  line: number;
  /** The line as written (indentation kept, as Terraform's snippet shows it). */
  text: string;
  /** The enclosing top-level block's header (`resource "terraform_data" "a"`, `locals`), Terraform's "in …". */
  context?: string;
  /** The highlighted part of the line, 1-based columns, end exclusive; the whole line's text when absent. */
  columns?: { start: number; end: number };
}

export interface CheckInputs {
  /** Without a parser (a store built without one, in unit tests) nothing is checked. */
  parser: TerraformParser | undefined;
  files: Map<string, Buffer>;
  workspaceVariables: Variable[];
  runVariables: RunVariable[];
}

interface RootFile {
  path: string;
  lines: string[];
  variables: VariableDeclaration[];
  /** Its top-level blocks; their nodes live until the check deletes the tree. */
  blocks: ConfigBlock[];
  tree: Tree;
}

export function checkConfiguration({ parser, files, workspaceVariables, runVariables }: CheckInputs): ConfigurationFinding[] {
  // Only the root module's variables take workspace and run values; a module's come from its caller.
  const tfPaths = [...files.keys()].filter((path) => path.endsWith('.tf') && !path.includes('/')).sort((a, b) => a.localeCompare(b));
  if (!parser || tfPaths.length === 0) return [];
  const rootFiles = tfPaths.map((path) => readRootFile(parser, path, files.get(path)!.toString('utf8')));
  try {
    return checkRootFiles(parser, rootFiles, { files, workspaceVariables, runVariables });
  } finally {
    for (const file of rootFiles) file.tree.delete();
  }
}

function checkRootFiles(parser: TerraformParser, rootFiles: RootFile[], { files, workspaceVariables, runVariables }: Omit<CheckInputs, 'parser'>): ConfigurationFinding[] {
  const declared = new Map(rootFiles.flatMap((file) => file.variables.map((variable) => [variable.name, { variable, file }] as const)));
  const values = assignedVariables(parser, files, workspaceVariables, runVariables);
  const findings: ConfigurationFinding[] = [];

  for (const { variable, file } of declared.values()) {
    const location = lineOf(file, variable.range.start.line);
    const source = values.get(variable.name);
    if (!source) {
      if (!variable.default) {
        findings.push({
          severity: 'error',
          summary: 'No value for required variable',
          detail: `The root module input variable "${variable.name}" is not set, and has no default value. Set it as a workspace variable or in a .tfvars file.`,
          location,
        });
      }
      continue;
    }
    const problem = variable.type && source.value !== undefined ? typeProblem(source.value, variable.type.parsed) : undefined;
    if (problem) {
      findings.push({
        severity: 'error',
        summary: 'Invalid value for input variable',
        detail: `The value for variable "${variable.name}" from ${source.origin} is not suitable: ${problem}.`,
        location,
      });
    }
  }

  // What `terraform validate` would find undeclared (every plan validates first).
  const fileOf = new Map(rootFiles.flatMap((file) => file.blocks.map((block) => [block.node.id, file] as const)));
  for (const reference of undeclaredReferences(rootFiles.flatMap((file) => file.blocks))) {
    const file = fileOf.get(reference.block.node.id)!;
    findings.push({ severity: 'error', summary: reference.summary, detail: reference.detail, location: nodeLocation(file, reference.from, reference.to, reference.block) });
  }

  for (const variable of workspaceVariables) {
    if (variable.category !== 'engine') continue;
    if (variable.hcl && !readHclValue(parser, variable.value).parses) {
      findings.push({
        severity: 'error',
        summary: 'Invalid expression',
        detail: `The HCL value of workspace variable "${variable.key}" does not parse: check its brackets, braces and quotes.`,
      });
    }
    if (!declared.has(variable.key)) {
      findings.push({
        severity: 'warning',
        summary: 'Value for undeclared variable',
        detail: `The root module does not declare a variable named "${variable.key}" but a workspace variable sets it. Remove the workspace variable or declare it.`,
      });
    }
  }
  // Then as Terraform goes on, each stage only when everything before passed: validate (calls on constants fail),
  // the variables' validation rules, and the plan (calls on the variables' values fail).
  const failed = () => findings.some((finding) => finding.severity === 'error');
  if (!failed()) findings.push(...functionCallFindings(rootFiles, 'validate'));
  // The plan walk checks the rules and evaluates everything else side by side: a call fails there too, unless it
  // reads a variable that failed its rules (the walk never gets to it).
  if (failed()) return findings;
  const planValues = variableValues(parser, files, workspaceVariables, runVariables);
  const types = new Map([...declared].map(([name, { variable }]) => [name, variable.type?.parsed]));
  const validation = variableValidationFindings({ rootFiles, files, values: planValues, assigned: values, types });
  findings.push(...validation.findings);
  const binding = { value: (name: string) => planValues.get(name), sensitive: (name: string) => planValues.sensitive.has(name) };
  const runVariable = (name: string) => values.get(name)?.origin === "the run's variables";
  findings.push(...functionCallFindings(rootFiles, binding, { types, runVariable, unreached: validation.failed }));
  return findings;
}

/** Terraform's boxed diagnostic, as it appears in a plan log. */
export function findingLines(finding: ConfigurationFinding): string[] {
  const lines = ['╷', `│ ${finding.severity === 'error' ? 'Error' : 'Warning'}: ${finding.summary}`, '│'];
  if (finding.location) {
    const { file, line, text, context } = finding.location;
    // Terraform's snippet: the line number right-aligned in four columns, then the code as written.
    lines.push(`│   on ${file} line ${line}${context ? `, in ${context}` : ''}:`, `│ ${String(line).padStart(4)}: ${text}`);
    if (finding.values?.length || finding.functionCall) lines.push('│     ├────────────────');
    if (finding.functionCall) lines.push(`│     │ while calling ${callSignature(finding.functionCall)}`);
    if (finding.values?.length) lines.push(...finding.values.map(({ traversal, statement }) => `│     │ ${traversal} ${statement}`));
    lines.push('│');
  }
  // Each line of the detail inside the box (a paragraph break is a bare bar, as the box's other blank lines).
  lines.push(...finding.detail.split('\n').map((line) => (line === '' ? '│' : `│ ${line}`)), '╵');
  return lines;
}

/** `element(list, index)`, `join(separator, lists...)`: the signature as the CLI prints it. */
export function callSignature({ calledAs, params, variadic }: NonNullable<ConfigurationFinding['functionCall']>): string {
  return `${calledAs}(${[...params, ...(variadic ? [`${variadic}...`] : [])].join(', ')})`;
}

function readRootFile(parser: TerraformParser, path: string, text: string): RootFile {
  const tree = parser.parse(text);
  const { variables } = extractTerraformFile(tree, path, (start, end) => parser.parseRegion(text, start, end));
  const blocks = topLevelBlocks(tree.rootNode).map((node) => ({ keyword: blockKeyword(node), labels: blockLabelNodes(node).map(labelValue), node }));
  return { path, lines: text.split('\n'), variables, blocks, tree };
}

/** Where Terraform points for an expression: its first line, the columns it covers there, the block it is in. */
function nodeLocation(file: RootFile, from: Node, to: Node, block: ConfigBlock): FindingLocation {
  const line = from.startPosition.row;
  const end = to.endPosition.row === line ? to.endPosition.column : (file.lines[line] ?? '').length;
  return { ...lineOf(file, line), context: blockContext(block), columns: { start: from.startPosition.column + 1, end: end + 1 } };
}

/** `resource "terraform_data" "a"`, `output "o"`, `locals`: the header Terraform names after "in". */
function blockContext({ keyword, labels }: ConfigBlock): string {
  return [keyword, ...labels.map((label) => JSON.stringify(label))].join(' ');
}

/** Terraform's `on <file> line <n>:` context: the line as written. */
function lineOf(file: RootFile, zeroBasedLine: number): FindingLocation {
  return { file: file.path, line: zeroBasedLine + 1, text: file.lines[zeroBasedLine] ?? '' };
}

/** Why a value cannot be converted to the declared type, in Terraform's words and without the value itself. */
function typeProblem(value: LiteralValue, type: TerraformType): string | undefined {
  const mismatch = checkValueAgainstType(value, type, { hideValues: true });
  if (!mismatch) return undefined;
  if (mismatch.path === '' && (type.kind === 'number' || type.kind === 'bool' || type.kind === 'string')) {
    return typeof value === 'object' && value !== null ? `a ${type.kind} is required, not a collection` : `a ${type.kind} is required`;
  }
  return mismatch.message;
}
