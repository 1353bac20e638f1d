/** Key material: `sk-` + 48 base62 characters (~285 bits), stored only as a SHA-256 hex digest. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const KEY_PREFIX = 'sk-';
export const KEY_BODY_LENGTH = 48;
const KEY_RE = /^sk-[0-9A-Za-z]{48}$/;

/**
 * A fresh random key. Rejection sampling keeps every character uniform.
 *
 * @example
 * generateApiKey(); // 'sk-3Fq…' (51 characters)
 */
export function generateApiKey(): string {
  let out = KEY_PREFIX;
  while (out.length < KEY_PREFIX.length + KEY_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte >= 248) continue; // 248 = 62 * 4: larger bytes would bias the first characters
      out += BASE62[byte % 62];
      if (out.length === KEY_PREFIX.length + KEY_BODY_LENGTH) break;
    }
  }
  return out;
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_RE.test(value);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'hex');
  const bb = Buffer.from(b, 'hex');
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** What we store for humans: enough to recognise a key, not to use it. */
export function keyPrefixOf(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
