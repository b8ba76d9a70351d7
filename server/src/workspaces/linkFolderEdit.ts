// The edit that links a module folder to a workspace by its `cloud` block: rewrite the existing cloud block (keeping
// what it says besides the organization, the workspace selection and, when a new one is given, the hostname),
// replace a `backend "remote"` block (Terraform allows only one of them), add a cloud block to the `terraform`
// block, or add a `terraform` block. Blocks are found in the syntax tree, never by matching text. Pure: the caller
// hands the files' texts and applies the edit (the server writes no file itself).
import type { Node } from 'web-tree-sitter';
import type { CreateFile, TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { TerraformParser } from '../model';
import { blockKeyword, blockLabelNodes, bodyItems, attributeName, labelValue } from '../model/syntaxTree';
import { rangeOfNode } from '../model/positions';

export interface LinkTarget {
  organization: string;
  workspaceName: string;
  /** Written only when given and not the default host; omitted = keep the block's own hostname. */
  hostname?: string;
}

export interface FolderFile {
  /** File URI. */
  uri: string;
  /** Base name, e.g. `main.tf` (main.tf is preferred for a new block). */
  name: string;
  text: string;
}

export interface LinkEdit {
  edit: WorkspaceEdit;
  /** The URI of the file the edit changes or creates. */
  file: string;
}

const defaultHost = 'app.terraform.io';

export function linkFolderEdit(parser: TerraformParser, folderUri: string, files: readonly FolderFile[], target: LinkTarget): LinkEdit {
  const ordered = [...files].filter((f) => f.name.endsWith('.tf')).sort((a, b) => (a.name === 'main.tf' ? -1 : b.name === 'main.tf' ? 1 : a.name.localeCompare(b.name)));
  // The edit for the first terraform block without a cloud block, computed while its tree is alive; used only when no
  // file has a cloud block or remote backend to rewrite.
  let intoTerraformBlock: LinkEdit | undefined;
  for (const file of ordered) {
    const tree = parser.parse(file.text);
    try {
      for (const block of bodyItems(tree.rootNode).filter((item) => item.type === 'block' && blockKeyword(item) === 'terraform')) {
        const inner = bodyItems(block).filter((item) => item.type === 'block');
        const cloud = inner.find((item) => blockKeyword(item) === 'cloud');
        if (cloud) return replaceBlock(file, cloud, renderCloud(target, keptItems(cloud, target), indentOf(file.text, cloud)));
        const remote = inner.find((item) => blockKeyword(item) === 'backend' && blockLabelNodes(item).map(labelValue)[0] === 'remote');
        if (remote) return replaceBlock(file, remote, renderCloud(target, [], indentOf(file.text, remote)));
        intoTerraformBlock ??= insertIntoTerraformBlock(file, block, target);
      }
    } finally {
      tree.delete();
    }
  }
  if (intoTerraformBlock) return intoTerraformBlock;
  const main = ordered[0];
  const block = `terraform {\n${renderCloud(target, [], '  ')}\n}\n`;
  if (main) {
    const end = endPosition(main.text);
    const separator = main.text.length === 0 || main.text.endsWith('\n\n') ? '' : main.text.endsWith('\n') ? '\n' : '\n\n';
    return single(main.uri, { range: { start: end, end }, newText: `${separator}${block}` });
  }
  const uri = `${folderUri.replace(/\/+$/, '')}/main.tf`;
  const create: CreateFile = { kind: 'create', uri, options: { ignoreIfExists: true } };
  const edit: TextDocumentEdit = { textDocument: { uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: block }] };
  return { edit: { documentChanges: [create, edit] }, file: uri };
}

/** The cloud block's items that the link does not decide (e.g. `token`), as written. */
function keptItems(cloud: Node, target: LinkTarget): string[] {
  const decided = new Set(['organization', 'workspaces', ...(target.hostname ? ['hostname'] : [])]);
  return bodyItems(cloud)
    .filter((item) => !decided.has(item.type === 'attribute' ? attributeName(item) : blockKeyword(item)))
    .map((item) => item.text);
}

/** `cloud { … }` at `indent` (the closing brace too), its items one level deeper. */
function renderCloud(target: LinkTarget, kept: string[], indent: string): string {
  const inner = `${indent}  `;
  const lines = [`${indent}cloud {`];
  if (target.hostname && target.hostname.toLowerCase() !== defaultHost) lines.push(`${inner}hostname     = ${quote(target.hostname)}`);
  for (const item of kept) lines.push(`${inner}${item.trim()}`);
  lines.push(`${inner}organization = ${quote(target.organization)}`, '', `${inner}workspaces {`, `${inner}  name = ${quote(target.workspaceName)}`, `${inner}}`, `${indent}}`);
  return lines.join('\n');
}

function insertIntoTerraformBlock(file: FolderFile, block: Node, target: LinkTarget): LinkEdit {
  // Before the closing brace: the last child of a block is its `block_end`.
  const close = block.lastChild;
  const blockIndent = indentOf(file.text, block);
  if (!close || close.type !== 'block_end' || close.isMissing) {
    // A terraform block still being typed (no closing brace): a block of its own after it is the safe edit.
    const end = rangeOfNode(block).end;
    return single(file.uri, { range: { start: end, end }, newText: `\n\n${blockIndent}terraform {\n${renderCloud(target, [], `${blockIndent}  `)}\n${blockIndent}}\n` });
  }
  const at = rangeOfNode(close).start;
  const hasItems = bodyItems(block).length > 0;
  const lineStart = { line: at.line, character: 0 };
  const closeOnOwnLine = file.text.split('\n')[at.line]?.slice(0, at.character).trim() === '';
  const cloud = renderCloud(target, [], `${blockIndent}  `);
  if (closeOnOwnLine) return single(file.uri, { range: { start: lineStart, end: lineStart }, newText: `${hasItems ? '\n' : ''}${cloud}\n` });
  return single(file.uri, { range: { start: at, end: at }, newText: `\n${cloud}\n${blockIndent}` });
}

function replaceBlock(file: FolderFile, block: Node, rendered: string): LinkEdit {
  const range = rangeOfNode(block);
  // The rendering starts with the block's own indentation, which the range does not cover.
  return single(file.uri, { range, newText: rendered.trimStart() });
}

function single(uri: string, edit: TextEdit): LinkEdit {
  return { edit: { changes: { [uri]: [edit] } }, file: uri };
}

function indentOf(text: string, node: Node): string {
  const line = text.split('\n')[node.startPosition.row] ?? '';
  return /^[ \t]*/.exec(line)?.[0] ?? '';
}

function endPosition(text: string): { line: number; character: number } {
  const lines = text.split('\n');
  return { line: lines.length - 1, character: lines[lines.length - 1]!.length };
}

function quote(value: string): string {
  // HCL reads `${` and `%{` in a quoted string as templates: write them escaped.
  return JSON.stringify(value).replace(/\$\{/g, () => '$${').replace(/%\{/g, () => '%%{');
}
