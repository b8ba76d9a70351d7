// The pure Terraform functions the engine evaluates when every argument is known, with Terraform's results and its
// errors for arguments they do not take (functionArguments.ts). Any other function, an unknown argument, or a call
// the engine cannot compute faithfully (a regex feature JavaScript lacks) is "known after apply". `try` and `can`
// take expressions, not values: evaluate.ts handles them.
import { createHash } from 'node:crypto';
import type { LiteralObject, LiteralValue } from '../../../server/src/model/hclLiterals';
import { format, NotFormattable } from './format';
import {
  argumentError,
  callError,
  FunctionArgumentError,
  FunctionCallError,
  graphemes,
  isDecimal,
  listArgument,
  mapArgument,
  notEvaluable,
  NotEvaluable,
  notNull,
  numberArgument,
  stringArgument,
  typeName,
  unified,
} from './functionArguments';
import { functionSignatures } from './functionSignatures';
import { goRegex, GoRegexSyntaxError } from './goRegex';
import { jsonText } from './jsonText';
import { isObject, sameValue, unknown, type Value } from './values';

type TerraformFunction = (args: LiteralValue[]) => LiteralValue;

/** What went wrong with a call, as Terraform reports it. */
export type FunctionProblem =
  | { kind: 'argument'; parameter: string; index: number; message: string }
  | { kind: 'call'; message: string }
  | { kind: 'unknown-function' };

/** Sets in Terraform's order: strings by byte order, numbers by value, others as first written; each once. */
function toSet(items: LiteralValue[]): LiteralValue[] {
  const seen = new Set<string>();
  const unique = items.filter((item) => {
    const key = JSON.stringify(item);
    return seen.has(key) ? false : (seen.add(key), true);
  });
  if (unique.every((item) => typeof item === 'string')) return unique.sort((a, b) => ((a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0));
  if (unique.every((item) => typeof item === 'number')) return unique.sort((a, b) => (a as number) - (b as number));
  return unique;
}

const sortedKeys = (map: LiteralObject) => Object.keys(map).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const oneType = (items: LiteralValue[], index: number, to: string) => unified(items) ?? argumentError(index, `cannot convert ${to === 'map' ? 'object' : 'tuple'} to ${to} of any single type`);

/** `regex`'s result for one match: the match, its groups as a list, or its named groups as a map. */
function matchValue(match: RegExpExecArray, groups: string[]): LiteralValue {
  if (groups.length === 0) return match[0];
  const named = groups.filter(Boolean);
  if (named.length === 0) return groups.map((_, i) => match[i + 1] ?? '');
  return Object.fromEntries(named.map((name) => [name, match.groups?.[name] ?? '']));
}

function compiled(pattern: string, global: boolean, index: number) {
  try {
    const result = goRegex(pattern, global);
    const named = result.groups.filter(Boolean).length;
    if (named > 0 && named < result.groups.length) return argumentError(index, 'invalid regexp pattern: cannot mix both named and unnamed capture groups');
    return result;
  } catch (error) {
    if (error instanceof GoRegexSyntaxError) return argumentError(index, `invalid regexp pattern: ${error.code} in ${error.expression}`);
    throw error;
  }
}

function range(args: LiteralValue[]): LiteralValue[] {
  if (args.length < 1 || args.length > 3) return callError('must have one, two, or three arguments');
  const numbers = args.map((arg, i) => numberArgument(arg, i));
  const [start, end, step] = numbers.length === 1 ? [0, numbers[0]!, 1] : [numbers[0]!, numbers[1]!, numbers[2] ?? (numbers[1]! < numbers[0]! ? -1 : 1)];
  const values: number[] = [];
  for (let value = start; step >= 0 ? value < end : value > end; value += step) {
    if (values.length >= 1024) return callError('more than 1024 values were generated; either decrease the difference between start and end or use a smaller step');
    values.push(value);
  }
  return values;
}

function jsonDecode(text: string): LiteralValue {
  if (text.trim() === '') return callError('EOF');
  try {
    return JSON.parse(text) as LiteralValue;
  } catch (error) {
    // Go's decoder names the first character it could not take; JavaScript's message gives its position.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    // Input that stops short ("[1,") is Go's io.EOF.
    return at !== undefined && Number(at) < text.length ? callError(`invalid character '${text[Number(at)]}'`) : callError('EOF');
  }
}

function base64Decode(text: string): string {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return callError(`failed to decode base64 data ${JSON.stringify(text)}`);
  const bytes = Buffer.from(text, 'base64');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return callError('the result of decoding the provided string is not valid UTF-8');
  }
}

/** The first value that is neither null nor "", in the type all the arguments share (strings over numbers). */
function coalesce(args: LiteralValue[]): LiteralValue {
  const values = unified(args) ?? notEvaluable();
  const found = values.find((value) => value !== null && value !== '');
  return found === undefined ? callError('no non-null, non-empty-string arguments') : found;
}

const functions: Record<string, TerraformFunction> = {
  // Type conversions
  toset: ([value]) => toSet(oneType(listArgument(value, 0, `cannot convert ${typeName(value ?? null)} to set of any single type`), 0, 'set')),
  tolist: ([value]) => oneType(listArgument(value, 0, `cannot convert ${typeName(value ?? null)} to list of any single type`), 0, 'list'),
  tomap: ([value]) => {
    const map = mapArgument(value, 0, `cannot convert ${typeName(value ?? null)} to map of any single type`);
    const values = oneType(Object.values(map), 0, 'map');
    return Object.fromEntries(Object.keys(map).map((key, i) => [key, values[i]!]));
  },
  tostring: ([value]) => (value === null ? null : typeof value === 'object' ? argumentError(0, `cannot convert ${typeName(value!)} to string`) : stringArgument(value, 0)),
  tonumber: ([value]) => {
    if (value === null || typeof value === 'number') return value ?? null;
    if (typeof value === 'string') return isDecimal(value) ? Number(value) : argumentError(0, `cannot convert ${JSON.stringify(value)} to number; given string must be a decimal representation of a number`);
    return argumentError(0, `cannot convert ${typeName(value!)} to number`);
  },
  // Collections
  keys: ([value]) => sortedKeys(mapArgument(value, 0)),
  values: ([value]) => {
    const map = isObject(value) ? value : callError('values() requires a map as the first argument');
    return sortedKeys(map).map((key) => map[key]!);
  },
  length: ([value]) => {
    const given = notNull(value, 0);
    if (Array.isArray(given)) return given.length;
    if (isObject(given)) return Object.keys(given).length;
    return typeof given === 'string' ? graphemes(given).length : callError('argument must be a string, a collection type, or a structural type');
  },
  concat: (lists) => lists.flatMap((list, i) => listArgument(list, i, `all arguments must be lists or tuples; got ${typeName(list ?? null)}`)),
  merge: (maps) =>
    Object.assign({}, ...maps.map((map) => (map === null || isObject(map) ? (map ?? {}) : callError(`arguments must be maps or objects, got ${JSON.stringify(typeName(map))}`)))) as LiteralObject,
  lookup: ([map, key, ...fallback]) => {
    const found = mapArgument(map, 0);
    const name = stringArgument(key, 1);
    if (fallback.length > 1) return callError(`lookup() takes two or three arguments, got ${fallback.length + 2}`);
    if (Object.hasOwn(found, name)) return found[name]!;
    return fallback.length === 1 ? fallback[0]! : argumentError(0, `the given object has no attribute ${JSON.stringify(name)}`);
  },
  element: ([list, index]) => {
    const items = Array.isArray(list) ? list : list === null ? argumentError(0, 'argument must not be null') : callError(`cannot read elements from ${typeName(list!)}`);
    const at = numberArgument(index, 1);
    if (items.length === 0) return callError('cannot use element function with an empty list');
    // Terraform 1.11 panics on a negative index (a cty bug); not something to imitate.
    if (at < 0 || !Number.isInteger(at)) return notEvaluable();
    return items[at % items.length]!;
  },
  index: ([list, value]) => {
    const items = Array.isArray(list) ? list : callError('argument must be a list or tuple');
    const at = items.findIndex((item) => sameValue(item, notNull(value, 1)));
    return at >= 0 ? at : callError('item not found');
  },
  contains: ([list, value]) => {
    const items = Array.isArray(list) ? list : callError('argument must be list, tuple, or set');
    // A tuple of strings and numbers is a list of strings: 1 is found as "1".
    const asOne = unified([...items, notNull(value, 1)]) ?? [...items, value!];
    const wanted = asOne[asOne.length - 1]!;
    return asOne.slice(0, -1).some((item) => sameValue(item, wanted));
  },
  flatten: ([list]) => {
    const flat = (value: LiteralValue): LiteralValue[] => (Array.isArray(value) ? value.flatMap(flat) : [value]);
    return Array.isArray(list) ? list.flatMap(flat) : callError('can only flatten lists, sets and tuples');
  },
  distinct: ([list]) => {
    const seen = new Set<string>();
    return oneType(listArgument(list, 0), 0, 'list').filter((item) => {
      const key = JSON.stringify(item);
      return seen.has(key) ? false : (seen.add(key), true);
    });
  },
  compact: ([list]) => listArgument(list, 0).filter((item) => item !== null).map((item, i) => (typeof item === 'object' ? argumentError(0, `element ${i}: string required`) : stringArgument(item, 0))).filter((item) => item !== ''),
  coalesce,
  coalescelist: (lists) => {
    for (const list of lists) if (list !== null && !Array.isArray(list)) return callError('coalescelist arguments must be lists or tuples');
    const found = lists.find((list) => Array.isArray(list) && list.length > 0);
    return found === undefined ? callError('no non-null arguments') : found;
  },
  zipmap: ([keys, values]) => {
    const names = listArgument(keys, 0, 'list of string required').map((key) => (typeof key === 'object' && key !== null ? argumentError(0, 'list of string required') : stringArgument(key, 0)));
    const items = listArgument(values, 1, 'list or tuple required');
    if (names.length !== items.length) return callError(`number of keys (${names.length}) does not match number of values (${items.length})`);
    return Object.fromEntries(names.map((name, i) => [name, items[i]!]));
  },
  range,
  // Strings
  upper: ([value]) => stringArgument(value, 0).toUpperCase(),
  lower: ([value]) => stringArgument(value, 0).toLowerCase(),
  trimspace: ([value]) => stringArgument(value, 0).trim(),
  join: ([separator, ...lists]) => {
    const glue = stringArgument(separator, 0);
    if (lists.length === 0) return callError('at least one list is required');
    const items = lists.flatMap((list, i) => listArgument(list, i + 1, 'list of string required'));
    return items
      .map((item, i) => (item === null ? argumentError(1, `element ${i} is null; cannot concatenate null values`) : typeof item === 'object' ? argumentError(1, `element ${i}: string required`) : stringArgument(item, 1)))
      .join(glue);
  },
  split: ([separator, text]) => {
    const [glue, value] = [stringArgument(separator, 0), stringArgument(text, 1)];
    return glue === '' ? [...value] : value.split(glue);
  },
  substr: ([text, offset, length]) => {
    const characters = graphemes(stringArgument(text, 0));
    let [from, count] = [numberArgument(offset, 1), numberArgument(length, 2)];
    if (from < 0) from = Math.max(characters.length + from, 0);
    if (from > characters.length) return '';
    return characters.slice(from, count < 0 ? undefined : from + count).join('');
  },
  replace: ([text, search, replacement]) => {
    const [value, pattern, by] = [stringArgument(text, 0), stringArgument(search, 1), stringArgument(replacement, 2)];
    if (pattern.length < 2 || !pattern.startsWith('/') || !pattern.endsWith('/')) return value.split(pattern).join(by);
    let regex: RegExp;
    try {
      regex = goRegex(pattern.slice(1, -1), true).regex;
    } catch (error) {
      if (error instanceof GoRegexSyntaxError) return callError(`error parsing regexp: ${error.message}`);
      throw error;
    }
    // Go writes a group as $1 or ${1} (and $name / ${name}); JavaScript takes $1 and $<name>.
    return value.replace(regex, by.replace(/\$\{(\w+)\}|\$([A-Za-z_]\w*)/g, (_, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare!;
      return /^\d+$/.test(name) ? `$${name}` : `$<${name}>`;
    }));
  },
  regex: ([pattern, text]) => {
    const { regex, groups } = compiled(stringArgument(pattern, 0), false, 0);
    const match = regex.exec(stringArgument(text, 1));
    return match ? matchValue(match, groups) : callError('pattern did not match any part of the given string');
  },
  regexall: ([pattern, text]) => {
    const { regex, groups } = compiled(stringArgument(pattern, 0), true, 0);
    return [...stringArgument(text, 1).matchAll(regex)].map((match) => matchValue(match, groups));
  },
  startswith: ([text, prefix]) => stringArgument(text, 0).startsWith(stringArgument(prefix, 1)),
  endswith: ([text, suffix]) => stringArgument(text, 0).endsWith(stringArgument(suffix, 1)),
  strcontains: ([text, part]) => stringArgument(text, 0).includes(stringArgument(part, 1)),
  format: ([spec, ...args]) => format(stringArgument(spec, 0), args),
  // Encodings and hashes
  jsonencode: ([value]) => jsonText(value ?? null) ?? notEvaluable(),
  jsondecode: ([text]) => jsonDecode(stringArgument(text, 0)),
  base64encode: ([text]) => Buffer.from(stringArgument(text, 0), 'utf8').toString('base64'),
  base64decode: ([text]) => base64Decode(stringArgument(text, 0)),
  sha256: ([text]) => createHash('sha256').update(stringArgument(text, 0), 'utf8').digest('hex'),
  // Numbers
  min: (numbers) => (numbers.length === 0 ? callError('must pass at least one number') : Math.min(...numbers.map((n, i) => numberArgument(n, i)))),
  max: (numbers) => (numbers.length === 0 ? callError('must pass at least one number') : Math.max(...numbers.map((n, i) => numberArgument(n, i)))),
  abs: ([value]) => Math.abs(numberArgument(value, 0)),
  ceil: ([value]) => Math.ceil(numberArgument(value, 0)),
  floor: ([value]) => Math.floor(numberArgument(value, 0)),
};

/** The parameter an argument fills: a fixed one by position, else the variadic one. */
function parameterName(name: string, index: number): string {
  const [params, variadic] = functionSignatures[name] ?? [[]];
  return params[index] ?? variadic ?? params[params.length - 1] ?? '';
}

/**
 * The call's result; unknown when the function is not evaluated here or an argument is unknown, and also when the
 * arguments do not fit, which `report` (if given) is told in Terraform's terms.
 */
export function callFunction(name: string, args: Value[], report?: (problem: FunctionProblem) => void): Value {
  if (!Object.hasOwn(functionSignatures, name)) {
    report?.({ kind: 'unknown-function' });
    return unknown;
  }
  const fn = Object.hasOwn(functions, name) ? functions[name] : undefined;
  if (!fn || args.some((arg) => arg === unknown)) return unknown;
  try {
    return fn(args as LiteralValue[]);
  } catch (error) {
    if (error instanceof FunctionArgumentError) report?.({ kind: 'argument', parameter: parameterName(name, error.index), index: error.index, message: error.message });
    else if (error instanceof FunctionCallError) report?.({ kind: 'call', message: error.message });
    else if (!(error instanceof NotEvaluable || error instanceof NotFormattable)) throw error;
    return unknown;
  }
}
