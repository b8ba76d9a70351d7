// `terraform_data`, the one resource type whose schema the CLI knows without a provider (it is built in), so the
// state must hold it as Terraform does: `input`, `output` and `triggers_replace` are dynamically typed, stored as
// `{"value": …, "type": …}`, and `output` becomes the applied `input`. Other types have no schema here: their
// attributes are stored as written.
import { typeOf } from '../store/valueType';

const dynamicAttributes = ['input', 'output', 'triggers_replace'];

/** The attributes a type's schema declares, where the emulator knows it (plan JSON writes the unset ones as null). */
export function schemaAttributes(type: string): readonly string[] {
  return type === 'terraform_data' ? ['id', ...dynamicAttributes] : [];
}

/**
 * The value type of an attribute known only after apply, where the schema tells it: terraform_data's `output` takes
 * `input`'s type. Plan JSON's `sensitive_values` writes an unknown list or object as an empty one (Terraform's
 * SensitiveAsBool), so it needs the type; undefined when unknown.
 */
export function unknownAttributeSample(type: string, name: string, known: Record<string, unknown>): unknown {
  return type === 'terraform_data' && name === 'output' ? known.input : undefined;
}

/** What the apply makes of computed attributes once the planned ones are known. */
export function computeOnApply(type: string, attributes: Record<string, unknown>): Record<string, unknown> {
  return type === 'terraform_data' ? { ...attributes, output: attributes.input ?? null } : attributes;
}

export function encodeStateAttributes(type: string, attributes: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'terraform_data') return attributes;
  const encoded: Record<string, unknown> = { ...attributes };
  for (const name of dynamicAttributes) {
    const value = attributes[name];
    encoded[name] = value === undefined || value === null ? null : { value, type: typeOf(value) };
  }
  return encoded;
}

export function decodeStateAttributes(type: string, attributes: Record<string, unknown>): Record<string, unknown> {
  if (type !== 'terraform_data') return attributes;
  const decoded: Record<string, unknown> = { ...attributes };
  for (const name of dynamicAttributes) {
    const stored = attributes[name];
    if (stored && typeof stored === 'object' && 'value' in stored) decoded[name] = (stored as { value: unknown }).value;
    else if (stored === null) delete decoded[name];
  }
  return decoded;
}

/** Attributes the state marks sensitive: `output` mirrors `input`, so it is as sensitive as `input`. */
export function sensitiveOnApply(type: string, sensitive: readonly string[]): string[] {
  return type === 'terraform_data' && sensitive.includes('input') ? [...new Set([...sensitive, 'output'])] : [...sensitive];
}
