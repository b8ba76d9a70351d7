// The edit that gives a variable a value in the module folder's terraform.tfvars (which Terraform loads by itself):
// `<name> = <placeholder of its type>` appended to the file, or the file created with it. No edit when the file
// already sets the key (never a second entry for it), for a name the folder does not declare or declares sensitive
// (a secret goes in a sensitive workspace variable, not a file often committed), or when the model
// cannot say where the file ends safely (over the size limit, unreadable, or broken: an entry appended after a
// brace left open would land inside it).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CreateFile, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver';
import type { ModuleFolderModel, Position } from '../model';
import { comparePositions, LineIndex } from '../model';
import { folderFacts } from './folderFacts';
import { placeholderFor } from './typePlaceholders';

export const autoLoadedTfvarsName = 'terraform.tfvars';

export function addTfvarsEntryEdit(model: ModuleFolderModel, name: string): WorkspaceEdit | undefined {
  const file = path.join(model.folder, autoLoadedTfvarsName);
  const uri = pathToFileURL(file).toString();
  // The name comes back from the client in the diagnostic's data: only a variable this folder declares is written.
  const declaration = folderFacts(model).variablesByName.get(name);
  if (!declaration || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) return undefined;
  // A secret's value belongs in a sensitive workspace variable, never in a file that is often committed.
  if (declaration.sensitive) return undefined;
  const entry = `${name} = ${placeholderFor(declaration.type?.parsed)}`;
  const contribution = model.index.get(file);
  if (!contribution) {
    if (model.knownFiles().includes(file)) return undefined; // there, but not read: too large or unreadable
    // A resource operation, which LSP clients apply before the text edit that follows it; a file that appeared
    // meanwhile is kept, the entry going at its top.
    const create: CreateFile = { kind: 'create', uri, options: { ignoreIfExists: true } };
    const start = { line: 0, character: 0 };
    const insert: TextDocumentEdit = { textDocument: { uri, version: null }, edits: [{ range: { start, end: start }, newText: `${entry}\n` }] };
    return { documentChanges: [create, insert] };
  }
  if (contribution.kind !== 'tfvars' || contribution.format !== 'hcl' || contribution.syntaxProblems.length > 0) return undefined;
  if (contribution.entries.some((existing) => existing.key === name)) return undefined;
  const at = appendPosition(model, file, contribution.entries.map((existing) => existing.range.end));
  return { changes: { [uri]: [{ range: { start: at.position, end: at.position }, newText: `${at.before}${entry}${at.after}` }] } };
}

/**
 * Where a new last line goes. Open, the document's end (after its trailing comments too). Closed, the model holds
 * no text, only each entry's range: right after the last entry, on a line of its own; no entry, the file's top.
 */
function appendPosition(model: ModuleFolderModel, file: string, entryEnds: Position[]): { position: Position; before: string; after: string } {
  const text = model.openText(file);
  if (text !== undefined) {
    const position = LineIndex.of(text).positionAt(text.length);
    return { position, before: text.length === 0 || text.endsWith('\n') ? '' : '\n', after: '\n' };
  }
  const last = entryEnds.reduce<Position | undefined>((latest, end) => (!latest || comparePositions(end, latest) > 0 ? end : latest), undefined);
  return last ? { position: last, before: '\n', after: '' } : { position: { line: 0, character: 0 }, before: '', after: '\n' };
}
