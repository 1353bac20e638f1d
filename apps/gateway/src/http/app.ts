/**
 * The API app: middleware in the order a request meets it, then the route groups.
 *   observe (request id, log, metrics) → close-if-body-unread → CORS → body limit → auth
 *   → rate limit → NUL in the URL → route (a path served for other methods only: 405 with Allow)
 */
import { Hono } from 'hono';
import type { Services } from '../services.js';
import type { AppEnv } from './env.js';
import { methodNotAllowed, notFound, renderError, toApiError } from './errors.js';
import { authenticate } from './middleware/auth.js';
import { jsonBodyLimit } from './middleware/body-limit.js';
import { closeIfBodyUnread } from './middleware/close-unread.js';
import { corsHeaders } from './middleware/cors.js';
import { observe } from './middleware/observe.js';
import { rateLimit } from './middleware/rate-limit.js';
import { refuseNulInUrl } from './middleware/request-target.js';
import { webStreamFallback } from './node-adapter.js';
import { routeTable } from './route-table.js';
import { type RouteGroup, routeGroups } from './routes/index.js';
import { registerSystemRoutes } from './routes/system.js';

/**
 * @example
 * const app = createApp(services);
 * const res = await app.request('/healthz');
 */
export function createApp(services: Services, extraRoutes: RouteGroup[] = []): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { log } = services;

  // Outermost, so it sees the Response after every other middleware: only does anything outside a
  // Node listener (app.request()), where streamed bodies need a web stream.
  app.use('*', webStreamFallback());
  app.use('*', observe(log, services.stdMetrics));
  app.use('*', closeIfBodyUnread());
  // Browsers (the web demo, any SPA) call the API cross-origin with the key in a header; no cookies
  // are involved, so any origin may. Preflights are answered here, before auth.
  app.use(
    '/v1/*',
    corsHeaders({
      origin: services.config.corsOrigins,
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
    }),
  );
  app.use('/v1/*', jsonBodyLimit(services.config.maxJsonBytes));
  app.use('/v1/*', authenticate(services.keys));
  app.use('/v1/*', rateLimit(services.limiter));
  const routes = routeTable(() => app.routes);
  app.use('/v1/*', refuseNulInUrl(routes));

  registerSystemRoutes(app, services);
  for (const register of [...routeGroups, ...extraRoutes]) register(app, services);

  app.notFound((c) => {
    c.set('unmatched', true);
    const allowed = routes.methodsAt(c.req.path);
    if (allowed.length > 0)
      return renderError(c, methodNotAllowed(c.req.method, c.req.path, allowed));
    return renderError(
      c,
      notFound(`No route for ${c.req.method} ${c.req.path}.`, 'route_not_found'),
    );
  });

  app.onError((err, c) => {
    const requestId = c.get('requestId');
    const apiErr = toApiError(err, requestId);
    if (apiErr.status >= 500 && apiErr === err) {
      log.warn('request failed', {
        request_id: requestId,
        status: apiErr.status,
        code: apiErr.code,
        error: apiErr.message,
      });
    } else if (apiErr.code === 'temporarily_unavailable') {
      // Expected while the database restarts: one line per request, no stack.
      log.warn('database unreachable', { request_id: requestId, path: c.req.path });
    } else if (apiErr !== err && apiErr.status >= 500) {
      log.error('unhandled error', { request_id: requestId, path: c.req.path, err });
    }
    return renderError(c, apiErr);
  });

  return app;
}
