// `@modelgate/core/retry`: when to retry and how long to wait, exponential backoff with full
// jitter unless the server says how long (Retry-After / retry-after-ms), and the abortable sleep.
// A subpath of its own so the gateway imports these without loading the client.
import type { ModelgateError } from './errors.js';
import { parseRetryAfterMs } from './retry-after.js';

export { type HeaderRecord, parseRetryAfterMs, type RetryAfterSource } from './retry-after.js';
export { sleep } from './sleep.js';

const BASE_DELAY_MS = 500;
const MAX_BACKOFF_MS = 8_000;
/** A server hint longer than this is not waited out: the error goes to the caller instead. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * 408, 429 and 5xx are transient. 400, 401, 402, 403, 404, 409, 413, 415 and 422 will fail the same
 * way again, so they are never retried.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The same rule for an error already thrown: no response at all (connection error, timeout) or a
 * retryable status. What pollers (`@modelgate/stream`'s `watchVideoTask`) use to decide whether to
 * try again.
 *
 * @example
 * ```ts
 * if (error instanceof ModelgateError && isRetryableError(error)) await sleep(backoffMs(attempt));
 * ```
 */
export function isRetryableError(error: Pick<ModelgateError, 'status'>): boolean {
  return error.status === undefined || isRetryableStatus(error.status);
}

/** Full jitter: a uniform draw in [0, min(cap, base · 2^attempt)). `attempt` counts from 0. */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  return random() * Math.min(MAX_BACKOFF_MS, BASE_DELAY_MS * 2 ** attempt);
}

/**
 * Delay before retrying a response with a retryable status: the server's hint when present,
 * otherwise backoff. `undefined` means "do not retry": the hint exceeds {@link MAX_RETRY_AFTER_MS}.
 */
export function retryDelayMs(attempt: number, headers: Headers): number | undefined {
  const hint = parseRetryAfterMs(headers);
  if (hint === undefined) return backoffMs(attempt);
  return hint <= MAX_RETRY_AFTER_MS ? hint : undefined;
}
