/**
 * Per-key rpm after auth: one request unit per /v1 call, x-ratelimit-* headers for keys with
 * limits, 429 + Retry-After beyond them. tpm is reserved later, by the text service, once the
 * request's size is known. The limiter never fails open: without Redis it limits per instance.
 */
import type { MiddlewareHandler } from 'hono';
import type { AuthKey } from '../../keys/keys.js';
import { rateLimitHeaders, rateLimitRefusal } from '../../limits/http.js';
import type { RateLimiter } from '../../limits/limiter.js';
import type { AppEnv } from '../env.js';

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

/** @example app.use('/v1/*', rateLimit(services.limiter)); // after authenticate() */
export function rateLimit(limiter: RateLimiter): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.get('key');
    const headers = key ? await countRequest(limiter, key) : NO_HEADERS;
    await next();
    // Added after the route answered: the route may return its own Response (text completions),
    // which would not carry headers prepared before it ran. Headers the route set itself are
    // newer (the text service's, after its token reservation) and stay.
    try {
      const out = c.res.headers;
      for (const k in headers) if (!out.has(k)) out.set(k, headers[k]!);
    } catch {
      // immutable headers (a proxied Response)
    }
  };
}
