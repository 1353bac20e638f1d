/**
 * CORS for /v1/*: Hono's `cors()` for preflights (OPTIONS), and for every other request the same
 * headers added AFTER the route has answered. Why not Hono's middleware for those too: it touches
 * `c.res` before the route runs, so a route that returns its own Response (every text completion)
 * gets that Response copied — which turns @hono/node-server's lightweight Response into a full
 * undici Response whose body is then streamed chunk by chunk instead of written at once.
 */
import type { MiddlewareHandler } from 'hono';
import { type cors as honoCors, cors as honoCorsMiddleware } from 'hono/cors';
import type { AppEnv } from '../env.js';

export type CorsOptions = NonNullable<Parameters<typeof honoCors>[0]> & {
  origin: string | string[];
};

/**
 * The API's CORS policy for the configured origins (`MODELGATE_CORS_ORIGINS`).
 * @example corsHeaders(apiCorsOptions('*'));
 */
export function apiCorsOptions(origin: string | string[]): CorsOptions {
  return {
    origin,
    // Echo whatever headers the preflight asks for: the vendors' SDKs add their own in a browser
    // (x-stainless-*, anthropic-dangerous-direct-browser-access), and with no cookies in play an
    // extra header grants nothing the key does not.
    allowHeaders: [],
    exposeHeaders: [
      'x-request-id',
      'x-modelgate-overhead-ms',
      'x-modelgate-dropped-params',
      'retry-after',
      'x-ratelimit-limit-requests',
      'x-ratelimit-remaining-requests',
      'x-ratelimit-reset-requests',
      'x-ratelimit-limit-tokens',
      'x-ratelimit-remaining-tokens',
      'x-ratelimit-reset-tokens',
    ],
    maxAge: 600,
  };
}

/**
 * The CORS headers of an answer (not a preflight) to a request from `origin`.
 * @example
 * const corsFor = corsResponseHeaders({ origin: '*', exposeHeaders: ['x-request-id'] });
 * corsFor('https://app.example'); // { 'access-control-allow-origin': '*', … }
 */
export function corsResponseHeaders(
  options: CorsOptions,
): (origin: string | undefined) => Record<string, string> {
  const { origin } = options;
  const allowOrigin = (requested: string): string | null => {
    if (origin === '*') return '*';
    if (typeof origin === 'string') return requested === origin ? requested : null;
    return origin.includes(requested) ? requested : null;
  };
  const expose = options.exposeHeaders?.length ? options.exposeHeaders.join(',') : null;
  return (requested) => {
    const headers: Record<string, string> = {};
    const allowed = allowOrigin(requested ?? '');
    if (allowed) headers['access-control-allow-origin'] = allowed;
    if (options.credentials) headers['access-control-allow-credentials'] = 'true';
    if (expose) headers['access-control-expose-headers'] = expose;
    if (origin !== '*') headers.vary = 'Origin';
    return headers;
  };
}

/**
 * @example
 * app.use('/v1/*', corsHeaders({ origin: '*', exposeHeaders: ['x-request-id'], maxAge: 600 }));
 */
export function corsHeaders(options: CorsOptions): MiddlewareHandler<AppEnv> {
  const preflight = honoCorsMiddleware(options);
  const corsFor = corsResponseHeaders(options);

  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    const cors = corsFor(c.req.header('origin'));
    await next();
    try {
      const headers = c.res.headers;
      for (const name in cors) {
        // Vary lists every header the answer varies on: add to it, never replace it.
        if (name === 'vary') headers.append(name, cors[name]!);
        else headers.set(name, cors[name]!);
      }
    } catch {
      // immutable headers (a proxied Response): nothing to add them to
    }
  };
}
