/**
 * Query strings and path segments. Bracketed names (`page[size]`, `filter[workspace][name]`) are percent-encoded
 * (`page%5Bsize%5D`) as the spec asks of clients; list values are joined with commas as the service expects.
 */

export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;
export type QueryParams = Record<string, QueryValue>;

/** `?a=1&b=2`, or '' when nothing is set. Undefined, null and empty lists are left out. */
export function buildQuery(params: QueryParams | undefined): string {
  if (!params) return '';
  const parts: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    if (Array.isArray(value) && value.length === 0) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/** One path segment from a user-supplied id or name: `/` and other reserved characters cannot change the path. */
export function segment(value: string): string {
  if (value.length === 0) throw new TypeError('An id or name in a request path must not be empty.');
  return encodeURIComponent(value);
}
