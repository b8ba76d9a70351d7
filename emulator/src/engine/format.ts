// Terraform's `format` (go-cty's stdlib FormatFunc): `%` then flags (`0#-+ `), a width, a `.precision`, an
// argument index `[n]`, and a verb letter. The verbs Terraform has are all implemented with their flags and widths;
// a spec Terraform rejects (an unknown verb, too few or too many arguments, a value a verb cannot take) throws
// NotFormattable and the call is unknown, as is a number whose rounding this emulator cannot decide (goNumberText).
import type { LiteralValue } from '../../../server/src/model/hclLiterals';
import { formatFloat, numberText } from './goNumberText';
import { jsonString, jsonText } from './jsonText';

export class NotFormattable extends Error {}

const fail = (): never => {
  throw new NotFormattable();
};

interface Verb {
  zero: boolean;
  sharp: boolean;
  minus: boolean;
  plus: boolean;
  space: boolean;
  /** -1 when not given. */
  width: number;
  precision: number;
  letter: string;
}

const verbPattern = /%([0#\-+ ]*)([1-9]\d*)?(\.\d*)?(?:\[([1-9]\d*)\])?([a-zA-Z])?/y;

export function format(spec: string, args: readonly LiteralValue[]): string {
  let out = '';
  let nextArg = 1;
  let highestArg = 0;
  for (let at = 0; at < spec.length; ) {
    if (spec[at] !== '%') {
      out += spec[at++];
      continue;
    }
    if (spec[at + 1] === '%') {
      out += '%';
      at += 2;
      continue;
    }
    verbPattern.lastIndex = at;
    const match = verbPattern.exec(spec)!;
    const [whole, flags = '', width, precision, index, letter] = match;
    if (!letter) fail();
    const verb: Verb = {
      zero: flags.includes('0'),
      sharp: flags.includes('#'),
      minus: flags.includes('-'),
      plus: flags.includes('+'),
      space: flags.includes(' '),
      width: width ? Number(width) : -1,
      precision: precision ? Number(precision.slice(1) || '0') : -1,
      letter: letter!,
    };
    const argNumber = index ? Number(index) : nextArg;
    if (argNumber > args.length) fail();
    highestArg = Math.max(highestArg, argNumber);
    out += formatArgument(verb, args[argNumber - 1]!);
    nextArg = argNumber + 1;
    at += whole.length;
  }
  // Terraform rejects arguments the spec never uses, to catch mistakes.
  if (highestArg < args.length) fail();
  return out;
}

function formatArgument(verb: Verb, value: LiteralValue): string {
  if (verb.letter !== 'v' && value === null) fail();
  switch (verb.letter) {
    case 'v':
      return asIs(verb, value);
    case 't':
      return String(toBool(value));
    case 'b':
    case 'd':
    case 'o':
    case 'x':
    case 'X':
      return integer(verb, toNumber(value));
    case 'e':
    case 'E':
    case 'f':
    case 'g':
    case 'G':
      return float(verb, toNumber(value));
    case 's':
    case 'q':
      return text(verb, toText(value));
    default:
      return fail();
  }
}

/** `%v`: a string or number as itself (padded), anything else (or anything with `#`) as JSON. */
function asIs(verb: Verb, value: LiteralValue): string {
  if (!verb.sharp && typeof value === 'string') return padWidth(verb, value);
  if (!verb.sharp && typeof value === 'number') return padWidth(verb, formatFloat(value, 'g', -1) ?? fail());
  return padWidth(verb, jsonText(value) ?? fail());
}

/** `%s` and `%q`: precision and width count characters as a reader sees them (grapheme clusters). */
function text(verb: Verb, value: string): string {
  const truncated = verb.precision > 0 ? graphemes(value).slice(0, verb.precision).join('') : value;
  return padWidth(verb, verb.letter === 'q' ? jsonString(truncated) : truncated);
}

/** cty's own padding for %v, %s and %q: `0` pads with zeros, `-` pads on the right (with zeros too, when both). */
function padWidth(verb: Verb, formatted: string): string {
  const missing = verb.width - graphemes(formatted).length;
  if (missing <= 0) return formatted;
  const pad = (verb.zero ? '0' : ' ').repeat(missing);
  return verb.minus ? formatted + pad : pad + formatted;
}

/** Go's big.Int Format: [spaces][sign][prefix][zeros][digits][spaces]; precision is the least number of digits. */
function integer(verb: Verb, value: number): string {
  if (!Number.isInteger(value)) fail();
  if (!Number.isSafeInteger(value)) fail(); // beyond a double's exact integers the digits would be wrong
  const base = { b: 2, d: 10, o: 8, x: 16, X: 16 }[verb.letter as 'b' | 'd' | 'o' | 'x' | 'X'];
  let digits = Math.abs(value).toString(base);
  if (verb.letter === 'X') digits = digits.toUpperCase();
  const sign = value < 0 ? '-' : verb.plus ? '+' : verb.space ? ' ' : '';
  const prefix = verb.sharp ? ({ b: '0b', o: '0', x: '0x', X: '0X' } as Record<string, string>)[verb.letter] ?? '' : '';
  let zeros = 0;
  if (verb.precision >= 0) {
    if (digits.length < verb.precision) zeros = verb.precision - digits.length;
    else if (digits === '0' && verb.precision === 0) return '';
  }
  const length = sign.length + prefix.length + zeros + digits.length;
  let left = 0;
  let right = 0;
  if (verb.width > length) {
    const missing = verb.width - length;
    if (verb.minus) right = missing;
    else if (verb.zero && verb.precision < 0) zeros = missing;
    else left = missing;
  }
  return `${' '.repeat(left)}${sign}${prefix}${'0'.repeat(zeros)}${digits}${' '.repeat(right)}`;
}

/** Go's big.Float Format: `%e`/`%f` default to 6 decimals, `%g` to the shortest; `0` pads after the sign. */
function float(verb: Verb, value: number): string {
  const letter = verb.letter as 'e' | 'E' | 'f' | 'g' | 'G';
  const precision = verb.precision >= 0 ? verb.precision : letter === 'g' || letter === 'G' ? -1 : 6;
  let digits = formatFloat(value, letter, precision) ?? fail();
  let sign = '';
  if (digits.startsWith('-')) [sign, digits] = ['-', digits.slice(1)];
  else if (verb.plus) sign = '+';
  else if (verb.space) sign = ' ';
  const missing = Math.max(0, verb.width - sign.length - digits.length);
  // Go's fmt drops the `0` flag when `-` is given (no zeros on the right).
  if (verb.zero && !verb.minus) return `${sign}${'0'.repeat(missing)}${digits}`;
  if (verb.minus) return `${sign}${digits}${' '.repeat(missing)}`;
  return `${' '.repeat(missing)}${sign}${digits}`;
}

/** cty's conversions to the verb's type: a numeric string is a number, "true"/"false" a bool, a primitive a string. */
function toNumber(value: LiteralValue): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(value)) return Number(value);
  return fail();
}

function toBool(value: LiteralValue): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'false') return value === 'true';
  return fail();
}

function toText(value: LiteralValue): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return numberText(value) ?? fail();
  return fail();
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

function graphemes(value: string): string[] {
  return [...segmenter.segment(value)].map((segment) => segment.segment);
}
