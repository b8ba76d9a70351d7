// Quick fixes for the hcp-terraform diagnostics. Each reads what it needs from the diagnostic's `data` (set when
// the diagnostic was computed) and either edits the code or invokes one of the core's variable commands.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionKind, ResourceOperationKind } from 'vscode-languageserver';
import type { ClientCapabilities, CodeAction, Diagnostic } from 'vscode-languageserver';
import type { ModuleFolderModel } from '../model';
import { serverCommand } from './commands';
import type { ClientPrompts } from './commands';
import { declareVariableEdit } from './declarationEdit';
import { diagnosticSource, readDiagnosticData } from './diagnosticData';
import type { DiagnosticData } from './diagnosticData';
import { folderFacts } from './folderFacts';
import { guessTypeOf } from './hclValues';
import type { WorkspaceSnapshot } from './host';
import { indexSnapshot } from './snapshotIndex';
import { addTfvarsEntryEdit, autoLoadedTfvarsName } from './tfvarsEntryEdit';
import type { TerraformParser } from '../model';

export interface QuickFixRequest {
  model: ModuleFolderModel;
  snapshot: WorkspaceSnapshot | undefined;
  file: string;
  text: string;
  diagnostics: readonly Diagnostic[];
  parser?: TerraformParser;
  /** What the client can ask its user (the value of a variable to set). */
  prompts?: ClientPrompts;
  /** False when the client cannot create a file in a workspace edit (clientCanCreateFiles): no fix that needs one. */
  canCreateFiles?: boolean;
}

export function provideQuickFixes(request: QuickFixRequest): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const diagnostic of request.diagnostics) {
    if (diagnostic.source !== diagnosticSource) continue;
    const data = readDiagnosticData(diagnostic.data);
    if (!data) continue;
    for (const action of fixesFor(data, request)) {
      // A client without resource operations would fail to apply it, or apply the text edit to no file.
      if (request.canCreateFiles === false && createsFile(action)) continue;
      actions.push({ ...action, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic] });
    }
  }
  return actions;
}

/** Whether the client can apply a CreateFile in a workspace edit (LSP workspace.workspaceEdit: documentChanges and the `create` resource operation). */
export function clientCanCreateFiles(capabilities: ClientCapabilities): boolean {
  const workspaceEdit = capabilities.workspace?.workspaceEdit;
  return workspaceEdit?.documentChanges === true && (workspaceEdit.resourceOperations ?? []).includes(ResourceOperationKind.Create);
}

function createsFile(action: CodeAction): boolean {
  return action.edit?.documentChanges?.some((change) => 'kind' in change && change.kind === 'create') === true;
}

function fixesFor(data: DiagnosticData, request: QuickFixRequest): CodeAction[] {
  const linked = indexSnapshot(request.snapshot).workspace;
  const workspaceName = linked?.name ?? 'the workspace';
  const hostname = linked?.hostname;
  switch (data.code) {
    case 'missing-value': {
      const sensitive = folderFacts(request.model).variablesByName.get(data.name)?.sensitive === true;
      const fromVarFiles = valuesInVarFiles(request.model, data.name).map(({ file, value, hcl }) => ({
        title: `Set workspace variable "${data.name}" in ${workspaceName} to the value in ${path.basename(file)}`,
        command: serverCommand(`Set workspace variable "${data.name}"`, 'createVariable', { hostname, workspaceId: data.workspaceId, key: data.name, category: 'engine', value, hcl, sensitive }),
      }));
      // No value: only a client that asks its user for it (prompts.variableValue) can run this; the core refuses to
      // create a variable without one, and other editors would only get that error.
      const asking: CodeAction[] = request.prompts?.variableValue
        ? [
            {
              title: `Set workspace variable "${data.name}" in ${workspaceName}…`,
              command: serverCommand(`Set workspace variable "${data.name}"`, 'createVariable', { hostname, workspaceId: data.workspaceId, key: data.name, category: 'engine', sensitive }),
              isPreferred: true,
            },
          ]
        : [];
      // Prompt-free, for every editor: a placeholder of the declared type in terraform.tfvars, to be replaced.
      const tfvarsEdit = addTfvarsEntryEdit(request.model, data.name);
      const inTfvars: CodeAction[] = tfvarsEdit ? [{ title: `Add "${data.name}" to ${autoLoadedTfvarsName}`, edit: tfvarsEdit }] : [];
      return [...asking, ...fromVarFiles, ...inTfvars];
    }
    case 'undeclared-workspace-variable': {
      const { variable } = data;
      return [
        { title: `Declare variable "${variable.key}"`, edit: declareVariableEdit(request.model, variable.key, data.guessedType, request.file, request.text), isPreferred: true },
        { title: `Delete workspace variable "${variable.key}" from ${workspaceName}`, command: serverCommand(`Delete workspace variable "${variable.key}"`, 'deleteVariable', { hostname, workspaceId: variable.workspaceId, variableId: variable.variableId }) },
      ];
    }
    case 'undeclared-variable': {
      const fromWorkspace = indexSnapshot(request.snapshot).engineByKey.get(data.name);
      const type = fromWorkspace ? guessTypeOf(request.parser, fromWorkspace) : undefined;
      return [{ title: `Declare variable "${data.name}"`, edit: declareVariableEdit(request.model, data.name, type, request.file, request.text), isPreferred: true }];
    }
    case 'undeclared-tfvars-value':
      return [
        { title: `Declare variable "${data.name}"`, edit: declareVariableEdit(request.model, data.name, data.guessedType, request.file, request.text), isPreferred: true },
        ...removeTfvarsEntry(request, data.name, `Remove "${data.name}" from this file`),
      ];
    case 'invalid-hcl-value':
      // Otherwise the only fix is the value itself, in the workspace: no edit here would know it.
      if (!data.plainStringFits) return [];
      return [{
        title: `Use workspace variable "${data.variable.key}" as a plain string (turn off HCL)`,
        command: serverCommand(`Turn off HCL for "${data.variable.key}"`, 'updateVariable', { hostname, workspaceId: data.variable.workspaceId, variableId: data.variable.variableId, hcl: false }),
      }];
    case 'type-mismatch': {
      if (!data.variable || data.hclFlagFix === undefined) return [];
      const title = data.hclFlagFix ? `Evaluate workspace variable "${data.variable.key}" as HCL` : `Use workspace variable "${data.variable.key}" as a plain string (turn off HCL)`;
      return [{ title, command: serverCommand(title, 'updateVariable', { hostname, workspaceId: data.variable.workspaceId, variableId: data.variable.variableId, hcl: data.hclFlagFix }), isPreferred: true }];
    }
    case 'overridden-by-workspace':
      return [
        ...removeTfvarsEntry(request, data.name, `Remove "${data.name}" from this file (the workspace value wins)`),
        { title: `Delete workspace variable "${data.variable.key}" so this value is used`, command: serverCommand(`Delete workspace variable "${data.variable.key}"`, 'deleteVariable', { hostname, workspaceId: data.variable.workspaceId, variableId: data.variable.variableId }) },
      ];
    case 'sensitive-exposed':
      return [{
        title: `Mark workspace variable "${data.variable.key}" sensitive`,
        command: serverCommand(`Mark "${data.variable.key}" sensitive`, 'updateVariable', { hostname, workspaceId: data.variable.workspaceId, variableId: data.variable.variableId, sensitive: true }),
        isPreferred: true,
      }];
    case 'workspace-link':
      // Fixed by editing the block (or the names) by hand: no edit would know the right workspace.
      return [];
  }
}

/** Deletes the key's entry (whole lines) from the current tfvars file. */
function removeTfvarsEntry(request: QuickFixRequest, key: string, title: string): CodeAction[] {
  const contribution = request.model.index.get(request.file);
  if (contribution?.kind !== 'tfvars' || contribution.format !== 'hcl') return [];
  const entry = contribution.entries.find((candidate) => candidate.key === key);
  if (!entry) return [];
  const range = { start: { line: entry.range.start.line, character: 0 }, end: { line: entry.range.end.line + 1, character: 0 } };
  return [{ title, edit: { changes: { [pathToFileURL(request.file).toString()]: [{ range, newText: '' }] } } }];
}

/**
 * Values for a key in tfvars files Terraform does not load by itself (`prod.tfvars`, passed with -var-file locally):
 * what the user probably wants in the workspace. A literal string goes as a plain value, anything else as HCL.
 */
function valuesInVarFiles(model: ModuleFolderModel, key: string): { file: string; value: string; hcl: boolean }[] {
  const found: { file: string; value: string; hcl: boolean }[] = [];
  for (const contribution of model.index.all()) {
    if (contribution.kind !== 'tfvars' || contribution.autoLoaded) continue;
    const entry = contribution.entries.find((candidate) => candidate.key === key);
    if (!entry) continue;
    const literal = entry.literal?.value;
    found.push(typeof literal === 'string' ? { file: entry.file, value: literal, hcl: false } : { file: entry.file, value: entry.valueText, hcl: true });
  }
  return found;
}
