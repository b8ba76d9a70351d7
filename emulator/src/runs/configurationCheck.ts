// What `terraform plan` would refuse before planning anything, checked against the configuration version's
// files: required variables with no value anywhere, values that do not convert to the declared type, references
// to undeclared variables, HCL workspace variables that do not parse. Only configurations that came with `.tf`
// files are checked (seeded versions without files plan as their workspace's outcome says).
// The files are read with the language server's tree-sitter model, the same one the editor's diagnostics use,
// so the emulator and the extension agree on what a configuration declares and references.
// Values are never quoted in the findings: variables may be sensitive.
import type { TerraformParser, TerraformType, VariableDeclaration, VariableReference } from '../../../server/src/model';
import { checkValueAgainstType, extractTerraformFile, referenceRange } from '../../../server/src/model';
import type { LiteralValue } from '../../../server/src/model';
import { readHclValue } from '../engine/hclValue';
import { assignedVariables } from '../engine/variableAssignments';
import type { Variable } from '../store/model';
import type { RunVariable } from './model';

export interface ConfigurationFinding {
  severity: 'error' | 'warning';
  summary: string;
  detail: string;
  /** `on <file> line <n>:` context, when the finding points at a line. */
  location?: { file: string; line: number; text: string };
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
  references: VariableReference[];
}

export function checkConfiguration({ parser, files, workspaceVariables, runVariables }: CheckInputs): ConfigurationFinding[] {
  // Only the root module's variables take workspace and run values; a module's come from its caller.
  const tfPaths = [...files.keys()].filter((path) => path.endsWith('.tf') && !path.includes('/')).sort((a, b) => a.localeCompare(b));
  if (!parser || tfPaths.length === 0) return [];
  const rootFiles = tfPaths.map((path) => readRootFile(parser, path, files.get(path)!.toString('utf8')));
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

  for (const file of rootFiles) {
    for (const reference of file.references) {
      if (!reference.name || declared.has(reference.name)) continue;
      findings.push({
        severity: 'error',
        summary: 'Reference to undeclared input variable',
        detail: `An input variable with the name "${reference.name}" has not been declared. Declare it with a variable "${reference.name}" {} block.`,
        location: lineOf(file, referenceRange(reference).start.line),
      });
    }
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
  return findings;
}

/** Terraform's boxed diagnostic, as it appears in a plan log. */
export function findingLines(finding: ConfigurationFinding): string[] {
  const lines = ['╷', `│ ${finding.severity === 'error' ? 'Error' : 'Warning'}: ${finding.summary}`, '│'];
  if (finding.location) {
    const { file, line, text } = finding.location;
    lines.push(`│   on ${file} line ${line}:`, `│   ${line}: ${text}`, '│');
  }
  // Each line of the detail inside the box (a paragraph break is a bare bar, as the box's other blank lines).
  lines.push(...finding.detail.split('\n').map((line) => (line === '' ? '│' : `│ ${line}`)), '╵');
  return lines;
}

function readRootFile(parser: TerraformParser, path: string, text: string): RootFile {
  const tree = parser.parse(text);
  try {
    const { variables, references } = extractTerraformFile(tree, path, (start, end) => parser.parseRegion(text, start, end));
    return { path, lines: text.split('\n'), variables, references };
  } finally {
    tree.delete();
  }
}

/** Terraform's `on <file> line <n>:` context: the line as written, trimmed. */
function lineOf(file: RootFile, zeroBasedLine: number): ConfigurationFinding['location'] {
  return { file: file.path, line: zeroBasedLine + 1, text: (file.lines[zeroBasedLine] ?? '').trim() };
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
