// Seeded records get ids derived from their names, so ids survive reset() and restarts (a test may keep a
// workspace id across a reset) while still looking like the service's `<prefix>-<16 base62>`.
import { createHash } from 'node:crypto';

const base62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function seedId(prefix: string, name: string): string {
  const digest = createHash('sha256').update(`${prefix}:${name}`).digest();
  let out = '';
  for (let i = 0; out.length < 16; i++) out += base62[digest[i] % 62];
  return `${prefix}-${out}`;
}
