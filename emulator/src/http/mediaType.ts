// The service answers 415 to a POST/PATCH/DELETE without the JSON:API media type, even with no body
// (notes §1.1) — a real pitfall for clients that post empty action bodies, so the emulator insists too.
export const jsonApiMediaType = 'application/vnd.api+json';

const writeMethods = new Set(['POST', 'PATCH', 'DELETE']);

export function needsJsonApiContentType(method: string): boolean {
  return writeMethods.has(method);
}

/** True when `Content-Type` names the JSON:API media type (parameters such as charset are tolerated). */
export function isJsonApiContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  return contentType.split(';')[0].trim().toLowerCase() === jsonApiMediaType;
}
