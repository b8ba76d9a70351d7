// The few pure Terraform functions the engine evaluates when every argument is known (the ones that usually shape
// `count`, `for_each`, names and tags). Any other function, or one called with arguments it cannot take, is
// "known after apply" rather than an error: the emulator plans, it does not validate.
import type { LiteralObject, LiteralValue } from '../../../server/src/model/hclLiterals';
import { asText, isObject, unknown, type Value } from './values';
import { format, NotFormattable } from './format';
import { jsonText } from './jsonText';

type TerraformFunction = (args: LiteralValue[]) => Value;

/** Thrown inside a function when the arguments do not fit; the call is then unknown. */
class NotEvaluable extends Error {}

const fail = (): never => {
  throw new NotEvaluable();
};
const list = (value: LiteralValue | undefined): LiteralValue[] => (Array.isArray(value) ? value : fail());
const object = (value: LiteralValue | undefined): LiteralObject => (isObject(value) ? value : fail());
const text = (value: LiteralValue | undefined): string => (value === undefined ? fail() : (asText(value) ?? fail()));

/** Sets keep the order they were written in (first occurrence wins), which is the order the plan lists them. */
function toSet(items: LiteralValue[]): LiteralValue[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = JSON.stringify(item);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

const functions: Record<string, TerraformFunction> = {
  toset: ([value]) => toSet(list(value)),
  tolist: ([value]) => list(value),
  tomap: ([value]) => object(value),
  tostring: ([value]) => text(value),
  keys: ([value]) => Object.keys(object(value)).sort(),
  values: ([value]) => {
    const map = object(value);
    return Object.keys(map)
      .sort()
      .map((key) => map[key]!);
  },
  length: ([value]) => (typeof value === 'string' ? [...value].length : Array.isArray(value) ? value.length : Object.keys(object(value)).length),
  upper: ([value]) => text(value).toUpperCase(),
  lower: ([value]) => text(value).toLowerCase(),
  join: ([separator, ...lists]) => (lists.length === 0 ? fail() : lists.flatMap(list).map(text).join(text(separator))),
  format: ([spec, ...args]) => format(text(spec), args),
  concat: (lists) => lists.flatMap(list),
  merge: (maps) => Object.assign({}, ...maps.filter((map) => map !== null).map(object)) as LiteralObject,
  lookup: ([map, key, fallback]) => {
    const found = object(map);
    const name = text(key);
    return Object.hasOwn(found, name) ? found[name]! : fallback !== undefined ? fallback : fail();
  },
  jsonencode: ([value]) => (value === undefined ? fail() : (jsonText(value) ?? fail())),
};

/** The call's result, or unknown when the function is not one of the above or an argument is unknown or unfit. */
export function callFunction(name: string, args: Value[]): Value {
  const fn = Object.hasOwn(functions, name) ? functions[name] : undefined;
  if (!fn || args.some((arg) => arg === unknown)) return unknown;
  try {
    return fn(args as LiteralValue[]);
  } catch (error) {
    if (error instanceof NotEvaluable || error instanceof NotFormattable) return unknown;
    throw error;
  }
}
