// How Terraform's functions take their arguments (cty's function package): the errors a bad argument gives, in its
// words, and the conversions it makes on the way in (a number or bool where a string is wanted, a numeric string
// where a number is). Errors are thrown; functions.ts turns them into a call's outcome.
import type { LiteralObject, LiteralValue } from '../../../server/src/model/hclLiterals';
import { numberText } from './goNumberText';
import { isObject } from './values';

/** "Invalid function argument": `Invalid value for "<parameter>" parameter: <message>.`, pointing at argument `index`. */
export class FunctionArgumentError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

/** "Error in function call": `Call to function "<name>" failed: <message>.` */
export class FunctionCallError extends Error {}

/** The call is fine for Terraform but the engine cannot compute it faithfully: its value is unknown, not an error. */
export class NotEvaluable extends Error {}

export const argumentError = (index: number, message: string): never => {
  throw new FunctionArgumentError(index, message);
};
export const callError = (message: string): never => {
  throw new FunctionCallError(message);
};
export const notEvaluable = (): never => {
  throw new NotEvaluable();
};

/** cty's type name for a value the engine holds (a literal collection is a tuple or an object). */
export function typeName(value: LiteralValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'tuple';
  if (isObject(value)) return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

export function notNull(value: LiteralValue | undefined, index: number): LiteralValue {
  return value === null || value === undefined ? argumentError(index, 'argument must not be null') : value;
}

/** A string parameter: numbers and bools convert, as Terraform converts them. */
export function stringArgument(value: LiteralValue | undefined, index: number): string {
  const given = notNull(value, index);
  if (typeof given === 'string') return given;
  if (typeof given === 'number') return numberText(given) ?? notEvaluable();
  if (typeof given === 'boolean') return String(given);
  return argumentError(index, 'string required');
}

/** A number parameter: a decimal string converts. */
export function numberArgument(value: LiteralValue | undefined, index: number): number {
  const given = notNull(value, index);
  if (typeof given === 'number') return given;
  if (typeof given === 'string' && isDecimal(given)) return Number(given);
  return argumentError(index, 'a number is required');
}

/** Terraform's string to number conversion: a decimal representation only (no hex, no surrounding spaces). */
export function isDecimal(text: string): boolean {
  return /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text);
}

/** A list, set or tuple parameter. */
export function listArgument(value: LiteralValue | undefined, index: number, message = 'list of any single type required'): LiteralValue[] {
  const given = notNull(value, index);
  return Array.isArray(given) ? given : argumentError(index, message);
}

/** A map or object parameter. */
export function mapArgument(value: LiteralValue | undefined, index: number, message = 'must have map or object type'): LiteralObject {
  const given = notNull(value, index);
  return isObject(given) ? given : argumentError(index, message);
}

/**
 * Elements made into one type, as converting a tuple to a list (or an object to a map) does: strings with numbers
 * or bools become all strings; numbers with bools cannot be one type.
 */
export function unified(items: LiteralValue[]): LiteralValue[] | undefined {
  const kinds = new Set(items.filter((item) => item !== null).map(typeName));
  if (kinds.size <= 1) return items;
  if ([...kinds].every((kind) => kind === 'string' || kind === 'number' || kind === 'bool') && kinds.has('string')) {
    return items.map((item) => (item === null ? null : typeof item === 'number' ? (numberText(item) ?? String(item)) : String(item)));
  }
  return undefined;
}

/** Grapheme clusters, as Terraform counts and slices strings. */
export function graphemes(text: string): string[] {
  return [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(text)].map((part) => part.segment);
}
