import { decodeBase64 } from './base64.js';
import { CallbackVerificationError } from './errors.js';
import { type HeadersInput, readHeader } from './headers.js';
import { type CallbackSecretInput, prepareKeys } from './secret.js';
import { hmac, type RawBody, signedContent, timingSafeEqual } from './signature.js';
import type { WebhookEvent } from './types.js';

/** Standard Webhooks' default: refuse timestamps more than five minutes away from now. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** How a receiver checks callbacks. */
export interface VerifyOptions {
  /** The key's callback secret (`whsec_…`); several are accepted (any may match). */
  secret: CallbackSecretInput | readonly CallbackSecretInput[];
  /** How far `webhook-timestamp` may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time, for tests. Default: the clock. */
  now?: Date;
}

/** What `verifyCallback` checks: the raw body exactly as received, and its headers. */
export interface VerifyCallbackOptions extends VerifyOptions {
  body: RawBody;
  headers: HeadersInput;
}

/**
 * Verifies a callback and returns its event, or throws `CallbackVerificationError` saying why not.
 * Pass the raw body: the signature covers the exact bytes, so a re-serialized JSON object fails.
 * The event is a video task's (`video.task.*`, signed with the key's callback secret) or a budget
 * alert (`budget.threshold`, signed with the gateway's alert secret); its `type` narrows `data`.
 *
 * @example
 * const event = await verifyCallback({ body: rawText, headers: request.headers, secret });
 * if (event.type === 'budget.threshold') console.log(event.data.scope, event.data.threshold, '%');
 * else if (event.type === 'video.task.completed') console.log(event.data.video?.url);
 */
export async function verifyCallback(options: VerifyCallbackOptions): Promise<WebhookEvent> {
  return verifyWithKeys(options, await prepareKeys(options.secret));
}

/** Verification with already-imported keys (the handlers import once, at creation). */
export async function verifyWithKeys(
  options: Omit<VerifyCallbackOptions, 'secret'>,
  keys: readonly CryptoKey[],
): Promise<WebhookEvent> {
  const { body, headers } = options;
  const id = readHeader(headers, 'webhook-id');
  const timestampText = readHeader(headers, 'webhook-timestamp');
  const signatureText = readHeader(headers, 'webhook-signature');

  const timestamp = parseTimestamp(timestampText);
  const candidates = parseSignatures(signatureText);
  checkTimestamp(timestamp, options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS, options.now);

  const content = signedContent(id, timestamp, body);
  let matched = false;
  for (const key of keys) {
    const expected = await hmac(key, content);
    // Compare against every candidate without stopping early, so timing says nothing about which matched.
    for (const candidate of candidates) matched = timingSafeEqual(expected, candidate) || matched;
  }
  if (!matched) {
    throw new CallbackVerificationError(
      'invalid_signature',
      'no `v1` signature matches the body under this secret',
    );
  }
  return parseEvent(body);
}

function parseTimestamp(text: string): number {
  if (!/^\d{1,15}$/.test(text)) {
    throw new CallbackVerificationError(
      'malformed_header',
      'the `webhook-timestamp` header is not unix seconds',
      { header: 'webhook-timestamp' },
    );
  }
  return Number(text);
}

/** The decoded `v1` signatures. Other versions (e.g. `v1a`) are skipped; an unreadable header throws. */
function parseSignatures(text: string): Uint8Array[] {
  let wellFormed = 0;
  const v1: Uint8Array[] = [];
  // Entries are space-separated; fetch joins repeated headers with ", ", so trailing commas are noise.
  for (const entry of text.split(/\s+/)) {
    const trimmed = entry.replace(/,+$/, '');
    const comma = trimmed.indexOf(',');
    if (comma <= 0 || comma === trimmed.length - 1) continue;
    wellFormed++;
    if (trimmed.slice(0, comma) !== 'v1') continue;
    const bytes = decodeBase64(trimmed.slice(comma + 1));
    if (bytes !== undefined) v1.push(bytes);
  }
  if (wellFormed === 0) {
    throw new CallbackVerificationError(
      'malformed_header',
      'the `webhook-signature` header has no `version,signature` entry',
      { header: 'webhook-signature' },
    );
  }
  return v1;
}

function checkTimestamp(timestamp: number, toleranceSeconds: number, now: Date | undefined): void {
  const nowSeconds = Math.floor((now ?? new Date()).getTime() / 1000);
  if (nowSeconds - timestamp > toleranceSeconds) {
    throw new CallbackVerificationError(
      'timestamp_too_old',
      `the callback was signed ${nowSeconds - timestamp} s ago, more than the ${toleranceSeconds} s allowed`,
    );
  }
  if (timestamp - nowSeconds > toleranceSeconds) {
    throw new CallbackVerificationError(
      'timestamp_in_future',
      `the callback's timestamp is ${timestamp - nowSeconds} s ahead, more than the ${toleranceSeconds} s allowed`,
    );
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function parseEvent(body: RawBody): WebhookEvent {
  let value: unknown;
  try {
    const text = typeof body === 'string' ? body : decoder.decode(body);
    value = JSON.parse(text);
  } catch (cause) {
    throw new CallbackVerificationError('invalid_payload', 'the body is not JSON', { cause });
  }
  if (!isEventShaped(value)) {
    throw new CallbackVerificationError(
      'invalid_payload',
      'the body is not a callback event ({type, timestamp, data})',
    );
  }
  return value;
}

function isEventShaped(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.type === 'string' &&
    'timestamp' in record &&
    typeof record.data === 'object' &&
    record.data !== null
  );
}
