// Where a new `variable` block goes: after the last variable block of variables.tf when the folder has one, else at
// the end of the .tf document the user is in. From a tfvars file (a value no block declares), after the last variable
// block of the .tf file holding the most of them, else in a new variables.tf. Used by the "declare the variable"
// quick fixes.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CreateFile, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { ModuleFolderModel, Position, VariableDeclaration } from '../model';
import { comparePositions, LineIndex } from '../model';
import { folderFacts } from './folderFacts';
import { variableBlockText } from './variableBlocks';

export function declareVariableEdit(model: ModuleFolderModel, name: string, type: string | undefined, currentFile: string, currentText: string): WorkspaceEdit {
  const block = variableBlockText(name, type);
  const target = variablesFileEnd(model) ?? (currentFile.endsWith('.tf') ? undefined : busiestVariablesFileEnd(model));
  if (target) return { changes: { [pathToFileURL(target.file).toString()]: [{ range: { start: target.position, end: target.position }, newText: `\n\n${block}` }] } };
  // A variable block in a tfvars file would break it: with no .tf file to add it to, variables.tf is made for it.
  if (!currentFile.endsWith('.tf')) return newVariablesFileEdit(model, block);
  const end = LineIndex.of(currentText).positionAt(currentText.length);
  const separator = currentText.length === 0 ? '' : currentText.endsWith('\n') ? '\n' : '\n\n';
  return { changes: { [pathToFileURL(currentFile).toString()]: [{ range: { start: end, end }, newText: `${separator}${block}\n` }] } };
}

/** The end of the last variable block in variables.tf (its text need not be loaded: the model knows the ranges). */
function variablesFileEnd(model: ModuleFolderModel): { file: string; position: Position } | undefined {
  const file = folderFacts(model).variablesFile;
  const contribution = file ? model.index.get(file) : undefined;
  if (!file || contribution?.kind !== 'terraform' || contribution.variables.length === 0) return undefined;
  return { file, position: lastOf(contribution.variables).range.end };
}

/** The end of the last variable block of the .tf file that declares the most variables (the first such by name). */
function busiestVariablesFileEnd(model: ModuleFolderModel): { file: string; position: Position } | undefined {
  let busiest: readonly VariableDeclaration[] = [];
  for (const contribution of model.index.all()) {
    if (contribution.kind === 'terraform' && contribution.variables.length > busiest.length) busiest = contribution.variables;
  }
  if (busiest.length === 0) return undefined;
  const last = lastOf(busiest);
  return { file: last.file, position: last.range.end };
}

function lastOf(variables: readonly VariableDeclaration[]): VariableDeclaration {
  return variables.reduce((latest, candidate) => (comparePositions(candidate.range.end, latest.range.end) > 0 ? candidate : latest));
}

/**
 * variables.tf made with the block, or the block put at its top when the file exists without a variable block: a
 * resource operation, which LSP clients apply before the text edit that follows it.
 */
function newVariablesFileEdit(model: ModuleFolderModel, block: string): WorkspaceEdit {
  const uri = pathToFileURL(path.join(model.folder, 'variables.tf')).toString();
  const create: CreateFile = { kind: 'create', uri, options: { ignoreIfExists: true } };
  const start = { line: 0, character: 0 };
  const exists = folderFacts(model).variablesFile !== undefined;
  const edit: TextDocumentEdit = { textDocument: { uri, version: null }, edits: [{ range: { start, end: start }, newText: exists ? `${block}\n\n` : `${block}\n` }] };
  return { documentChanges: [create, edit] };
}
