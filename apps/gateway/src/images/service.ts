/**
 * The image generation service: one request, from a validated body to the answer, as a line of
 * named stages (one file each, like the text path in docs/text-path.md):
 *
 *   resolveImageModel     (resolve.ts)   which model, and may this key use it      404 / 403
 *   normalizeImageRequest (request.ts)   the model's own table, defaults applied    400
 *   admitImage            (charge.ts)    reserve n images at the worst price        402
 *   callImageUpstream     (upstream.ts)  send, fail over, read and check the images 429 / 502 / 503 / 504
 *   deliverImages         (deliver.ts)   base64, or stored files on our CDN
 *   ImageCharge.settle    (charge.ts)    the images delivered, at what was made; or refund
 */
import type { CreateImageRequest, ImagesResponse } from '@modelgate/core';
import type { Billing } from '../billing/billing.js';
import type { FilesService } from '../files/service.js';
import { ApiError } from '../http/errors.js';
import type { AuthKey } from '../keys/keys.js';
import type { ModelListEntry } from '../models/types.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import type { Router } from '../routing/router.js';
import { Settlements } from '../text/charge.js';
import { clientFailure } from '../text/failure.js';
import { OVERHEAD_HEADER, OverheadClock } from '../text/overhead.js';
import type { ImageCatalog } from './catalog.js';
import { admitImage } from './charge.js';
import { deliverImages } from './deliver.js';
import { chargedUnits } from './price.js';
import { normalizeImageRequest } from './request.js';
import { resolveImageModel } from './resolve.js';
import { callImageUpstream, type UpstreamImages } from './upstream.js';

export interface ImagesServiceDeps {
  catalog: ImageCatalog;
  billing: Billing;
  files: FilesService;
  /** The text path's router: the same failover rules and circuit breaker settings. */
  router: Router;
  log: Logger;
  stdMetrics?: StandardMetrics;
}

/** What the route knows about the request besides its body. */
export interface ImageRequestContext {
  key: AuthKey;
  requestId: string;
  /** performance.now() when the request arrived (for x-modelgate-overhead-ms). */
  startedAt: number;
  /** Aborted when the client goes away: the upstream call is abandoned and nothing is charged. */
  abort: AbortController;
}

export interface ImagesService {
  /**
   * @example
   * const res = await images.generate({ model: 'dall-e-3', prompt: 'a cat' }, { key, requestId, startedAt, abort });
   */
  generate(body: CreateImageRequest, ctx: ImageRequestContext): Promise<Response>;
  /** Image models for GET /v1/models. */
  listModels(): ModelListEntry[];
  close(): Promise<void>;
}

/** The answer's body: the images, and what the upstream says it made. */
function answerBody(answer: UpstreamImages, data: ImagesResponse['data']): ImagesResponse {
  const body: ImagesResponse = { created: answer.created, data };
  if (answer.size) body.size = answer.size;
  if (answer.quality) body.quality = answer.quality;
  if (answer.background) body.background = answer.background;
  if (answer.outputFormat) body.output_format = answer.outputFormat;
  if (answer.usage) body.usage = answer.usage;
  return body;
}

/**
 * @example
 * const images = createImagesService({ catalog, billing, files, router, log });
 */
export function createImagesService(deps: ImagesServiceDeps): ImagesService {
  const settlements = new Settlements(deps.billing, deps.log);
  const upstreamDeps = { router: deps.router, metrics: deps.stdMetrics };

  async function generate(body: CreateImageRequest, ctx: ImageRequestContext): Promise<Response> {
    const model = resolveImageModel(deps.catalog, body.model, ctx.key);
    const request = normalizeImageRequest(body, model);
    const charge = await admitImage(request, ctx, settlements);
    const clock = new OverheadClock(ctx.startedAt);
    try {
      const answer = await callImageUpstream(
        request,
        { signal: ctx.abort.signal, clock },
        upstreamDeps,
      );
      const data = await deliverImages(answer.images, request, ctx.key.id, deps.files);
      const made = { count: data.length, size: answer.size, quality: answer.quality };
      charge.settle(chargedUnits(request, made), answer.usage);
      return Response.json(answerBody(answer, data), {
        headers: { [OVERHEAD_HEADER]: clock.header() },
      });
    } catch (err) {
      charge.refund();
      // The image models are ours, not names the client made up: an upstream 404 is a 502.
      const failure = clientFailure(err, false);
      if (failure instanceof ApiError) failure.headers[OVERHEAD_HEADER] = clock.header();
      throw failure;
    }
  }

  return {
    generate,
    listModels: () => deps.catalog.list(),
    async close() {
      await settlements.drain();
      await deps.catalog.close();
    },
  };
}
