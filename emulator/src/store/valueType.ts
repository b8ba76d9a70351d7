// Terraform's type of a JSON value as plan JSON, state files and the `-json` UI write it (`"string"`, `["tuple", …]`).

export function typeOf(value: unknown): unknown {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return ['tuple', value.map(typeOf)];
  if (value && typeof value === 'object') return ['object', Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeOf(v)]))];
  return 'dynamic';
}
