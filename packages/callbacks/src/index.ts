/**
 * Sign and verify modelgate callbacks and budget alerts (Standard Webhooks). Web Crypto only: runs on Node ≥ 20.19,
 * Deno, Bun and edge runtimes. The Node/Express middleware lives at `@modelgate/callbacks/node`.
 *
 * @example
 * import { verifyCallback } from '@modelgate/callbacks';
 * const event = await verifyCallback({ body: rawBody, headers, secret: 'whsec_…' });
 * if (event.type === 'budget.threshold') console.log(event.data.scope, event.data.threshold);
 * else console.log(event.type, event.data.task_id);
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
export type {
  BudgetThresholdEvent,
  CallbackEvent,
  CallbackEventType,
  WebhookEvent,
  WebhookEventType,
} from './types.js';
export {
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyCallbackOptions,
  type VerifyOptions,
  verifyCallback,
} from './verify.js';
