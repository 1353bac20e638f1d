/**
 * The text edge: POST /v1/chat/completions, /v1/completions and /v1/messages, served on Node's
 * HTTP server directly, in front of the Hono app that serves every other route. Every token of
 * every stream goes through these three routes; without the web Request/Response layer, the
 * framework's context and its chain of middleware closures a streamed request costs about a
 * seventh less CPU (docs/text-path.md, "Why the text routes have their own edge").
 *
 * It runs the same list of stages as the app (`http/pipeline.ts`: request id, access log and
 * metrics, CORS, body limit, key, rpm, NUL in the URL…), then the route's headers and JSON body
 * (400/415) and the text service, then writes the answer or the error with the stages' headers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../../services.js';
import type { Pipeline } from '../pipeline.js';
import { TextExchange } from './exchange.js';
import { TEXT_ROUTES } from './routes.js';

/** Serves a request and answers true, or answers false and leaves it to the next handler. */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * @example
 * const edge = createTextEdge(services, new Pipeline(requestStages(services, routes)));
 * const api = await listen((req, env) => app.fetch(req, env), 8080, '0.0.0.0', timeouts, edge);
 */
export function createTextEdge(services: Services, pipeline: Pipeline): FrontHandler {
  const routes = new Map(TEXT_ROUTES.map((route) => [route.path, route]));
  const context = TextExchange.context(services, pipeline);
  return (req, res) => {
    if (req.method !== 'POST') return false;
    const route = routes.get(pathOf(req.url ?? ''));
    if (!route) return false;
    void new TextExchange(req, res, route, context).serve();
    return true;
  };
}

/**
 * The path of a request target: origin-form (`/v1/messages?x=1`, what clients send) or, rarely,
 * absolute-form (`http://host/v1/messages`, what some proxies forward).
 */
function pathOf(target: string): string {
  if (!target.startsWith('/')) return URL.canParse(target) ? new URL(target).pathname : '';
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
}
