// Completion: variables after `var.` (declared ones with type, description and value source; undeclared workspace
// variables with an edit that declares them), top-level keys of tfvars files (HCL and JSON), and organization / workspace names in
// the cloud block. Variable items are built once per folder-facts version and snapshot, so a request on 5,000
// variables only filters a ready list.
import { CompletionItemKind, InsertTextFormat, MarkupKind } from 'vscode-languageserver';
import type { CompletionItem, CompletionList, Range } from 'vscode-languageserver';
import type { ModuleFolderModel, Position, ServiceLink, TerraformParser, TextLines, TfvarsEntry, VariableDeclaration } from '../model';
import { LineIndex } from '../model';
import { completionContextAt } from './completionContext';
import { readWithStringClosed } from './halfTypedName';
import { folderFacts } from './folderFacts';
import type { FolderFacts } from './folderFacts';
import { guessTypeOf } from './hclValues';
import type { FeatureHost, SnapshotVariable, WorkspaceSnapshot } from './host';
import { indexSnapshot } from './snapshotIndex';
import type { SnapshotIndex } from './snapshotIndex';
import { describeSource, resolveVariableValue } from './valueResolution';
import { variableBlockText } from './variableBlocks';
import { maxCompletionItems, rankVariableItems } from './completionRanking';
import type { VariableItemData } from './completionRanking';

export interface CompletionRequest {
  model: ModuleFolderModel;
  snapshot: WorkspaceSnapshot | undefined;
  /** Absolute path of the document. */
  file: string;
  text: string;
  /** The text's line offsets when the caller keeps them (an open document); otherwise they are computed. */
  lines?: TextLines;
  position: Position;
  parser?: TerraformParser;
  /** The client takes a shared edit range (LSP 3.17 itemDefaults.editRange): items need no textEdit of their own. */
  itemDefaultsEditRange?: boolean;
  /** The client takes a shared `data` (itemDefaults.data): a cut list's items need none of their own. */
  itemDefaultsData?: boolean;
}

export type NameLookups = Pick<FeatureHost, 'organizationNames' | 'workspaceNames' | 'namesPending' | 'configuredHostname'>;

const empty: CompletionList = { isIncomplete: false, items: [] };

export async function provideCompletion(request: CompletionRequest, lookups: NameLookups): Promise<CompletionList> {
  const { model, text, position } = request;
  const lines = request.lines ?? LineIndex.of(text);
  let context = completionContextAt(text, position, model.index.get(request.file), lines);
  let link = model.serviceLink();
  if (!context) {
    // A name string not closed yet breaks the cloud block it is in: read as it will be once closed.
    const closed = readWithStringClosed(model, request.file, text, lines, position, request.parser);
    if (closed) {
      context = completionContextAt(text, position, closed.contribution, lines);
      link = closed.link;
    }
  }
  if (!context) return empty;
  switch (context.kind) {
    case 'variable': {
      const items = variableItems(request, lines);
      if (items.length <= maxCompletionItems) return withRange(items, context.replace, request.itemDefaultsEditRange === true);
      const shareData = request.itemDefaultsEditRange === true && request.itemDefaultsData === true;
      const ranked = rankVariableItems(request.model, items, context.typed, shareData ? undefined : request.model.folder);
      const list = withRange(ranked, context.replace, request.itemDefaultsEditRange === true);
      if (shareData && list.itemDefaults) list.itemDefaults.data = { folder: request.model.folder } satisfies VariableItemData;
      return { ...list, isIncomplete: true };
    }
    case 'tfvars-key':
      return withRange(tfvarsKeyItems(request, (name) => ({ insertText: `${name} = `, filterText: name })), context.replace, request.itemDefaultsEditRange === true);
    case 'tfvars-json-key': {
      // The replaced text starts with the quote when the key is quoted: the filter text does too, so it matches.
      const { quoted, valueFollows, commaAt } = context;
      const items = tfvarsKeyItems(request, (name) => ({
        insertText: valueFollows ? `"${name}"` : `"${name}": `,
        filterText: quoted ? `"${name}"` : name,
        ...(commaAt ? { additionalTextEdits: [{ range: { start: commaAt, end: commaAt }, newText: ',' }] } : {}),
      }));
      return withRange(items, context.replace, request.itemDefaultsEditRange === true);
    }
    case 'organization':
    case 'workspace-name':
    {
      const list = withRange(await serviceNameItems(request, link, context.kind, lookups), context.replace, request.itemDefaultsEditRange === true);
      // Names still being read in the background: incomplete, so the next keystroke asks again and gets them.
      return namesPending(request, link, context.kind, lookups) ? { ...list, isIncomplete: true } : list;
    }
  }
}

/**
 * With itemDefaults (VS Code, recent Neovim) the cached items go out as they are. Otherwise a client replaces the
 * identifier before the cursor by itself, which only goes wrong for names its word pattern splits (`my-var`, or a
 * tfvars `name = ` insert): only those get their own text edit, so a 5,000-item list is not copied per keystroke.
 */
function withRange(items: readonly CompletionItem[], range: Range, shared: boolean): CompletionList {
  if (shared) return { isIncomplete: false, itemDefaults: { editRange: range }, items: items as CompletionItem[] };
  const needsEdit = (item: CompletionItem) => item.insertText !== undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(item.label);
  return { isIncomplete: false, items: items.map((item) => (needsEdit(item) ? { ...item, textEdit: { range, newText: item.insertText ?? item.label } } : item)) };
}

// ---- variables after `var.` ----

/** completionItem/resolve: the detail and documentation a cut list left out, as the full item has them. */
export function resolveCompletionItem(item: CompletionItem, model: ModuleFolderModel | undefined, snapshot: WorkspaceSnapshot | undefined): CompletionItem {
  const data = item.data as Partial<VariableItemData> | undefined;
  const name = typeof data?.name === 'string' ? data.name : item.label;
  if (!model || item.documentation !== undefined) return item;
  const facts = folderFacts(model);
  const workspace = indexSnapshot(snapshot);
  const declaration = facts.variablesByName.get(name);
  const full = declaration ? declaredVariableItem(declaration, facts, workspace) : undefined;
  if (full) return { ...item, detail: item.detail ?? full.detail, documentation: full.documentation };
  const variable = workspace.engineByKey.get(name);
  if (variable) {
    return {
      ...item,
      detail: item.detail ?? undeclaredDetail(workspace),
      documentation: { kind: MarkupKind.Markdown, value: `Declares \`variable "${variable.key}"\` in this file, so runs stop rejecting the workspace variable.` },
    };
  }
  return item;
}

interface CachedItems {
  snapshot: WorkspaceSnapshot | undefined;
  tfvars: FolderFacts['autoLoadedTfvarsByKey'];
  declared: CompletionItem[];
  /** Declared + undeclared workspace variables, for the last insertion point asked (it moves only with edits). */
  withUndeclared?: { insertAtKey: string; items: CompletionItem[] };
}

/**
 * By the folder's declarations (the same list object while a change leaves them alone, see folderFacts): typing in
 * a resource block does not rebuild or even re-check 2,000 items.
 */
const declaredCache = new WeakMap<FolderFacts['variables'], CachedItems>();

function variableItems(request: CompletionRequest, lines: TextLines): CompletionItem[] {
  const facts = folderFacts(request.model);
  const workspace = indexSnapshot(request.snapshot);
  let cached = declaredCache.get(facts.variables);
  if (!cached || cached.snapshot !== request.snapshot || cached.tfvars !== facts.autoLoadedTfvarsByKey) {
    cached = {
      snapshot: request.snapshot,
      tfvars: facts.autoLoadedTfvarsByKey,
      declared: facts.variables.map((declaration) => declaredItemOf(declaration, facts, workspace, request.snapshot)),
    };
    declaredCache.set(facts.variables, cached);
  }
  if (!workspace.variablesKnown) return cached.declared;
  const insertAt = declarationInsertPoint(request, lines);
  const insertAtKey = `${insertAt.atStart}:${insertAt.position.line}:${insertAt.position.character}`;
  if (cached.withUndeclared?.insertAtKey !== insertAtKey) {
    const undeclared: CompletionItem[] = [];
    for (const variable of workspace.engineByKey.values()) {
      if (!facts.variablesByName.has(variable.key)) undeclared.push(undeclaredWorkspaceItem(variable, workspace, request.parser, insertAt));
    }
    cached.withUndeclared = { insertAtKey, items: undeclared.length === 0 ? cached.declared : [...cached.declared, ...undeclared] };
  }
  return cached.withUndeclared.items;
}

/**
 * Items by declaration: an edit re-extracts only the blocks it touched, so the other declarations are the same
 * objects as before and their items are reused (2,000 items are not rebuilt after each keystroke). An item also
 * depends on the snapshot and on the tfvars entries that set the variable.
 */
const itemsByDeclaration = new WeakMap<VariableDeclaration, { snapshot: WorkspaceSnapshot | undefined; tfvars: readonly TfvarsEntry[]; item: CompletionItem }>();

function declaredItemOf(declaration: VariableDeclaration, facts: FolderFacts, workspace: SnapshotIndex, snapshot: WorkspaceSnapshot | undefined): CompletionItem {
  const tfvars = facts.autoLoadedTfvarsByKey.get(declaration.name) ?? [];
  const cached = itemsByDeclaration.get(declaration);
  if (cached && cached.snapshot === snapshot && cached.tfvars.length === tfvars.length && cached.tfvars.every((entry, index) => entry === tfvars[index])) return cached.item;
  const item = declaredVariableItem(declaration, facts, workspace);
  itemsByDeclaration.set(declaration, { snapshot, tfvars, item });
  return item;
}

function declaredVariableItem(declaration: VariableDeclaration, facts: FolderFacts, workspace: SnapshotIndex): CompletionItem {
  const resolved = resolveVariableValue(declaration.name, facts, workspace);
  const source = describeSource(resolved);
  const type = declaration.type?.text ?? 'any';
  const value = resolved.hidden ? '(sensitive)' : resolved.value;
  const documentation = [
    declaration.description ?? '',
    resolved.source ? `Value${value ? `: \`${value}\`` : ''} — ${source}` : `No value: ${resolved.workspaceKnown ? 'a run would fail unless one is given' : 'none in the code'}`,
  ].filter((part) => part !== '').join('\n\n');
  return {
    label: declaration.name,
    kind: CompletionItemKind.Variable,
    labelDetails: { detail: ` ${type}`, description: source },
    detail: `${type} · ${source}`,
    documentation: { kind: MarkupKind.Markdown, value: documentation },
    sortText: `0${declaration.name}`,
  };
}

function undeclaredWorkspaceItem(variable: SnapshotVariable, workspace: SnapshotIndex, parser: TerraformParser | undefined, insertAt: InsertPoint): CompletionItem {
  const type = guessTypeOf(parser, variable);
  const block = variableBlockText(variable.key, type, variable.description);
  return {
    label: variable.key,
    kind: CompletionItemKind.Variable,
    labelDetails: { detail: ` ${type}`, description: 'workspace variable, not declared' },
    detail: undeclaredDetail(workspace),
    documentation: { kind: MarkupKind.Markdown, value: `Declares \`variable "${variable.key}"\` (type ${type}) in this file, so runs stop rejecting the workspace variable.` },
    additionalTextEdits: [{ range: { start: insertAt.position, end: insertAt.position }, newText: insertAt.atStart ? `${block}\n\n` : `\n\n${block}\n` }],
    sortText: `1${variable.key}`,
  };
}

function undeclaredDetail(workspace: SnapshotIndex): string {
  return `Workspace variable of ${workspace.workspace?.name ?? 'the workspace'}, not declared in the code: also adds a variable block`;
}

interface InsertPoint {
  position: Position;
  atStart: boolean;
}

/**
 * New blocks go at the end of the current file (completion edits may only touch the current document), or at its
 * start when the cursor is on the last line, so the edit never overlaps the completed text.
 */
function declarationInsertPoint(request: CompletionRequest, lines: TextLines): InsertPoint {
  const end = lines.positionAt(request.text.length);
  if (request.position.line >= end.line) return { position: { line: 0, character: 0 }, atStart: true };
  return { position: end, atStart: false };
}

// ---- tfvars keys ----

/** How a key is written in the file: `name = ` in HCL, `"name": ` in JSON. */
type KeyWriting = (name: string) => Pick<CompletionItem, 'insertText' | 'filterText' | 'additionalTextEdits'>;

function tfvarsKeyItems(request: CompletionRequest, writing: KeyWriting): CompletionItem[] {
  const facts = folderFacts(request.model);
  const workspace = indexSnapshot(request.snapshot);
  const contribution = request.model.index.get(request.file);
  const alreadySet = new Set(contribution?.kind === 'tfvars' ? contribution.entries.map((entry) => entry.key) : []);
  const items: CompletionItem[] = [];
  for (const declaration of facts.variables) {
    if (alreadySet.has(declaration.name)) continue;
    const resolved = resolveVariableValue(declaration.name, facts, workspace);
    items.push({
      label: declaration.name,
      kind: CompletionItemKind.Property,
      detail: `${declaration.type?.text ?? 'any'} · now ${describeSource(resolved)}`,
      documentation: declaration.description ? { kind: MarkupKind.Markdown, value: declaration.description } : undefined,
      insertTextFormat: InsertTextFormat.PlainText,
      ...writing(declaration.name),
    });
  }
  return items;
}

// ---- organization and workspace names ----

/**
 * The host whose names are offered: the snapshot's (the configured address applied when the block names none), or
 * the link's as read at the cursor when the snapshot has none (the block is half-typed, the folder unlinked).
 */
function hostnameOf(request: CompletionRequest, link: ServiceLink, lookups: NameLookups): string | undefined {
  const fromSnapshot = request.snapshot?.link.hostname?.value;
  if (fromSnapshot) return fromSnapshot;
  if (link.hostname?.source === 'default') return lookups.configuredHostname?.() ?? link.hostname.value;
  return link.hostname?.value;
}

function namesPending(request: CompletionRequest, link: ServiceLink, kind: 'organization' | 'workspace-name', lookups: NameLookups): boolean {
  const hostname = hostnameOf(request, link, lookups);
  if (!hostname || !lookups.namesPending) return false;
  if (kind === 'organization') return lookups.namesPending(hostname);
  const organization = link.organization?.value;
  return organization !== undefined && lookups.namesPending(hostname, organization);
}

async function serviceNameItems(request: CompletionRequest, link: ServiceLink, kind: 'organization' | 'workspace-name', lookups: NameLookups): Promise<CompletionItem[]> {
  const hostname = hostnameOf(request, link, lookups);
  if (!hostname) return [];
  try {
    if (kind === 'organization') {
      // Not the organization this folder names: that is the text being typed, not a name to complete it with.
      const names = await lookups.organizationNames(hostname, request.model.folder);
      return names.map((name) => ({ label: name, kind: CompletionItemKind.Module, detail: `Organization on ${hostname}` }));
    }
    const organization = link.organization?.value;
    if (!organization) return [];
    const names = await lookups.workspaceNames(hostname, organization);
    return names.map((name) => ({ label: name, kind: CompletionItemKind.Value, detail: `Workspace in ${organization}` }));
  } catch {
    return []; // signed out or unreachable: the core reports that; completion just offers nothing
  }
}
