// The values the configuration engine computes with: HCL literal values, plus one marker for "known only after
// apply". Unknown never nests inside a collection: a tuple or object with an unknown part is unknown as a whole,
// which is all a plan needs (the argument is then listed as unknown).
import type { LiteralObject, LiteralValue } from '../../../server/src/model/hclLiterals';

export const unknown: unique symbol = Symbol('known after apply');
export type Unknown = typeof unknown;
export type Value = LiteralValue | Unknown;

export function isObject(value: Value | undefined): value is LiteralObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Terraform's automatic conversion to string (templates, join, format): primitives only. */
export function asText(value: Value): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A number, also from a numeric string (a workspace variable's value is always text unless it is HCL). */
export function asNumber(value: Value): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export function sameValue(a: LiteralValue, b: LiteralValue): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Variable values by name: run variables over workspace variables (the caller merges them; declared defaults come
 * from the configuration). `sensitive` names the ones marked sensitive on the workspace, so existing callers that
 * pass what `variableValues` returns get sensitivity without another argument.
 */
export class VariableValueMap extends Map<string, LiteralValue> {
  readonly sensitive = new Set<string>();
}
