/**
 * The concerns every request meets, in order, written once: a list of named stages that both ways
 * in run: the Hono app (one middleware, `http/hono-stages.ts`) and the text edge
 * (`text-edge/exchange.ts`), which runs the list directly. A concern added to
 * {@link requestStages} reaches every route, the text routes included.
 *
 * A stage sees the request as an {@link Exchange}: its head, what earlier stages found (the
 * request id, the key) and the headers its answer will carry. Before the route it may refuse (throw
 * an ApiError) or answer at once (a CORS preflight); once the answer's status is known, and before
 * it is written, its `leave` runs (in reverse order, for each stage that was entered).
 */
import type { Services } from '../services.js';
import type { EarlyAnswer, Exchange, Stage } from './exchange.js';
import { authStage } from './middleware/auth.js';
import { bodyLimitStage } from './middleware/body-limit.js';
import { closeIfBodyUnreadStage } from './middleware/close-unread.js';
import { apiCorsOptions, corsStage } from './middleware/cors.js';
import { observeStage } from './middleware/observe.js';
import { rateLimitStage } from './middleware/rate-limit.js';
import { requestIdStage } from './middleware/request-id.js';
import { nulInUrlStage } from './middleware/request-target.js';
import type { RouteTable } from './route-table.js';

const isApiPath = (path: string) => path.startsWith('/v1/') || path === '/v1';

/**
 * A list of stages, run in order by {@link Pipeline.enter} and unwound by {@link Pipeline.leave}.
 * @example
 * const pipeline = new Pipeline(requestStages(services, routes));
 * const early = await pipeline.enter(x); // throws what a stage refuses with
 * x.status = 200;
 * pipeline.leave(x);
 */
export class Pipeline {
  /** The stages for a path outside /v1 (the `every` ones). */
  private readonly everyStages: readonly Stage[];

  constructor(readonly stages: readonly Stage[]) {
    this.everyStages = stages.filter((s) => s.scope === 'every');
  }

  /** Runs each stage's `enter` in order; stops at an early answer or a refusal (rethrown). */
  async enter(x: Exchange): Promise<EarlyAnswer | undefined> {
    const stages = isApiPath(x.path) ? this.stages : this.everyStages;
    x.stages = stages;
    for (let i = 0; i < stages.length; i++) {
      x.entered = i + 1; // before it runs: a stage that refuses is unwound too
      let early = stages[i]!.enter?.(x);
      if (early instanceof Promise) early = await early;
      if (early) return early;
    }
    return undefined;
  }

  /** Runs `leave` of every stage entered (a refusing stage included), last first. */
  leave(x: Exchange): void {
    const stages = x.stages;
    for (let i = x.entered - 1; i >= 0; i--) stages[i]!.leave?.(x);
  }
}

/**
 * The gateway's concerns, in the order a request meets them. Adding one is one line here.
 *
 * @example
 * const stages = requestStages(services, routeTable(() => app.routes));
 * stages.map((s) => s.name); // ['request-id', 'observe', 'close-if-body-unread', 'cors', …]
 */
export function requestStages(services: Services, routes: RouteTable): Stage[] {
  const { config } = services;
  return [
    requestIdStage(),
    observeStage(services.log, services.stdMetrics),
    closeIfBodyUnreadStage(),
    // Browsers (the web demo, any SPA) call the API cross-origin with the key in a header; no
    // cookies are involved, so any origin may. Preflights are answered here, before auth.
    corsStage(apiCorsOptions(config.corsOrigins)),
    bodyLimitStage(config.maxJsonBytes),
    authStage(services.keys),
    rateLimitStage(services.limiter),
    nulInUrlStage(routes),
  ];
}
