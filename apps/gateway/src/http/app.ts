/**
 * The API app: middleware in the order a request meets it, then the route groups.
 *   observe (request id, log, metrics) → close-if-body-unread → CORS → body limit → auth
 *   → rate limit → NUL in the URL → route (a path served for other methods only: 405 with Allow)
 * The text generation routes are served in front of it by the text edge (text-edge/), which runs
 * the same concerns through the same functions.
 */
import { Hono } from 'hono';
import { methodNotAllowed, notFound } from '../errors/api-error.js';
import type { Services } from '../services.js';
import type { AppEnv } from './env.js';
import { answerableError, renderError } from './errors.js';
import { authenticate } from './middleware/auth.js';
import { jsonBodyLimit } from './middleware/body-limit.js';
import { closeIfBodyUnread } from './middleware/close-unread.js';
import { apiCorsOptions, corsHeaders } from './middleware/cors.js';
import { observe } from './middleware/observe.js';
import { rateLimit } from './middleware/rate-limit.js';
import { refuseNulInUrl } from './middleware/request-target.js';
import { routeTable } from './route-table.js';
import { type RouteGroup, routeGroups } from './routes/index.js';
import { registerSystemRoutes } from './routes/system.js';
import { TEXT_ROUTE_ENTRIES } from './text-edge/routes.js';

/**
 * @example
 * const app = createApp(services);
 * const res = await app.request('/healthz');
 */
export function createApp(services: Services, extraRoutes: RouteGroup[] = []): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { log } = services;

  app.use('*', observe(log, services.stdMetrics));
  app.use('*', closeIfBodyUnread());
  // Browsers (the web demo, any SPA) call the API cross-origin with the key in a header; no cookies
  // are involved, so any origin may. Preflights are answered here, before auth.
  app.use('/v1/*', corsHeaders(apiCorsOptions(services.config.corsOrigins)));
  app.use('/v1/*', jsonBodyLimit(services.config.maxJsonBytes));
  app.use('/v1/*', authenticate(services.keys));
  app.use('/v1/*', rateLimit(services.limiter));
  // The text edge's routes too, so their other methods are a 405 naming POST.
  const routes = routeTable(() => [...app.routes, ...TEXT_ROUTE_ENTRIES]);
  app.use('/v1/*', refuseNulInUrl(routes));

  registerSystemRoutes(app, services);
  for (const register of [...routeGroups, ...extraRoutes]) register(app, services);

  app.notFound((c) => {
    c.set('unmatched', true);
    const allowed = routes.methodsAt(c.req.path);
    if (allowed.includes(c.req.method)) {
      // A text route reached without the listener (app.request()): only the text edge serves it.
      const message = `${c.req.method} ${c.req.path} is served by the gateway's listener, not by the app alone.`;
      return renderError(c, notFound(message, 'route_not_found'));
    }
    if (allowed.length > 0)
      return renderError(c, methodNotAllowed(c.req.method, c.req.path, allowed));
    return renderError(
      c,
      notFound(`No route for ${c.req.method} ${c.req.path}.`, 'route_not_found'),
    );
  });

  app.onError((err, c) =>
    renderError(c, answerableError(err, log, { requestId: c.get('requestId'), path: c.req.path })),
  );

  return app;
}
