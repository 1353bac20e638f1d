/**
 * The pipeline on the Hono app: one middleware that runs the stages' `enter`s, then the route, then
 * their `leave`s, and writes the stages' headers onto the answer. What a stage found is shared with
 * the routes as context variables (`requestId`, `key`, `startedAt`).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import type { AppEnv } from './env.js';
import { Exchange, nodeHeaders } from './exchange.js';
import { nodeIncoming } from './node-adapter.js';
import type { Pipeline } from './pipeline.js';

/** What the app answers for an error (its `onError`): also used for a stage's refusal. */
export type ErrorAnswer = (err: unknown, c: Context<AppEnv>) => Response;

/**
 * @example
 * app.use('*', runPipeline(pipeline, answerError));
 * app.onError(answerError);
 */
export function runPipeline(
  pipeline: Pipeline,
  answerError: ErrorAnswer,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const x = exchangeOf(c);
    try {
      const early = await pipeline.enter(x);
      share(c, x);
      if (early) c.res = c.body(null, early.status as 204, early.headers);
      else await next();
    } catch (err) {
      share(c, x);
      c.res = answerError(err, c);
    }
    x.status = c.res.status;
    // The matched route pattern, not the raw path: bounded label cardinality.
    x.route = c.get('unmatched') ? 'unmatched' : routePath(c, -1) || 'unmatched';
    pipeline.leave(x);
    x.applyTo(c.res.headers);
  };
}

function exchangeOf(c: Context<AppEnv>): Exchange {
  const incoming = nodeIncoming(c) ?? null;
  if (incoming) {
    return new Exchange(
      c.req.method,
      c.req.path,
      incoming.url ?? '',
      incoming,
      nodeHeaders(incoming),
    );
  }
  return new Exchange(c.req.method, c.req.path, c.req.url, null, (name) => c.req.header(name));
}

/** What the stages found, for the routes. */
function share(c: Context<AppEnv>, x: Exchange): void {
  c.set('exchange', x);
  c.set('requestId', x.requestId);
  c.set('startedAt', x.startedAt);
  if (x.key) c.set('key', x.key);
}
