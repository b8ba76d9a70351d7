// "Does this value fit the variable's type?" with Terraform's conversion rules: strings that spell a number or a
// bool convert, numbers and bools convert to strings, extra object attributes are dropped, null fits any type.
import type { LiteralValue } from './hclLiterals';
import type { TerraformType } from './typeExpression';
import { typeToString } from './typeExpression';

export interface TypeMismatch {
  /** Where inside the value, e.g. `["web"].port`; empty for the value itself. */
  path: string;
  expected: string;
  /** What was found: `string "three"`, `tuple`, `object`... (never more than a short excerpt of the value). */
  found: string;
  message: string;
}

export interface TypeCheckOptions {
  /** For sensitive variables: describe what was found by its kind only, never by its value. */
  hideValues?: boolean;
}

/** The first place where `value` cannot be converted to `type`, or undefined when it fits. */
export function checkValueAgainstType(value: LiteralValue, type: TerraformType, options: TypeCheckOptions = {}): TypeMismatch | undefined {
  return check(value, type, '', options.hideValues === true);
}

function check(value: LiteralValue, type: TerraformType, path: string, hide: boolean): TypeMismatch | undefined {
  if (value === null) return undefined;
  switch (type.kind) {
    case 'any':
    case 'unknown':
      return undefined;
    case 'string':
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? undefined : mismatch(path, type, value, hide);
    case 'number':
      return typeof value === 'number' || (typeof value === 'string' && numberSyntax.test(value)) ? undefined : mismatch(path, type, value, hide);
    case 'bool':
      return typeof value === 'boolean' || value === 'true' || value === 'false' ? undefined : mismatch(path, type, value, hide);
    case 'list':
    case 'set':
      if (!Array.isArray(value)) return mismatch(path, type, value, hide);
      return firstMismatch(value.map((item, index) => () => check(item, type.element, `${path}[${index}]`, hide)));
    case 'tuple':
      if (!Array.isArray(value)) return mismatch(path, type, value, hide);
      if (value.length !== type.elements.length) {
        return { ...mismatch(path, type, value, hide), message: `${where(path)}needs ${type.elements.length} elements, found ${value.length}` };
      }
      return firstMismatch(value.map((item, index) => () => check(item, type.elements[index], `${path}[${index}]`, hide)));
    case 'map':
      if (!isObject(value)) return mismatch(path, type, value, hide);
      return firstMismatch(Object.entries(value).map(([key, item]) => () => check(item, type.element, `${path}[${JSON.stringify(key)}]`, hide)));
    case 'object': {
      if (!isObject(value)) return mismatch(path, type, value, hide);
      for (const attribute of type.attributes) {
        const attributePath = `${path}.${attribute.name}`;
        if (!Object.hasOwn(value, attribute.name)) {
          if (attribute.optional) continue;
          return { path: attributePath, expected: typeToString(attribute.type), found: 'nothing', message: `attribute "${attribute.name}" is required${path ? ` in ${path}` : ''}` };
        }
        const problem = check(value[attribute.name], attribute.type, attributePath, hide);
        if (problem) return problem;
      }
      return undefined;
    }
  }
}

/** Terraform's number syntax for string-to-number conversion. */
const numberSyntax = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;

function isObject(value: LiteralValue): value is { [key: string]: LiteralValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function firstMismatch(checks: (() => TypeMismatch | undefined)[]): TypeMismatch | undefined {
  for (const check of checks) {
    const problem = check();
    if (problem) return problem;
  }
  return undefined;
}

function mismatch(path: string, type: TerraformType, value: LiteralValue, hide: boolean): TypeMismatch {
  const expected = typeToString(type);
  const found = describeValue(value, hide);
  return { path, expected, found, message: `${where(path)}${expected} required, found ${found}` };
}

function where(path: string): string {
  return path ? `${path}: ` : '';
}

/** A short description; strings are quoted and cut so a long (possibly secret) value is never echoed whole. */
export function describeValue(value: LiteralValue, hideValue = false): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'tuple';
  if (typeof value === 'object') return 'object';
  if (hideValue) return typeof value === 'boolean' ? 'bool' : typeof value;
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 24 ? `${value.slice(0, 21)}...` : value)}`;
  return `${typeof value === 'boolean' ? 'bool' : 'number'} ${String(value)}`;
}
