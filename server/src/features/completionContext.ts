// Where the cursor is, for completion: after `var.`, at a top-level key of a tfvars file (HCL or JSON), or in the quoted value of
// the cloud block's organization / workspace name. Reads only the text around the cursor (and the file's
// contribution), so a half-typed or broken file still completes.
import type { CloudBlock, FileContribution, Position, Range, RemoteBackendBlock, TextLines } from '../model';
import { LineIndex, rangeContains } from '../model';
import { endsInCode } from './lineSyntax';
import { jsonKeyAt } from './jsonKeyPosition';

export type CompletionContextKind =
  | { kind: 'variable'; replace: Range; typed: string }
  | { kind: 'tfvars-key'; replace: Range; typed: string }
  /** A key of a .tfvars.json file: written quoted, with a comma before it when the entry before has none. */
  | { kind: 'tfvars-json-key'; replace: Range; typed: string; quoted: boolean; valueFollows: boolean; commaAt?: Position }
  | { kind: 'organization'; replace: Range; typed: string }
  | { kind: 'workspace-name'; replace: Range; typed: string };

const variablePrefix = /(?:^|[^\w.\-])var\.([\w-]*)$/;
const tfvarsKeyPrefix = /^\s*([A-Za-z_][\w-]*)?$/;
const organizationPrefix = /^\s*organization\s*=\s*"([^"]*)$/;
const workspaceNamePrefix = /^\s*name\s*=\s*"([^"]*)$/;

export function completionContextAt(text: string, position: Position, contribution: FileContribution | undefined, lines: TextLines = new LineIndex(text)): CompletionContextKind | undefined {
  const offset = lines.offsetAt(position);
  const lineStart = lines.offsetAt({ line: position.line, character: 0 });
  // The cursor's line alone (an open document gives it without reading its whole, just-edited text).
  const lineText = lines.lineText ? lines.lineText(position.line) : text.slice(lineStart, lines.offsetAt({ line: position.line, character: Number.MAX_SAFE_INTEGER }));
  const before = lineText.slice(0, offset - lineStart);
  const after = lineText.slice(offset - lineStart);
  const wordAfter = /^[\w-]*/.exec(after)?.[0].length ?? 0;
  const rangeOf = (typed: string, extraAfter: number): Range => ({
    start: { line: position.line, character: position.character - typed.length },
    end: { line: position.line, character: position.character + extraAfter },
  });

  if (contribution?.kind === 'tfvars') {
    if (contribution.format === 'json') {
      const key = jsonKeyAt(text, offset);
      if (!key) return undefined;
      return {
        kind: 'tfvars-json-key',
        typed: key.typed,
        quoted: key.quoted,
        valueFollows: key.valueFollows,
        replace: { start: lines.positionAt(key.start), end: lines.positionAt(key.end) },
        ...(key.commaAt !== undefined ? { commaAt: lines.positionAt(key.commaAt) } : {}),
      };
    }
    const key = tfvarsKeyPrefix.exec(before);
    if (!key || braceDepth(text, offset) !== 0) return undefined;
    const typed = key[1] ?? '';
    return { kind: 'tfvars-key', typed, replace: rangeOf(typed, wordAfter) };
  }

  const variable = variablePrefix.exec(before);
  if (variable && endsInCode(before)) return { kind: 'variable', typed: variable[1], replace: rangeOf(variable[1], wordAfter) };

  if (contribution?.kind !== 'terraform') return undefined;
  const untilQuote = /^[^"\n]*/.exec(after)?.[0].length ?? 0;
  const organization = organizationPrefix.exec(before);
  if (organization && serviceBlocksOf(contribution).some((block) => rangeContains(block.range, position))) {
    return { kind: 'organization', typed: organization[1], replace: rangeOf(organization[1], untilQuote) };
  }
  const name = workspaceNamePrefix.exec(before);
  if (name && serviceBlocksOf(contribution).some((block) => block.workspaces && rangeContains(block.workspaces.range, position))) {
    return { kind: 'workspace-name', typed: name[1], replace: rangeOf(name[1], untilQuote) };
  }
  return undefined;
}

function serviceBlocksOf(contribution: { cloudBlocks: CloudBlock[]; remoteBackends: RemoteBackendBlock[] }): (CloudBlock | RemoteBackendBlock)[] {
  return [...contribution.cloudBlocks, ...contribution.remoteBackends];
}

/** Nesting depth of `{`/`[`/`(` at `offset`, skipping strings and comments (tfvars files are small). */
export function braceDepth(text: string, offset: number): number {
  let depth = 0;
  for (let i = 0; i < offset; i++) {
    const char = text[i];
    if (char === '"') {
      for (i++; i < offset && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (char === '#' || (char === '/' && text[i + 1] === '/')) {
      while (i < offset && text[i] !== '\n') i++;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? offset : end + 1;
    } else if (char === '{' || char === '[' || char === '(') depth++;
    else if (char === '}' || char === ']' || char === ')') depth = Math.max(0, depth - 1);
  }
  return depth;
}
