/**
 * Per-key rpm after auth: one request unit per /v1 call, x-ratelimit-* headers for keys with
 * limits, 429 + Retry-After beyond them. tpm is reserved later, by the text service, once the
 * request's size is known. The limiter never fails open: without Redis it limits per instance.
 */
import type { AuthKey } from '../../keys/keys.js';
import { rateLimitHeaders, rateLimitRefusal } from '../../limits/http.js';
import type { RateLimiter } from '../../limits/limiter.js';
import type { Stage } from '../exchange.js';

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Counts one request against the key's rpm: the x-ratelimit-* headers its answer carries, or the
 * 429 when it is over. A key without limits costs nothing.
 * @example const headers = await countRequest(limiter, key);
 */
export async function countRequest(
  limiter: RateLimiter,
  key: AuthKey,
): Promise<Readonly<Record<string, string>>> {
  if (key.rpm === null && key.tpm === null) return NO_HEADERS;
  const decision = await limiter.check(key);
  if (!decision.allowed) throw rateLimitRefusal(decision, key);
  return rateLimitHeaders(decision);
}

/**
 * The key's rpm, after auth: its x-ratelimit-* headers on the answer (the route's own, taken
 * after the text service's token reservation, are newer and win), or the 429.
 * @example const stages = [authStage(services.keys), rateLimitStage(services.limiter)];
 */
export function rateLimitStage(limiter: RateLimiter): Stage {
  return {
    name: 'rate-limit',
    scope: 'api',
    enter(x) {
      const key = x.key;
      // A key without limits costs nothing, not even a promise.
      if (!key || (key.rpm === null && key.tpm === null)) return undefined;
      return countRequest(limiter, key).then((headers) => {
        Object.assign(x.fallbackHeaders, headers);
        return undefined;
      });
    },
  };
}
