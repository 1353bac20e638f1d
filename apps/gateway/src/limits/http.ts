/** Rate-limit decisions as HTTP: the x-ratelimit-* headers and the documented 429. */
import { ApiError, rateLimited } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import { formatResetDuration, type RateLimitDecision, type RateLimiter } from './limiter.js';

/**
 * x-ratelimit-{limit,remaining,reset}-{requests,tokens} for the limits the key has.
 * @example rateLimitHeaders(await limiter.check(key)); // { 'x-ratelimit-limit-requests': '60', … }
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [kind, state] of [
    ['requests', decision.requests],
    ['tokens', decision.tokens],
  ] as const) {
    if (!state) continue;
    headers[`x-ratelimit-limit-${kind}`] = String(state.limit);
    headers[`x-ratelimit-remaining-${kind}`] = String(state.remaining);
    headers[`x-ratelimit-reset-${kind}`] = formatResetDuration(state.resetMs);
  }
  return headers;
}

/**
 * The 429 `rate_limit_error` for a refused decision, with Retry-After and x-ratelimit-*.
 * @example if (!decision.allowed) throw rateLimitRefusal(decision, key);
 */
export function rateLimitRefusal(decision: RateLimitDecision, key: AuthKey): ApiError {
  const err =
    decision.reason === 'requests'
      ? rateLimited(
          `Rate limit reached: ${key.rpm} requests per minute.`,
          decision.retryAfterSeconds,
          'rate_limit_requests',
        )
      : decision.reason === 'tokens_over_limit'
        ? new ApiError(
            429,
            'rate_limit_error',
            `This request may use up to ${decision.requestedTokens} tokens (prompt + max_tokens), more than this key's limit of ${key.tpm} tokens per minute; lower max_tokens or shorten the prompt.`,
            {
              code: 'rate_limit_tokens',
              param: 'max_tokens',
              headers: { 'retry-after': String(decision.retryAfterSeconds) },
            },
          )
        : rateLimited(
            `Rate limit reached: ${key.tpm} tokens per minute.`,
            decision.retryAfterSeconds,
            'rate_limit_tokens',
          );
  Object.assign(err.headers, rateLimitHeaders(decision));
  return err;
}

/** A text request's tokens held against its key's tpm until it settles. */
export interface TokenHold {
  /** x-ratelimit-*-tokens as they stand after this reservation (none for keys without tpm). */
  headers: Record<string, string>;
  /** Charge the tokens really used instead of the reservation; never throws. */
  settle(actualTokens: number): Promise<void>;
  /** Give the whole reservation back (nothing was produced); never throws. */
  release(): Promise<void>;
}

const NO_HOLD: TokenHold = { headers: {}, settle: async () => {}, release: async () => {} };

/**
 * Reserve a text request's worst case (prompt estimate + max output tokens) against the key's
 * tpm before any upstream call; throws the 429 when it does not fit.
 *
 * @example
 * const tokens = await holdTokens(limiter, key, estimatedInput + maxOutput);
 * // … after the response: await tokens.settle(usage.input + usage.output);
 */
export async function holdTokens(
  limiter: RateLimiter | undefined,
  key: AuthKey,
  tokens: number,
): Promise<TokenHold> {
  if (!limiter || key.tpm === null || key.tpm === undefined) return NO_HOLD;
  const reservation = await limiter.reserveTokens(key, tokens);
  if (!reservation.decision.allowed) throw rateLimitRefusal(reservation.decision, key);
  const quietly = (work: Promise<void>) => work.catch(() => {});
  return {
    headers: rateLimitHeaders({ ...reservation.decision, requests: null }),
    settle: (actual) => quietly(reservation.settle(actual)),
    release: () => quietly(reservation.release()),
  };
}
