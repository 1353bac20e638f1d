/** Per-key rpm/tpm after auth: x-ratelimit-* headers for keys with limits, 429 + Retry-After beyond them. */
import type { MiddlewareHandler } from 'hono';
import { formatResetDuration, type RateLimiter } from '../../limits/limiter.js';
import type { Logger } from '../../observability/logger.js';
import type { AppEnv } from '../env.js';
import { rateLimited } from '../errors.js';

export function rateLimit(limiter: RateLimiter, log: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = c.get('key');
    if (!key || (key.rpm === null && key.tpm === null)) return next();
    let decision: Awaited<ReturnType<RateLimiter['check']>>;
    try {
      decision = await limiter.check(key);
    } catch (err) {
      // Redis unavailable: serve the request rather than fail every call (fail open), and say so.
      log.warn('rate limiter unavailable; request not limited', {
        err,
        request_id: c.get('requestId'),
      });
      return next();
    }
    const headers: Record<string, string> = {};
    if (decision.requests) {
      headers['x-ratelimit-limit-requests'] = String(decision.requests.limit);
      headers['x-ratelimit-remaining-requests'] = String(decision.requests.remaining);
      headers['x-ratelimit-reset-requests'] = formatResetDuration(decision.requests.resetMs);
    }
    if (decision.tokens) {
      headers['x-ratelimit-limit-tokens'] = String(decision.tokens.limit);
      headers['x-ratelimit-remaining-tokens'] = String(decision.tokens.remaining);
      headers['x-ratelimit-reset-tokens'] = formatResetDuration(decision.tokens.resetMs);
    }
    if (!decision.allowed) {
      const err =
        decision.reason === 'tokens'
          ? rateLimited(
              `Rate limit reached: ${key.tpm} tokens per minute.`,
              decision.retryAfterSeconds,
              'rate_limit_tokens',
            )
          : rateLimited(
              `Rate limit reached: ${key.rpm} requests per minute.`,
              decision.retryAfterSeconds,
              'rate_limit_requests',
            );
      Object.assign(err.headers, headers);
      throw err;
    }
    await next();
    // Added after the route answered: the route may return its own Response (text completions),
    // which would not carry headers prepared before it ran.
    try {
      const out = c.res.headers;
      for (const k in headers) out.set(k, headers[k]!);
    } catch {
      // immutable headers (a proxied Response)
    }
  };
}
