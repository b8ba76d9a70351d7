// Hover on `var.x`, on a variable block's name or on a tfvars key: its type, description, the value a run in the linked workspace
// would use and where that value comes from, and what it overrides. A sensitive value is never shown.
import { MarkupKind } from 'vscode-languageserver';
import type { Hover } from 'vscode-languageserver';
import type { ModuleFolderModel, Position, Range } from '../model';
import { rangeContains, referenceRange } from '../model';
import { folderFacts } from './folderFacts';
import type { WorkspaceSnapshot } from './host';
import { itemAt } from './rangeSearch';
import { indexSnapshot } from './snapshotIndex';
import { resolveVariableValue } from './valueResolution';
import type { ValueSource } from './valueResolution';

export function provideHover(model: ModuleFolderModel, snapshot: WorkspaceSnapshot | undefined, file: string, position: Position): Hover | undefined {
  const target = variableAt(model, file, position);
  if (!target) return undefined;
  const facts = folderFacts(model);
  const declaration = facts.variablesByName.get(target.name);
  const resolved = resolveVariableValue(target.name, facts, indexSnapshot(snapshot));
  const lines: string[] = [];
  lines.push(`**var.${target.name}**${declaration ? ` · \`${declaration.type?.text ?? 'any'}\`${declaration.sensitive ? ' · sensitive' : ''}` : ' · not declared'}`);
  if (declaration?.description) lines.push(declaration.description);
  lines.push(valueLine(resolved.source, resolved.hidden, resolved.workspaceKnown, snapshot));
  if (resolved.overridden.length > 0) {
    lines.push(`Overrides: ${resolved.overridden.map((source) => sourceText(source, resolved.hidden)).join('; ')}`);
  }
  return { contents: { kind: MarkupKind.Markdown, value: lines.join('\n\n') }, range: target.range };
}

function valueLine(source: ValueSource | undefined, hidden: boolean, workspaceKnown: boolean, snapshot: WorkspaceSnapshot | undefined): string {
  const caveat = workspaceKnown ? '' : ` (${unknownWorkspaceReason(snapshot)})`;
  if (!source) return workspaceKnown ? 'Value: **none**: a run would fail until the variable is set.' : `Value: none in the code${caveat}`;
  return `Value used by a run: ${sourceText(source, hidden)}${caveat}`;
}

function sourceText(source: ValueSource, hidden: boolean): string {
  const value = hidden ? '(sensitive)' : source.text !== undefined ? `\`${source.text.replace(/`/g, "'")}\`` : '(not readable)';
  return `${value} from ${source.label}`;
}

function unknownWorkspaceReason(snapshot: WorkspaceSnapshot | undefined): string {
  switch (snapshot?.workspace.kind) {
    case 'not-linked':
      return 'the folder is not linked to a workspace';
    case 'signed-out':
      return 'sign in to see workspace variables';
    case 'not-found':
      return 'the linked workspace was not found';
    case 'error':
      return 'workspace variables could not be read';
    default:
      return 'workspace variables are still loading';
  }
}

/** The `var.x` reference, variable block name or tfvars key under the cursor. */
function variableAt(model: ModuleFolderModel, file: string, position: Position): { name: string; range: Range } | undefined {
  const contribution = model.index.get(file);
  if (contribution?.kind === 'tfvars') {
    // A tfvars key names the variable it sets: same hover, so the user sees whether this value is the one used.
    const entry = contribution.entries.find((candidate) => rangeContains(candidate.keyRange, position));
    return entry ? { name: entry.key, range: entry.keyRange } : undefined;
  }
  if (contribution?.kind !== 'terraform') return undefined;
  const reference = itemAt(contribution.references, referenceRange, position);
  if (reference && reference.name !== '') return { name: reference.name, range: referenceRange(reference) };
  for (const declaration of contribution.variables) {
    if (rangeContains(declaration.nameRange, position)) return { name: declaration.name, range: declaration.nameRange };
  }
  return undefined;
}
