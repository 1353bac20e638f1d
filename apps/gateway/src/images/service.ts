/**
 * The image service: one request, from a validated body to the answer, as a line of named stages
 * (one file each, like the text path in docs/text-path.md). Generations, edits and variations
 * take the same line; only what the route read differs (request.ts's `ImageAsk`):
 *
 *   resolveImageModel     (resolve.ts)   which model, and may this key use it      404 / 403
 *   normalizeImageRequest (request.ts)   the model's own table, defaults applied    400
 *   loadInputImages       (inputs.ts)    the input images read and checked         400 / 404
 *   admitImage            (charge.ts)    reserve n images at the worst price        402
 *   callImageUpstream     (upstream.ts)  send, fail over, read and check the images 429 / 502 / 503 / 504
 *   deliverImages         (deliver.ts)   base64, or stored files on our CDN
 *   ImageCharge.settle    (charge.ts)    the images delivered, at what was made; or refund
 *
 * A streamed edit leaves the line after admitImage for stream.ts.
 */
import type { CreateImageRequest, ImagesResponse } from '@modelgate/core';
import type { Billing } from '../billing/billing.js';
import { ApiError } from '../errors/api-error.js';
import type { FilesService } from '../files/index.js';
import type { AuthKey } from '../keys/keys.js';
import type { IsTextModel } from '../models/model-kinds.js';
import type { ModelListEntry } from '../models/types.js';
import type { Logger } from '../observability/logger.js';
import type { StandardMetrics } from '../observability/metrics.js';
import type { Router } from '../routing/router.js';
import { clientFailure } from '../text/failure.js';
import { OVERHEAD_HEADER, OverheadClock } from '../text/overhead.js';
import type { ImageCatalog } from './catalog.js';
import { admitImage, type ImageCharge, imageUsage } from './charge.js';
import { deliverImages } from './deliver.js';
import { type InputDeps, type LoadedInputs, loadInputImages } from './inputs.js';
import { chargedUnits } from './price.js';
import { type ImageAsk, type ImageRequest, normalizeImageRequest } from './request.js';
import { resolveImageModel } from './resolve.js';
import { streamedEdit } from './stream.js';
import { callImageUpstream, streamImageUpstream, type UpstreamImages } from './upstream.js';

export interface ImagesServiceDeps {
  catalog: ImageCatalog;
  billing: Billing;
  files: FilesService;
  /** The text path's router: the same failover rules and circuit breaker settings. */
  router: Router;
  log: Logger;
  stdMetrics?: StandardMetrics;
  /** Where edits read their input images from (the CDN's address, the remote fetch rules). */
  inputs: Omit<InputDeps, 'files'>;
  /** Names the text endpoint when a request gives a text model's id (the text catalogue). */
  isTextModel?: IsTextModel;
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
  /**
   * An edit or a variation, as the route read it (its fields and where its images come from).
   * @example
   * const res = await images.transform({ operation: 'edit', body, images: [{ kind: 'file', fileId, param: 'images.0.file_id' }] }, ctx);
   */
  transform(
    ask: Exclude<ImageAsk, { operation: 'generate' }>,
    ctx: ImageRequestContext,
  ): Promise<Response>;
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
 * const images = createImagesService({ catalog, billing, files, router, log, inputs });
 */
export function createImagesService(deps: ImagesServiceDeps): ImagesService {
  const upstreamDeps = { router: deps.router, metrics: deps.stdMetrics };
  const inputDeps: InputDeps = { ...deps.inputs, files: deps.files };

  /** From the upstream call on: the images delivered and charged, or everything refunded. */
  async function answer(
    request: ImageRequest,
    inputs: LoadedInputs,
    charge: ImageCharge,
    ctx: ImageRequestContext,
  ): Promise<Response> {
    const clock = new OverheadClock(ctx.startedAt);
    const call = { signal: ctx.abort.signal, clock };
    try {
      if (request.stream) {
        const events = await streamImageUpstream(request, inputs, call, upstreamDeps);
        return new Response(streamedEdit(events, request, charge, ctx.abort), {
          headers: {
            'content-type': 'text/event-stream; charset=utf-8',
            'cache-control': 'no-cache',
            [OVERHEAD_HEADER]: clock.header(),
          },
        });
      }
      const made = await callImageUpstream(request, inputs, call, upstreamDeps);
      const data = await deliverImages(made.images, request, ctx.key.id, deps.files);
      const what = { count: data.length, size: made.size, quality: made.quality };
      charge.settle(chargedUnits(request, what), imageUsage(made.usage));
      return Response.json(answerBody(made, data), {
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

  async function serve(
    ask: ImageAsk,
    modelId: string,
    ctx: ImageRequestContext,
  ): Promise<Response> {
    const model = resolveImageModel(deps.catalog, modelId, ctx.key, deps.isTextModel);
    const request = normalizeImageRequest(ask, model, deps.catalog.doing(ask.operation));
    const inputs = await loadInputImages(request, ctx.key.id, deps.files.maxUploadBytes, inputDeps);
    const charge = await admitImage(request, ctx, deps.billing);
    return answer(request, inputs, charge, ctx);
  }

  return {
    generate: (body, ctx) => serve({ operation: 'generate', body }, body.model, ctx),
    transform: (ask, ctx) => serve(ask, ask.body.model ?? 'dall-e-2', ctx),
    listModels: () => deps.catalog.list(),
    close: () => deps.catalog.close(),
  };
}
