// Standard Webhooks secrets: `whsec_` + base64 of the raw key bytes.
import { decodeBase64, encodeBase64 } from './base64.js';
import { CallbackVerificationError } from './errors.js';

/** A secret as the gateway hands it out (`whsec_…`), its bare base64 part, or the raw key bytes. */
export type CallbackSecretInput = string | Uint8Array;

const SECRET_PREFIX = 'whsec_';

/**
 * Turns a secret into its key bytes. Throws `CallbackVerificationError` with reason
 * `malformed_secret` when it is empty or not base64, so a misconfigured receiver fails loudly
 * instead of refusing every callback as "invalid signature".
 */
export function decodeSecret(secret: CallbackSecretInput): Uint8Array<ArrayBuffer> {
  if (secret instanceof Uint8Array) {
    if (secret.length === 0) throw malformed('the secret is empty');
    return new Uint8Array(secret);
  }
  if (typeof secret !== 'string') throw malformed('the secret must be a string or a Uint8Array');
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const bytes = decodeBase64(encoded);
  if (bytes === undefined) throw malformed('the secret is not `whsec_` followed by base64');
  if (bytes.length === 0) throw malformed('the secret is empty');
  return bytes;
}

/** Imports key bytes for HMAC-SHA256 with Web Crypto (available in Node ≥ 20, Deno, Bun and edge runtimes). */
export function importHmacKey(keyBytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
}

/** Decodes every secret first (so a bad one throws synchronously), then imports them. */
export function prepareKeys(
  secrets: CallbackSecretInput | readonly CallbackSecretInput[],
): Promise<CryptoKey[]> {
  const list: readonly CallbackSecretInput[] = Array.isArray(secrets)
    ? secrets
    : [secrets as CallbackSecretInput];
  if (list.length === 0) throw malformed('no secret given');
  const decoded = list.map(decodeSecret);
  return Promise.all(decoded.map(importHmacKey));
}

/**
 * A fresh secret: `whsec_` + base64 of 32 random bytes.
 *
 * @example
 * const secret = generateCallbackSecret(); // 'whsec_3q2+7w…'
 */
export function generateCallbackSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return `${SECRET_PREFIX}${encodeBase64(bytes)}`;
}

function malformed(message: string): CallbackVerificationError {
  return new CallbackVerificationError('malformed_secret', message);
}
