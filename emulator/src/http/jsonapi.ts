// Reading JSON:API request bodies with clear 422s, and the service's timestamp formats (notes §1.10).
import { invalidAttribute } from './errors';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `body.data` as an object, or 422 pointing at `/data`. */
export function readData(body: unknown): JsonObject {
  if (!isObject(body) || !isObject(body.data)) {
    throw invalidAttribute('The request body must be a JSON:API document with a "data" object.', '/data');
  }
  return body.data;
}

/** `data.attributes` (an empty object when absent), or 422 when it is not an object. */
export function readAttributes(data: JsonObject): JsonObject {
  if (data.attributes === undefined || data.attributes === null) return {};
  if (!isObject(data.attributes)) throw invalidAttribute('"attributes" must be an object.', '/data/attributes');
  return data.attributes;
}

/** The id of `data.relationships.<name>.data`, or undefined when the relationship is absent. */
export function readRelationshipId(data: JsonObject, name: string): string | undefined {
  const relationships = data.relationships;
  if (relationships === undefined) return undefined;
  const pointer = `/data/relationships/${name}/data/id`;
  if (!isObject(relationships)) throw invalidAttribute('"relationships" must be an object.', '/data/relationships');
  const relationship = relationships[name];
  if (relationship === undefined) return undefined;
  if (!isObject(relationship) || !isObject(relationship.data) || typeof relationship.data.id !== 'string') {
    throw invalidAttribute(`relationships.${name} must be {"data": {"type": …, "id": "<id>"}}.`, pointer);
  }
  return relationship.data.id;
}

export function optionalString(attributes: JsonObject, key: string, pointerBase = '/data/attributes'): string | undefined {
  const value = attributes[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidAttribute(`${key} must be a string.`, `${pointerBase}/${key}`);
  return value;
}

export function optionalBoolean(attributes: JsonObject, key: string, pointerBase = '/data/attributes'): boolean | undefined {
  const value = attributes[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw invalidAttribute(`${key} must be true or false.`, `${pointerBase}/${key}`);
  return value;
}

/** `2024-01-01T12:00:00.000Z`: created-at / updated-at. */
export function isoMillis(date: Date): string {
  return date.toISOString();
}

/** `2024-01-01T12:00:00+00:00`: status-timestamps. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** `{data: {id, type}}` or `{data: null}`. */
export function relationship(type: string, id: string | null | undefined, related?: string): JsonObject {
  const result: JsonObject = { data: id ? { id, type } : null };
  if (related) result.links = { related };
  return result;
}
