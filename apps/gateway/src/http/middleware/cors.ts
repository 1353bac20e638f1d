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
 * @example
 * app.use('/v1/*', corsHeaders({ origin: '*', exposeHeaders: ['x-request-id'], maxAge: 600 }));
 */
export function corsHeaders(options: CorsOptions): MiddlewareHandler<AppEnv> {
  const preflight = honoCorsMiddleware(options);
  const { origin } = options;
  const allowOrigin = (requested: string): string | null => {
    if (origin === '*') return '*';
    if (typeof origin === 'string') return requested === origin ? requested : null;
    return origin.includes(requested) ? requested : null;
  };
  const expose = options.exposeHeaders?.length ? options.exposeHeaders.join(',') : null;

  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    const allowed = allowOrigin(c.req.header('origin') ?? '');
    await next();
    try {
      const headers = c.res.headers;
      if (allowed) headers.set('access-control-allow-origin', allowed);
      if (options.credentials) headers.set('access-control-allow-credentials', 'true');
      if (expose) headers.set('access-control-expose-headers', expose);
      if (origin !== '*') headers.append('vary', 'Origin');
    } catch {
      // immutable headers (a proxied Response): nothing to add them to
    }
  };
}
