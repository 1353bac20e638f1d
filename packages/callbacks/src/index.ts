/**
 * Sign and verify modelgate task callbacks (Standard Webhooks). Web Crypto only: runs on Node ≥ 20.19,
 * Deno, Bun and edge runtimes. The Node/Express middleware lives at `@modelgate/callbacks/node`.
 *
 * @example
 * import { verifyCallback } from '@modelgate/callbacks';
 * const event = await verifyCallback({ body: rawBody, headers, secret: 'whsec_…' });
 */
export {
  type CallbackHeaderName,
  CallbackVerificationError,
  type CallbackVerificationReason,
} from './errors.js';
export {
  createFetchHandler,
  type FetchEventHandler,
  refusal,
  refusalBody,
  verifyRequest,
} from './fetch.js';
export type { HeadersInput } from './headers.js';
export { type CallbackSecretInput, decodeSecret, generateCallbackSecret } from './secret.js';
export { type CallbackHeaders, type SignCallbackOptions, signCallback } from './sign.js';
export type { RawBody } from './signature.js';
export type { CallbackEvent, CallbackEventType } from './types.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyCallbackOptions,
  type VerifyOptions,
  verifyCallback,
} from './verify.js';
