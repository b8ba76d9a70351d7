// Resource ids and token secrets in the service's formats (notes §1.10).
import { randomBytes } from 'node:crypto';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function randomBase62(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  // 248 = 4 × 62: rejecting bytes above it keeps every character equally likely.
  for (let i = 0; out.length < length; i++) {
    const byte = i < bytes.length ? bytes[i] : randomBytes(1)[0];
    if (byte < 248) out += base62[byte % 62];
  }
  return out;
}

/** `<prefix>-<16 base62>`, e.g. `ws-AbC…`. */
export function newId(prefix: string): string {
  return `${prefix}-${randomBase62(16)}`;
}

/** `<14 chars>.atlasv1.<64 chars>`, like every token sample; nothing in it marks the token's kind. */
export function newTokenSecret(): string {
  return `${randomBase62(14)}.atlasv1.${randomBase62(64)}`;
}
