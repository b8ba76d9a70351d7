// String templates with interpolations ("web-${count.index}", heredocs). The literal text is sliced from the
// source between the interpolations rather than taken from `template_literal` nodes, which leave out the
// whitespace around them. Directives (`%{ if }`, `%{ for }`) are not evaluated: the template is then unknown.
import type { Node } from 'web-tree-sitter';
import { decodeHclEscapes, readLiteral } from '../../../server/src/model/hclLiterals';
import { asText, unknown, type Value } from './values';

export function renderTemplate(template: Node, evaluate: (expression: Node) => Value): Value {
  const literal = readLiteral(template);
  if (literal) return literal.value;
  if (template.namedChildren.some((child) => child?.type === 'template_directive')) return unknown;
  const heredoc = template.type === 'heredoc_template';
  const region = heredoc ? heredocRegion(template) : quotedRegion(template);
  if (!region) return unknown;
  const source = template.text;
  const base = template.startIndex;
  // Heredocs take backslashes literally; only `$${` and `%%{` are escapes there.
  const decode = heredoc ? (raw: string) => raw.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{') : decodeHclEscapes;
  const pieces: string[] = [];
  let cursor = region.start;
  let stripNext = false;
  for (const child of template.namedChildren) {
    if (child?.type !== 'template_interpolation') continue;
    let text = decode(source.slice(cursor - base, child.startIndex - base));
    if (stripNext) text = text.trimStart();
    const markers = child.namedChildren.filter((part) => part?.type === 'strip_marker');
    const expression = child.namedChildren.find((part) => part?.type === 'expression');
    // `${~ x ~}` trims the whitespace before and after the interpolation.
    if (markers.some((marker) => marker!.startIndex < (expression?.startIndex ?? 0))) text = text.trimEnd();
    stripNext = markers.some((marker) => marker!.startIndex > (expression?.startIndex ?? 0));
    const value = expression ? evaluate(expression) : unknown;
    const rendered = value === unknown ? undefined : asText(value);
    if (rendered === undefined) return unknown;
    pieces.push(text, rendered);
    cursor = child.endIndex;
  }
  let tail = decode(source.slice(cursor - base, region.end - base));
  if (stripNext) tail = tail.trimStart();
  const result = [...pieces, tail].join('');
  return heredoc && template.namedChildren[0]?.text === '<<-' ? stripCommonIndent(result) : result;
}

function quotedRegion(template: Node): { start: number; end: number } | undefined {
  const start = template.firstChild;
  const end = template.lastChild;
  if (start?.type !== 'quoted_template_start' || end?.type !== 'quoted_template_end' || end.isMissing) return undefined;
  return { start: start.endIndex, end: end.startIndex };
}

/** From the line after `<<EOT` to the start of the closing marker's line. */
function heredocRegion(template: Node): { start: number; end: number } | undefined {
  const markers = template.namedChildren.filter((child) => child?.type === 'heredoc_identifier');
  if (markers.length < 2) return undefined;
  const source = template.text;
  const base = template.startIndex;
  const afterOpening = source.indexOf('\n', markers[0]!.endIndex - base);
  if (afterOpening < 0) return undefined;
  const closingLine = source.lastIndexOf('\n', markers[markers.length - 1]!.startIndex - base - 1) + 1;
  return { start: base + afterOpening + 1, end: base + closingLine };
}

/** `<<-` heredocs drop the indentation their lines share. */
function stripCommonIndent(content: string): string {
  const lines = content.split('\n');
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(Math.min(common, line.length))).join('\n');
}
