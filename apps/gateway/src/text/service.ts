/**
 * The text generation service: one request, from a validated body to the answer the client sees,
 * as a line of named stages (one file each; docs/text-path.md walks through them):
 *
 *   resolveModel (resolve.ts)   which model, and may this key use it        404 / 403
 *   admit        (admit.ts)     hold tpm and reserve quota for the worst case 429 / 402
 *   callUpstream (upstream.ts)  plan per deployment, send, fail over          502 / 503 / 504
 *   respondJson  (respond.ts)   or relayStream (relay.ts): the answer
 *   Charge       (charge.ts)    settle to what was used, or refund
 */
import type { Billing } from '../billing/billing.js';
import { ApiError } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import type { RateLimiter } from '../limits/limiter.js';
import type { ModelListEntry, TextModelCatalog } from '../models/catalog.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { Router } from '../routing/router.js';
import { admit } from './admit.js';
import type { TextAnswer } from './answer.js';
import { countMessageTokens, type TokenCount, type TokenCountRequest } from './count-tokens.js';
import { clientFailure } from './failure.js';
import { OVERHEAD_HEADER, OverheadClock } from './overhead.js';
import type { OwnImageLoader } from './own-images.js';
import { relayStream } from './relay.js';
import type { TextRequest } from './request.js';
import { resolveModel } from './resolve.js';
import { respondJson } from './respond.js';
import { callUpstream, type UpstreamJson, type UpstreamStream } from './upstream.js';

export type { TextAnswer } from './answer.js';
export type { TokenCount, TokenCountRequest } from './count-tokens.js';
export { OVERHEAD_HEADER } from './overhead.js';
export type { ClientFormat, TextRequest } from './request.js';

export interface TextServiceDeps {
  catalog: TextModelCatalog;
  billing: Billing;
  limiter?: RateLimiter;
  log: Logger;
  stdMetrics?: StandardMetrics;
  /** Defaults to a router with the default circuit breaker. */
  router?: Router;
  /** Loads images that point at the gateway's own CDN; absent: every image URL goes upstream. */
  images?: OwnImageLoader;
}

/** What the route knows about the request besides its body. */
export interface TextRequestContext {
  key: AuthKey;
  requestId: string;
  /** performance.now() when the request arrived (for x-modelgate-overhead-ms). */
  startedAt: number;
  /**
   * The request's abort controller: the route aborts it when the client goes away, and the service
   * aborts it to stop the upstream work. Absent: the service makes its own.
   */
  abort?: AbortController;
}

export interface TextService {
  readonly catalog: TextModelCatalog;
  readonly router: Router;
  /**
   * Serves one validated request.
   * @example
   * const res = await text.generate({ format: 'chat', body: { model: 'gpt-4o-mini', messages } }, { key, requestId, startedAt });
   */
  generate(request: TextRequest, ctx: TextRequestContext): Promise<TextAnswer>;
  /**
   * The input tokens of a messages request: the Anthropic upstream's own count, or the gateway's
   * estimate on other upstreams. Not billed.
   * @example
   * const { inputTokens, source } = await text.countTokens({ body: { model, messages } }, { key });
   */
  countTokens(
    request: TokenCountRequest,
    ctx: { key: AuthKey; signal?: AbortSignal },
  ): Promise<TokenCount>;
  /** Text models for GET /v1/models. */
  listModels(): ModelListEntry[];
  /** The text models a key restricted to `allowed` sees: the listed ones among its ids. */
  listModelsFor(allowed: readonly string[]): ModelListEntry[];
  close(): Promise<void>;
}

/**
 * @example
 * const text = createTextService({ catalog, billing, limiter, log });
 */
export function createTextService(deps: TextServiceDeps): TextService {
  const router = deps.router ?? new Router();
  const { catalog, log } = deps;
  const metrics = deps.stdMetrics;

  async function generate(request: TextRequest, ctx: TextRequestContext): Promise<TextAnswer> {
    const model = await resolveModel(catalog, request, ctx.key);
    const charge = await admit(request, model, ctx, deps);
    const clock = new OverheadClock(ctx.startedAt);
    const abort = ctx.abort ?? new AbortController();
    // Nothing reached the client: the hold goes back (a no-op once settled) and the error is theirs.
    const fail = (err: unknown): never => {
      charge.refund();
      const failure = clientFailure(err, catalog.mode !== 'config');
      if (failure instanceof ApiError) failure.headers[OVERHEAD_HEADER] = clock.header();
      throw failure;
    };
    let answer: UpstreamJson | UpstreamStream;
    try {
      answer = await callUpstream(
        request,
        model,
        { signal: abort.signal, clock },
        { router, metrics },
      );
    } catch (err) {
      return fail(err);
    }
    if (answer.kind === 'json') return respondJson(answer, charge, clock).catch(fail);
    return relayStream(answer, { request, charge, abort, clock }, { router, log, metrics });
  }

  return {
    catalog,
    router,
    generate,
    countTokens: (request, ctx) => countMessageTokens(request, ctx, { catalog, router, metrics }),
    listModels: () => catalog.list(),
    listModelsFor(allowed) {
      const listed = new Map(catalog.list().map((m) => [m.id, m]));
      return allowed.flatMap((id) => listed.get(id) ?? []);
    },
    close: () => catalog.close(),
  };
}
