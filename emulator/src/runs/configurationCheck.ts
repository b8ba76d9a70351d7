// What `terraform plan` would refuse before planning anything, checked against the configuration version's
// files: required variables with no value anywhere, values that cannot be a declared number or bool,
// references to undeclared variables, HCL workspace variables that do not parse. Only configurations that
// came with `.tf` files are checked (seeded versions without files plan as their workspace's outcome says).
// Values are never quoted in the findings: variables may be sensitive.
import type { Variable } from '../store/model';
import type { RunVariable } from './model';

export interface ConfigurationFinding {
  severity: 'error' | 'warning';
  summary: string;
  detail: string;
  /** `on <file> line <n>:` context, when the finding points at a line. */
  location?: { file: string; line: number; text: string };
}

interface DeclaredVariable {
  name: string;
  type: string | undefined;
  hasDefault: boolean;
  file: string;
  line: number;
  text: string;
}

interface ValueSource {
  /** Raw value: HCL text for tfvars, run variables and HCL workspace variables; plain text otherwise. */
  value: string;
  isHcl: boolean;
  origin: string;
}

export interface CheckInputs {
  files: Map<string, Buffer>;
  workspaceVariables: Variable[];
  runVariables: RunVariable[];
}

export function checkConfiguration({ files, workspaceVariables, runVariables }: CheckInputs): ConfigurationFinding[] {
  // Only the root module's variables take workspace and run values; a module's come from its caller.
  const tfFiles = [...files.entries()].filter(([path]) => path.endsWith('.tf') && !path.includes('/')).sort(([a], [b]) => a.localeCompare(b));
  if (tfFiles.length === 0) return [];
  const texts = tfFiles.map(([path, content]) => ({ path, text: content.toString('utf8') }));
  const declared = new Map(texts.flatMap(({ path, text }) => declaredVariables(path, text)).map((v) => [v.name, v]));
  const values = effectiveValues(files, workspaceVariables, runVariables);
  const findings: ConfigurationFinding[] = [];

  for (const variable of declared.values()) {
    const source = values.get(variable.name);
    if (!source) {
      if (!variable.hasDefault) {
        findings.push({
          severity: 'error',
          summary: 'No value for required variable',
          detail: `The root module input variable "${variable.name}" is not set, and has no default value. Set it as a workspace variable or in a .tfvars file.`,
          location: variable,
        });
      }
      continue;
    }
    const problem = typeProblem(variable.type, source);
    if (problem) {
      findings.push({
        severity: 'error',
        summary: 'Invalid value for input variable',
        detail: `The value for variable "${variable.name}" from ${source.origin} is not suitable: ${problem}.`,
        location: variable,
      });
    }
  }

  for (const { path, text } of texts) {
    text.split('\n').forEach((line, index) => {
      if (/^\s*(#|\/\/)/.test(line)) return; // a comment may mention var.anything
      for (const match of line.matchAll(/\bvar\.([A-Za-z_][\w-]*)/g)) {
        if (declared.has(match[1]!)) continue;
        findings.push({
          severity: 'error',
          summary: 'Reference to undeclared input variable',
          detail: `An input variable with the name "${match[1]}" has not been declared. Declare it with a variable "${match[1]}" {} block.`,
          location: { file: path, line: index + 1, text: line.trim() },
        });
      }
    });
  }

  for (const variable of workspaceVariables) {
    if (variable.category !== 'engine') continue;
    if (variable.hcl && !looksBalanced(variable.value)) {
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
  lines.push(`│ ${finding.detail}`, '╵');
  return lines;
}

function declaredVariables(path: string, text: string): DeclaredVariable[] {
  const result: DeclaredVariable[] = [];
  const header = /^\s*variable\s+"([A-Za-z_][\w-]*)"\s*\{/gm;
  for (const match of text.matchAll(header)) {
    const start = match.index! + match[0].length;
    const body = blockBody(text, start);
    const topLevel = depthOneLines(body);
    // `^\s*` may have swallowed blank lines before the keyword: count lines up to the keyword itself.
    const line = text.slice(0, match.index! + match[0].indexOf('variable')).split('\n').length;
    result.push({
      name: match[1]!,
      type: /^\s*type\s*=\s*([a-z]+)\b/m.exec(topLevel)?.[1],
      hasDefault: /^\s*default\s*=/m.test(topLevel),
      file: path,
      line,
      text: match[0].trim(),
    });
  }
  return result;
}

/** The text of a block from just after its `{` to its matching `}` (strings are skipped). */
function blockBody(text: string, start: number): string {
  let depth = 1;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return text.slice(start, i);
  }
  return text.slice(start);
}

/** Only the lines of a block body that are not inside a nested block or collection. */
function depthOneLines(body: string): string {
  let depth = 0;
  return body
    .split('\n')
    .filter((line) => {
      const atTop = depth === 0;
      for (const char of line.replace(/"(?:[^"\\]|\\.)*"/g, '""')) {
        if (char === '{' || char === '[' || char === '(') depth++;
        else if (char === '}' || char === ']' || char === ')') depth--;
      }
      return atTop;
    })
    .join('\n');
}

/** Where each variable's value comes from, the later source winning as Terraform and the service order them. */
function effectiveValues(files: Map<string, Buffer>, workspaceVariables: Variable[], runVariables: RunVariable[]): Map<string, ValueSource> {
  const values = new Map<string, ValueSource>();
  for (const variable of workspaceVariables) {
    const match = /^TF_VAR_(.+)$/.exec(variable.key);
    if (variable.category === 'env' && match) values.set(match[1]!, { value: variable.value, isHcl: false, origin: `environment variable ${variable.key}` });
  }
  const varFiles = [...files.keys()].filter((p) => p === 'terraform.tfvars' || p.endsWith('.auto.tfvars')).sort((a, b) =>
    a === 'terraform.tfvars' ? -1 : b === 'terraform.tfvars' ? 1 : a.localeCompare(b),
  );
  for (const path of varFiles) {
    for (const [name, value] of tfvarsAssignments(files.get(path)!.toString('utf8'))) values.set(name, { value, isHcl: true, origin: path });
  }
  for (const variable of workspaceVariables) {
    if (variable.category === 'engine') values.set(variable.key, { value: variable.value, isHcl: variable.hcl, origin: `workspace variable ${variable.key}` });
  }
  for (const variable of runVariables) values.set(variable.key, { value: variable.value, isHcl: true, origin: 'the run\'s variables' });
  return values;
}

/** Top-level `name = value` assignments of a .tfvars file (first line of the value is enough for the checks). */
function tfvarsAssignments(text: string): Array<[string, string]> {
  const result: Array<[string, string]> = [];
  for (const line of depthOneLines(text).split('\n')) {
    const match = /^\s*([A-Za-z_][\w-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (match) result.push([match[1]!, match[2]!]);
  }
  return result;
}

/** Why a value cannot be the declared primitive type, or undefined when it can (or the type is not checked). */
function typeProblem(type: string | undefined, source: ValueSource): string | undefined {
  if (type !== 'number' && type !== 'bool') return undefined;
  let text = source.value.trim();
  if (source.isHcl) {
    const quoted = /^"(.*)"$/.exec(text);
    if (quoted) text = quoted[1]!;
    else if (/^[[{]/.test(text)) return `a ${type} is required, not a collection`;
  }
  if (type === 'number' && !/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return 'a number is required';
  if (type === 'bool' && text !== 'true' && text !== 'false') return 'a bool is required';
  return undefined;
}

/** Brackets, braces and quotes pair up: the least an HCL value must do to parse. */
function looksBalanced(value: string): boolean {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '}': '{', ']': '[', ')': '(' };
  let inString = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if ('{[('.includes(char)) stack.push(char);
    else if (char in pairs && stack.pop() !== pairs[char]) return false;
  }
  return !inString && stack.length === 0;
}
