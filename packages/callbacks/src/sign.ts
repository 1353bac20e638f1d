import { encodeBase64 } from './base64.js';
import { type CallbackSecretInput, prepareKeys } from './secret.js';
import { hmac, type RawBody, signedContent } from './signature.js';

/** The Standard Webhooks headers that go with a callback body. */
// A type alias (not an interface) so it is assignable to fetch's HeadersInit and to plain records.
export type CallbackHeaders = {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** What `signCallback` needs: pass `secret`, or `secrets` to sign with several (during a rotation). */
export type SignCallbackOptions = {
  /** Message id, the same on every retry (receivers dedupe by it), e.g. `msg_…`. */
  id: string;
  /** Unix seconds, or a Date (rounded down to the second). */
  timestamp: number | Date;
  /** The exact body that will be sent. */
  body: RawBody;
} & (
  | { secret: CallbackSecretInput; secrets?: never }
  | { secrets: readonly CallbackSecretInput[]; secret?: never }
);

/**
 * Signs a callback per Standard Webhooks: `webhook-signature` is `v1,` + base64(HMAC-SHA256(key,
 * `${id}.${timestamp}.${body}`)), one space-separated entry per secret.
 *
 * @example
 * const body = JSON.stringify(event);
 * const headers = await signCallback({ id: 'msg_123', timestamp: new Date(), body, secret });
 * await fetch(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
 */
export async function signCallback(options: SignCallbackOptions): Promise<CallbackHeaders> {
  const { id, body } = options;
  if (typeof id !== 'string' || id.length === 0 || /\s/.test(id)) {
    throw new TypeError('signCallback: `id` must be a non-empty string without whitespace');
  }
  const timestamp = toUnixSeconds(options.timestamp);
  const keys = await prepareKeys(options.secrets ?? options.secret);
  const content = signedContent(id, timestamp, body);
  const signatures = await Promise.all(keys.map((key) => hmac(key, content)));
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatures.map((bytes) => `v1,${encodeBase64(bytes)}`).join(' '),
  };
}

function toUnixSeconds(timestamp: number | Date): number {
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : timestamp;
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new TypeError('signCallback: `timestamp` must be whole unix seconds or a valid Date');
  }
  return seconds;
}
