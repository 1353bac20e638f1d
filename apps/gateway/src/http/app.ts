/**
 * The API's two ways in, both behind one list of stages (`pipeline.ts`): the Hono app for every
 * route but the text ones (the stages as one middleware, then the route groups; a path served for
 * other methods only is a 405 with Allow), and the text edge (`text-edge/`) in front of it, which
 * runs the same list directly.
 */
import { Hono } from 'hono';
import { methodNotAllowed, notFound } from '../errors/api-error.js';
import type { Services } from '../services.js';
import type { AppEnv } from './env.js';
import { answerableError, renderError } from './errors.js';
import type { Stage } from './exchange.js';
import { type ErrorAnswer, runPipeline } from './hono-stages.js';
import { Pipeline, requestStages } from './pipeline.js';
import { routeTable } from './route-table.js';
import { type RouteGroup, routeGroups } from './routes/index.js';
import { registerSystemRoutes } from './routes/system.js';
import { createTextEdge, type FrontHandler } from './text-edge/index.js';
import { TEXT_ROUTE_ENTRIES } from './text-edge/routes.js';

export interface HttpOptions {
  /** Extra route groups mounted after the built-in ones (tests, embedding). */
  routes?: RouteGroup[];
  /** Changes the list of stages every request runs (tests add one to see it reach every route). */
  stages?: (stages: Stage[]) => Stage[];
}

export interface Http {
  /** Every route but the text ones. */
  app: Hono<AppEnv>;
  /** The text routes, tried first by the listener. */
  edge: FrontHandler;
}

/**
 * @example
 * const { app, edge } = createHttp(services);
 * const api = await listen((req, env) => app.fetch(req, env), 8080, '0.0.0.0', timeouts, edge);
 */
export function createHttp(services: Services, options: HttpOptions = {}): Http {
  const app = new Hono<AppEnv>();
  const { log } = services;
  // The text edge's routes too, so their other methods are a 405 naming POST.
  const routes = routeTable(() => [...app.routes, ...TEXT_ROUTE_ENTRIES]);
  const stages = requestStages(services, routes);
  const pipeline = new Pipeline(options.stages ? options.stages(stages) : stages);
  const answerError: ErrorAnswer = (err, c) =>
    renderError(c, answerableError(err, log, { requestId: c.get('requestId'), path: c.req.path }));
  app.use('*', runPipeline(pipeline, answerError));

  registerSystemRoutes(app, services);
  for (const register of [...routeGroups, ...(options.routes ?? [])]) register(app, services);

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

  app.onError(answerError);

  return { app, edge: createTextEdge(services, pipeline) };
}
