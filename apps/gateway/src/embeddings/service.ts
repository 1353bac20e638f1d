/**
 * The embeddings service: one request, from a validated body to the answer, as a line of named
 * stages (one file each, like the text path in docs/text-path.md):
 *
 *   resolveEmbeddingModel     (service.ts)   which model, and may this key use it     404 / 403
 *   normalizeEmbeddingRequest (request.ts)   the model's own table                     400
 *   admitEmbedding            (charge.ts)    hold the estimate against tpm and quota   429 / 402
 *   callEmbeddingUpstream     (upstream.ts)  send, fail over, check the vectors        429 / 502 / 503 / 504
 *   embeddingList             (respond.ts)   numbers or base64
 *   EmbeddingCharge.settle    (charge.ts)    the tokens counted; or refund
 */
import type { CreateEmbeddingRequest } from '@modelgate/core';
import type { Billing } from '../billing/billing.js';
import { ApiError, forbidden } from '../errors/api-error.js';
import type { AuthKey } from '../keys/keys.js';
import type { RateLimiter } from '../limits/limiter.js';
import { type IsTextModel, unknownModel } from '../models/model-kinds.js';
import type { ModelListEntry } from '../models/types.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import type { Router } from '../routing/router.js';
import { clientFailure } from '../text/failure.js';
import { OVERHEAD_HEADER, OverheadClock } from '../text/overhead.js';
import { countTokens } from '../text/tokens.js';
import type { EmbeddingCatalog, EmbeddingModel } from './catalog.js';
import { admitEmbedding } from './charge.js';
import { type EmbeddingRequest, normalizeEmbeddingRequest } from './request.js';
import { embeddingList } from './respond.js';
import { callEmbeddingUpstream } from './upstream.js';

export interface EmbeddingsServiceDeps {
  catalog: EmbeddingCatalog;
  billing: Billing;
  limiter?: RateLimiter;
  /** The text path's router: the same failover rules and circuit breaker settings. */
  router: Router;
  log: Logger;
  stdMetrics?: StandardMetrics;
  /** Names the text endpoint when a request gives a text model's id (the text catalogue). */
  isTextModel?: IsTextModel;
}

export interface EmbeddingRequestContext {
  key: AuthKey;
  requestId: string;
  startedAt: number;
  /** Aborted when the client goes away: the upstream call is abandoned and nothing is charged. */
  abort: AbortController;
}

export interface EmbeddingsService {
  /**
   * @example
   * const res = await embeddings.create({ model: 'text-embedding-3-small', input: 'hello' }, ctx);
   */
  create(body: CreateEmbeddingRequest, ctx: EmbeddingRequestContext): Promise<Response>;
  /** Embedding models for GET /v1/models. */
  listModels(): ModelListEntry[];
  close(): Promise<void>;
}

/**
 * Stage 1: nothing is held yet, so a refusal here costs the key nothing.
 * @throws ApiError 404 `model_not_found`, 403 `model_not_allowed`.
 */
function resolveEmbeddingModel(
  catalog: EmbeddingCatalog,
  id: string,
  key: AuthKey,
  isText?: IsTextModel,
): EmbeddingModel {
  const model = catalog.resolve(id);
  if (!model) throw unknownModel(id, 'embedding', isText);
  if (key.models !== null && !key.models.includes(id)) {
    throw forbidden(`This key may not use the model "${id}".`, 'model_not_allowed', 'model');
  }
  return model;
}

/** The gateway's own count where the upstream reports none: o200k for text, ids as they are. */
async function countInputTokens(request: EmbeddingRequest): Promise<number> {
  let total = 0;
  for (const input of request.inputs) {
    total += typeof input === 'string' ? await countTokens(input) : input.length;
  }
  return total;
}

/**
 * @example
 * const embeddings = createEmbeddingsService({ catalog, billing, limiter, router, log });
 */
export function createEmbeddingsService(deps: EmbeddingsServiceDeps): EmbeddingsService {
  const admitDeps = { billing: deps.billing, limiter: deps.limiter };
  const upstreamDeps = { router: deps.router, metrics: deps.stdMetrics };

  async function create(body: CreateEmbeddingRequest, ctx: EmbeddingRequestContext) {
    const model = resolveEmbeddingModel(deps.catalog, body.model, ctx.key, deps.isTextModel);
    const request = normalizeEmbeddingRequest(body, model);
    const charge = await admitEmbedding(request, ctx, admitDeps);
    const clock = new OverheadClock(ctx.startedAt);
    try {
      const result = await callEmbeddingUpstream(
        request,
        { signal: ctx.abort.signal, clock },
        upstreamDeps,
      );
      const tokens = result.promptTokens ?? (await countInputTokens(request));
      const answer = embeddingList(request, result.vectors, tokens);
      charge.settle(tokens);
      return Response.json(answer, {
        headers: { ...charge.tokens.headers, [OVERHEAD_HEADER]: clock.header() },
      });
    } catch (err) {
      charge.refund();
      const failure = clientFailure(err, false);
      if (failure instanceof ApiError) failure.headers[OVERHEAD_HEADER] = clock.header();
      throw failure;
    }
  }

  return {
    create,
    listModels: () => deps.catalog.list(),
    close: () => deps.catalog.close(),
  };
}
