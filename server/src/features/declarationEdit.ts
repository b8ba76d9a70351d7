// Where a new `variable` block goes: after the last variable block of variables.tf when the folder has one, else at
// the end of the document the user is in. Used by the "declare the variable" quick fixes.
import { pathToFileURL } from 'node:url';
import type { WorkspaceEdit } from 'vscode-languageserver';
import type { ModuleFolderModel, Position } from '../model';
import { comparePositions, LineIndex } from '../model';
import { folderFacts } from './folderFacts';
import { variableBlockText } from './variableBlocks';

export function declareVariableEdit(model: ModuleFolderModel, name: string, type: string | undefined, currentFile: string, currentText: string): WorkspaceEdit {
  const block = variableBlockText(name, type);
  const target = variablesFileEnd(model);
  if (target) return { changes: { [pathToFileURL(target.file).toString()]: [{ range: { start: target.position, end: target.position }, newText: `\n\n${block}` }] } };
  const end = LineIndex.of(currentText).positionAt(currentText.length);
  const separator = currentText.length === 0 ? '' : currentText.endsWith('\n') ? '\n' : '\n\n';
  return { changes: { [pathToFileURL(currentFile).toString()]: [{ range: { start: end, end }, newText: `${separator}${block}\n` }] } };
}

/** The end of the last variable block in variables.tf (its text need not be loaded: the model knows the ranges). */
function variablesFileEnd(model: ModuleFolderModel): { file: string; position: Position } | undefined {
  const file = folderFacts(model).variablesFile;
  const contribution = file ? model.index.get(file) : undefined;
  if (!file || contribution?.kind !== 'terraform' || contribution.variables.length === 0) return undefined;
  const last = contribution.variables.reduce((latest, candidate) => (comparePositions(candidate.range.end, latest.range.end) > 0 ? candidate : latest));
  return { file, position: last.range.end };
}
