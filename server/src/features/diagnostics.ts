// Computes the `hcp-terraform` diagnostics of one module folder from its model and its workspace snapshot, grouped by
// file. Everything is indexed by name (folder facts, snapshot index), so the cost is linear in variables, references
// and tfvars entries: no variable is compared with every other.
import path from 'node:path';
import { DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver';
import type { Diagnostic } from 'vscode-languageserver';
import type { ModuleFolderModel, Range, ServiceLink, TerraformParser, TerraformType, VariableDeclaration } from '../model';
import { fileUriOf } from '../model/filePaths';
import { checkValueAgainstType, referenceRange } from '../model';
import type { DiagnosticCode, DiagnosticData, WorkspaceVariableRef } from './diagnosticData';
import { diagnosticSource } from './diagnosticData';
import { folderFacts } from './folderFacts';
import type { FolderFacts } from './folderFacts';
import { guessTypeOf, parsedHclValue, typeNameOf, workspaceLiteral } from './hclValues';
import type { SnapshotVariable, WorkspaceSnapshot } from './host';
import { indexSnapshot } from './snapshotIndex';
import type { SnapshotIndex } from './snapshotIndex';
import { resolveVariableValue } from './valueResolution';

/** Diagnostics by absolute file path. Files without diagnostics are absent. */
export type FolderDiagnostics = Map<string, Diagnostic[]>;

export function computeFolderDiagnostics(model: ModuleFolderModel, snapshot: WorkspaceSnapshot | undefined, parser: TerraformParser): FolderDiagnostics {
  const out: FolderDiagnostics = new Map();
  const add: Add = (file, range, severity, message, data, tags, related) => {
    const diagnostic: Diagnostic = { range, severity, source: diagnosticSource, code: data.code satisfies DiagnosticCode, message, data };
    if (tags) diagnostic.tags = tags;
    if (related) diagnostic.relatedInformation = related.map(({ file: at, range: where, message: says }) => ({ location: { uri: fileUriOf(at), range: where }, message: says }));
    const list = out.get(file);
    if (list) list.push(diagnostic);
    else out.set(file, [diagnostic]);
  };
  const facts = folderFacts(model);
  codeDiagnostics(model, facts, add);
  linkDiagnostics(snapshot?.link ?? model.serviceLink(), snapshot?.workspace, add);
  const workspace = indexSnapshot(snapshot);
  if (workspace.variablesKnown) workspaceDiagnostics(model, facts, workspace, parser, add);
  return out;
}

/** `related`: where in the code the problem comes from, when the diagnostic sits elsewhere (LSP relatedInformation). */
type Add = (file: string, range: Range, severity: DiagnosticSeverity, message: string, data: DiagnosticData, tags?: DiagnosticTag[], related?: RelatedPlace[]) => void;

interface RelatedPlace {
  file: string;
  range: Range;
  message: string;
}

/**
 * The folder's link to its workspace, on the block that makes it: what is wrong in the block (two cloud blocks, no
 * workspace, an expression where Terraform wants a literal...), and a workspace the service does not have. Before,
 * only the VS Code tree said so; in other editors the workspace's diagnostics simply went away.
 */
function linkDiagnostics(link: ServiceLink, state: WorkspaceSnapshot['workspace'] | undefined, add: Add): void {
  for (const problem of link.problems) {
    if (problem.file && problem.range) add(problem.file, problem.range, DiagnosticSeverity.Warning, problem.message, { code: 'workspace-link', problem: problem.code });
  }
  const at = link.workspaceNameLine ?? link.block;
  if (state?.kind === 'not-found' && at) {
    add(at.file, at.range, DiagnosticSeverity.Error,
      `There is no workspace "${state.name}" in organization "${state.organization}" on ${state.hostname}, or this token may not read it. Check the names (terraform workspace list shows those you can read).`,
      { code: 'workspace-link', problem: 'not-found' });
  }
}

/** What the code alone can tell: undeclared references, tfvars values no variable declares or that do not fit the declared type. */
function codeDiagnostics(model: ModuleFolderModel, facts: FolderFacts, add: Add): void {
  for (const reference of model.index.undeclaredReferences()) {
    add(reference.file, referenceRange(reference), DiagnosticSeverity.Error,
      `Variable "${reference.name}" is not declared. Add a \`variable "${reference.name}" {}\` block (for example in variables.tf) or fix the name.`,
      { code: 'undeclared-variable', name: reference.name });
  }
  const contributions = model.index.all();
  // A folder of tfvars files alone is not a configuration: nothing there could declare the keys.
  const hasConfiguration = contributions.some((contribution) => contribution.kind === 'terraform');
  for (const contribution of contributions) {
    if (contribution.kind !== 'tfvars') continue;
    for (const entry of contribution.entries) {
      const declaration = facts.variablesByName.get(entry.key);
      if (!declaration && hasConfiguration) {
        // Terraform's own "Value for undeclared variable" warning, which a run prints and then ignores the value.
        add(entry.file, entry.keyRange, DiagnosticSeverity.Warning,
          `No variable "${entry.key}" is declared in this configuration, so Terraform ignores this value (with a warning when ${path.basename(entry.file)} is loaded). Declare it with a variable block, or remove it here.`,
          { code: 'undeclared-tfvars-value', name: entry.key, ...(entry.literal ? { guessedType: typeNameOf(entry.literal.value) } : {}) });
      }
      if (!declaration?.type || !entry.literal) continue;
      const mismatch = checkValueAgainstType(entry.literal.value, declaration.type.parsed, { hideValues: declaration.sensitive });
      if (!mismatch) continue;
      add(entry.file, entry.valueRange, DiagnosticSeverity.Error,
        `The value of "${entry.key}" in ${path.basename(entry.file)} does not fit its type ${declaration.type.text}: ${mismatch.message}. Change the value or the variable's type.`,
        { code: 'type-mismatch', name: entry.key });
    }
  }
}

/** What needs the workspace: only called once its variables are known (never a false "missing" while loading). */
function workspaceDiagnostics(model: ModuleFolderModel, facts: FolderFacts, workspace: SnapshotIndex, parser: TerraformParser, add: Add): void {
  const linked = workspace.workspace;
  if (!linked) return;
  const ref = (variable: SnapshotVariable): WorkspaceVariableRef => ({ workspaceId: linked.id, variableId: variable.id, key: variable.key, category: variable.category });
  const where = `workspace "${linked.name}"`;

  for (const declaration of facts.variables) {
    const name = declaration.name;
    const engine = workspace.engineByKey.get(name);
    const env = workspace.envByVariableName.get(name);
    // The same precedence hover and completion show: no source at all means a run has nothing to use.
    if (!resolveVariableValue(name, facts, workspace).source) {
      add(declaration.file, declaration.nameRange, DiagnosticSeverity.Error,
        `Variable "${name}" has no value: no default, no variable in ${where} and no auto-loaded tfvars entry, so a run would fail. Set it as a workspace variable, add it to terraform.tfvars, or give it a default.`,
        { code: 'missing-value', name, workspaceId: linked.id });
    }
    if (declaration.sensitive) {
      for (const variable of [engine, env]) {
        if (!variable || variable.sensitive) continue;
        add(declaration.file, declaration.nameRange, DiagnosticSeverity.Warning,
          `Variable "${name}" is declared sensitive, but workspace variable "${variable.key}" in ${where} is not, so its value is visible there. Mark the workspace variable sensitive.`,
          { code: 'sensitive-exposed', name, variable: ref(variable) });
      }
    }
    if (engine) {
      for (const entry of facts.autoLoadedTfvarsByKey.get(name) ?? []) {
        add(entry.file, entry.range, DiagnosticSeverity.Hint,
          `"${name}" is also set by a variable in ${where}, which takes precedence: runs there do not use this value. Remove it here, or delete the workspace variable.`,
          { code: 'overridden-by-workspace', name, variable: ref(engine) }, [DiagnosticTag.Unnecessary]);
      }
    }
  }

  const line = workspaceLine(model);
  if (!line) return; // linked by a setting only: no line in the code to show workspace problems on
  for (const variable of workspace.engineByKey.values()) {
    const declaration = facts.variablesByName.get(variable.key);
    if (!declaration) {
      add(line.file, line.range, DiagnosticSeverity.Warning,
        `Variable "${variable.key}" of ${where} is not declared in this configuration; newer Terraform versions reject the run. Declare it with a variable block, or delete the workspace variable.`,
        { code: 'undeclared-workspace-variable', variable: ref(variable), guessedType: guessTypeOf(parser, variable) });
    }
    const parsed = parsedHclValue(parser, variable);
    if (parsed && !parsed.ok) {
      add(line.file, line.range, DiagnosticSeverity.Error,
        `Workspace variable "${variable.key}" in ${where} is marked HCL, but its value is not a valid HCL expression, so a run would fail. Fix the value in the workspace, or turn off HCL to use it as a plain string.`,
        { code: 'invalid-hcl-value', variable: ref(variable), plainStringFits: plainStringFits(variable, declaration) },
        undefined,
        declaration ? [{ file: declaration.file, range: declaration.nameRange, message: `variable "${variable.key}" is declared here` }] : undefined);
      continue;
    }
    if (declaration) typeMismatchOfWorkspaceValue(variable, declaration, parser, line, where, ref, add);
  }
  for (const [name, variable] of workspace.envByVariableName) {
    const declaration = facts.variablesByName.get(name);
    if (declaration && !workspace.engineByKey.has(name)) typeMismatchOfWorkspaceValue(variable, declaration, parser, line, where, ref, add);
  }
}

function typeMismatchOfWorkspaceValue(
  variable: SnapshotVariable,
  declaration: VariableDeclaration,
  parser: TerraformParser,
  line: { file: string; range: Range },
  where: string,
  ref: (variable: SnapshotVariable) => WorkspaceVariableRef,
  add: Add,
): void {
  const type = declaration.type;
  if (!type) return;
  const literal = workspaceLiteral(parser, variable, type.parsed);
  if (!literal) return;
  const mismatch = checkValueAgainstType(literal.value, type.parsed, { hideValues: declaration.sensitive || variable.sensitive });
  if (!mismatch) return;
  const name = variable.category === 'env' ? variable.key.replace(/^TF_VAR_/, '') : variable.key;
  add(line.file, line.range, DiagnosticSeverity.Error,
    `Workspace variable "${variable.key}" in ${where} does not fit the type ${type.text} of variable "${name}": ${mismatch.message}. Change the workspace value${variable.category === 'engine' ? ' or its HCL flag' : ''}.`,
    { code: 'type-mismatch', name, variable: ref(variable), hclFlagFix: hclFlagFix(parser, variable, type.parsed) },
    undefined,
    // The diagnostic sits on the workspace's line; the type it breaks is declared elsewhere.
    [{ file: declaration.file, range: type.range, message: `variable "${name}" is declared with type ${type.text} here` }]);
}

/** Whether flipping an engine variable's HCL flag makes its value fit (e.g. `[1, 2]` stored as a plain string). */
function hclFlagFix(parser: TerraformParser, variable: SnapshotVariable, type: TerraformType): boolean | undefined {
  if (variable.category !== 'engine' || variable.value === undefined || variable.sensitive) return undefined;
  const flipped: SnapshotVariable = { ...variable, hcl: !variable.hcl };
  const literal = workspaceLiteral(parser, flipped, type);
  return literal && !checkValueAgainstType(literal.value, type) ? flipped.hcl : undefined;
}

/**
 * Whether an engine variable's value, taken as a plain string (its HCL flag off), fits the declared type: turning HCL
 * off is offered as a fix only then (a map(string) variable would only trade the invalid HCL for a type mismatch).
 */
function plainStringFits(variable: SnapshotVariable, declaration: VariableDeclaration | undefined): boolean {
  const type = declaration?.type;
  if (!type) return true; // no type: any string will do
  return !checkValueAgainstType(variable.value ?? '', type.parsed);
}

/** The cloud block's workspace `name` line, else the first line of the block that links the folder. */
export function workspaceLine(model: ModuleFolderModel): { file: string; range: Range } | undefined {
  const link = model.serviceLink();
  if (link.workspaceNameLine) return link.workspaceNameLine;
  if (!link.block) return undefined;
  const start = link.block.range.start;
  return { file: link.block.file, range: { start, end: { line: start.line, character: start.character + 5 } } };
}
