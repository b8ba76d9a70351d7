// The "Outputs:" block Terraform prints after an apply (views.OutputHuman): the state's root outputs by name, a
// sensitive one as <sensitive>, each value in Terraform's own syntax (repl.FormatValue) with the type its state
// entry records, so a list reads `tolist([...])` and a tuple `[...]`.
import { numberText } from '../engine/goNumberText';
import type { StateOutputs } from './stateWrite';
import { typeOf } from '../store/valueType';

export function outputLines(outputs: StateOutputs): string[] {
  const names = Object.keys(outputs).sort();
  if (names.length === 0) return [];
  const lines = names.map((name) => {
    const output = outputs[name]!;
    return output.sensitive ? `${name} = <sensitive>` : `${name} = ${formatValue(output.value, output.type ?? typeOf(output.value), 0)}`;
  });
  return ['', 'Outputs:', '', ...lines.join('\n').split('\n')];
}

function formatValue(value: unknown, type: unknown, indent: number): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return multiline(value, indent) ?? goQuote(value);
  if (typeof value === 'number') return numberText(value) ?? String(value);
  if (typeof value === 'boolean') return String(value);
  const [kind, inner] = Array.isArray(type) ? (type as [string, unknown]) : ['dynamic', undefined];
  if (Array.isArray(value)) {
    const itemType = (index: number) => (kind === 'tuple' && Array.isArray(inner) ? inner[index] : inner);
    const body = sequence(value.map((item, index) => formatValue(item, itemType(index), indent + 2)), indent);
    return kind === 'list' || kind === 'set' ? `to${kind}(${body})` : body;
  }
  const object = value as Record<string, unknown>;
  const attributeType = (key: string) => (kind === 'object' && inner && typeof inner === 'object' ? (inner as Record<string, unknown>)[key] : inner);
  const body = mapping(Object.keys(object).sort().map((key) => `${goQuote(key)} = ${formatValue(object[key], attributeType(key), indent + 2)}`), indent);
  return kind === 'map' ? `tomap(${body})` : body;
}

function sequence(items: string[], indent: number): string {
  const pad = ' '.repeat(indent + 2);
  return items.length === 0 ? '[]' : `[\n${items.map((item) => `${pad}${item},`).join('\n')}\n${' '.repeat(indent)}]`;
}

function mapping(entries: string[], indent: number): string {
  const pad = ' '.repeat(indent + 2);
  return entries.length === 0 ? '{}' : `{\n${entries.map((entry) => `${pad}${entry}`).join('\n')}\n${' '.repeat(indent)}}`;
}

/** A string with a newline is a heredoc (`<<-` when indented), its delimiter lengthened until no line is it. */
function multiline(value: string, indent: number): string | undefined {
  const lines = value.split('\n');
  if (lines.length < 2) return undefined;
  let delimiter = 'EOT';
  while (lines.some((line) => line.trim() === delimiter)) delimiter += '_';
  const pad = ' '.repeat(indent);
  return `${indent > 0 ? '<<-' : '<<'}${delimiter}\n${lines.map((line) => `${pad}${line}`).join('\n')}\n${pad}${delimiter}`;
}

/** Go's strconv.Quote: printable characters as they are, the usual backslash escapes, \x / \u for the rest. */
function goQuote(value: string): string {
  const named: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '"': '\\"', '\\': '\\\\' };
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (named[char]) out += named[char];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Cn}]/u.test(char) || (/\p{Zs}/u.test(char) && char !== ' ')) out += code > 0xffff ? `\\U${code.toString(16).padStart(8, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
    else out += char;
  }
  return `${out}"`;
}
