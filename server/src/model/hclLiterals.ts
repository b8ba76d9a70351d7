// Reads HCL literal values (strings without interpolation, numbers, bools, null, tuples, objects) from syntax-tree
// nodes. Anything computed (references, function calls, interpolation) is not a literal and yields undefined, so
// callers can tell "not knowable without evaluating" from a real value such as null.
import type { Node } from 'web-tree-sitter';

export type LiteralValue = string | number | boolean | null | LiteralValue[] | LiteralObject;
export interface LiteralObject {
  [key: string]: LiteralValue;
}

/** Deeper nesting than this is treated as not-a-literal instead of risking the call stack on hostile input. */
const maxDepth = 200;

/** The literal value of an expression node (or of a node inside one), wrapped so that `null` is a value. */
export function readLiteral(node: Node): { value: LiteralValue } | undefined {
  const value = literalOf(node, 0);
  return value === notLiteral ? undefined : { value };
}

const notLiteral = Symbol('not a literal');
type Read = LiteralValue | typeof notLiteral;

function literalOf(node: Node, depth: number): Read {
  if (depth > maxDepth || node.isMissing || node.isError) return notLiteral;
  switch (node.type) {
    case 'expression':
      return expressionLiteral(node, depth);
    case 'literal_value':
    case 'collection_value':
    case 'template_expr':
      return node.firstNamedChild ? literalOf(node.firstNamedChild, depth + 1) : notLiteral;
    case 'numeric_lit':
      return numberOf(node.text);
    case 'bool_lit':
      return node.text === 'true';
    case 'null_lit':
      return null;
    case 'string_lit':
    case 'quoted_template':
      return isPlainTemplate(node) ? decodeStringLiteral(node) : notLiteral;
    case 'heredoc_template':
      return isPlainTemplate(node) ? heredocText(node) : notLiteral;
    case 'tuple':
      return tupleOf(node, depth);
    case 'object':
      return objectOf(node, depth);
    case 'operation':
      return node.firstNamedChild ? literalOf(node.firstNamedChild, depth + 1) : notLiteral;
    case 'unary_operation':
      return negatedNumber(node, depth);
    default:
      return notLiteral;
  }
}

function expressionLiteral(expression: Node, depth: number): Read {
  if (expression.namedChildCount === 1) {
    const only = expression.firstNamedChild;
    return only ? literalOf(only, depth + 1) : notLiteral;
  }
  const parts = expression.namedChildren.filter((child): child is Node => child !== null && child.type !== 'comment');
  // `(expr)` keeps the parentheses as anonymous children around one nested expression.
  if (parts.length !== 1) return notLiteral;
  return literalOf(parts[0], depth + 1);
}

function numberOf(text: string): Read {
  const value = Number(text);
  return Number.isFinite(value) ? value : notLiteral;
}

function negatedNumber(operation: Node, depth: number): Read {
  if (operation.firstChild?.type !== '-') return notLiteral;
  const operand = operation.firstNamedChild;
  const value = operand ? literalOf(operand, depth + 1) : notLiteral;
  return typeof value === 'number' ? -value : notLiteral;
}

function tupleOf(tuple: Node, depth: number): Read {
  const items: LiteralValue[] = [];
  for (const child of tuple.namedChildren) {
    if (!child || child.type !== 'expression') continue;
    const item = literalOf(child, depth + 1);
    if (item === notLiteral) return notLiteral;
    items.push(item);
  }
  return items;
}

function objectOf(object: Node, depth: number): Read {
  const entries: [string, LiteralValue][] = [];
  for (const element of object.namedChildren) {
    if (!element || element.type !== 'object_elem') continue;
    const keyNode = element.childForFieldName('key');
    const valueNode = element.childForFieldName('val');
    const key = keyNode ? objectKeyOf(keyNode) : undefined;
    const value = valueNode ? literalOf(valueNode, depth + 1) : notLiteral;
    if (key === undefined || value === notLiteral) return notLiteral;
    entries.push([key, value]);
  }
  // fromEntries defines own properties, so a key such as "__proto__" stays an ordinary key.
  return Object.fromEntries(entries) as LiteralObject;
}

/** An object key is a bare identifier (`port = 80`) or a literal string (`"port" = 80`). */
export function objectKeyOf(keyExpression: Node): string | undefined {
  const parts = keyExpression.namedChildren.filter((child): child is Node => child !== null);
  if (parts.length !== 1) return undefined;
  const [part] = parts;
  if (part.type === 'variable_expr') return part.text;
  const literal = literalOf(part, 0);
  return typeof literal === 'string' ? literal : undefined;
}

/** True when a template has only literal text (no `${...}` or `%{...}`). */
function isPlainTemplate(template: Node): boolean {
  return template.namedChildren.every((child) => child !== null && child.type !== 'template_interpolation' && child.type !== 'template_directive');
}

/** The decoded content of a quoted string node (`"a\n${x}"` style escapes resolved). */
export function decodeStringLiteral(node: Node): string {
  const start = node.firstChild;
  const end = node.lastChild;
  if (!start || start.type !== 'quoted_template_start') return node.text;
  const contentEnd = end && end.type === 'quoted_template_end' && !end.isMissing ? end.startIndex : node.endIndex;
  const raw = node.text.slice(start.endIndex - node.startIndex, contentEnd - node.startIndex);
  return decodeHclEscapes(raw);
}

const escapes: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

/** HCL string escapes: \n \r \t \" \\ \uNNNN \UNNNNNNNN, and $${ / %%{ for a literal ${ / %{. */
export function decodeHclEscapes(raw: string): string {
  return raw.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[nrt"\\])|\$\$\{|%%\{/g, (match, escape: string | undefined) => {
    if (match === '$${') return '${';
    if (match === '%%{') return '%{';
    if (!escape) return match;
    if (escape[0] === 'u' || escape[0] === 'U') {
      const codePoint = Number.parseInt(escape.slice(1), 16);
      return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : match;
    }
    return escapes[escape];
  });
}

/** Heredoc content: the lines between the opening and closing markers; `<<-` also strips the common indent. */
function heredocText(heredoc: Node): string {
  const identifiers = heredoc.namedChildren.filter((child): child is Node => child?.type === 'heredoc_identifier');
  if (identifiers.length < 2) return '';
  // Offsets relative to the heredoc node's own text.
  const source = heredoc.text;
  const afterOpening = source.indexOf('\n', identifiers[0].endIndex - heredoc.startIndex);
  if (afterOpening < 0) return '';
  const closingLineStart = source.lastIndexOf('\n', identifiers[identifiers.length - 1].startIndex - heredoc.startIndex - 1) + 1;
  let content = source.slice(afterOpening + 1, closingLineStart);
  if (heredoc.firstNamedChild?.text === '<<-') content = stripCommonIndent(content);
  return content;
}

function stripCommonIndent(content: string): string {
  const lines = content.split('\n');
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^[ \t]*/.exec(line)?.[0].length ?? 0);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((line) => line.slice(Math.min(common, line.length))).join('\n');
}
