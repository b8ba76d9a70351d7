// JSON as Terraform writes it (jsonencode, format's %v and %q, the -json UI): cty's encoder over Go's encoding/json.
// Object and map keys come out sorted (cty keeps attributes in name order), numbers in full decimal (never an
// exponent), and `<`, `>`, `&`, U+2028 and U+2029 escaped as \u sequences.
import type { LiteralValue } from '../../../server/src/model/hclLiterals';
import { numberText } from './goNumberText';

/** The JSON text; undefined for a number JSON cannot hold (Terraform errors on those). */
export function jsonText(value: LiteralValue): string | undefined {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return numberText(value);
  if (typeof value === 'string') return jsonString(value);
  const parts: string[] = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = jsonText(item);
      if (text === undefined) return undefined;
      parts.push(text);
    }
    return `[${parts.join(',')}]`;
  }
  for (const key of Object.keys(value).sort()) {
    const text = jsonText(value[key]!);
    if (text === undefined) return undefined;
    parts.push(`${jsonString(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

export function jsonString(text: string): string {
  return JSON.stringify(text).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
