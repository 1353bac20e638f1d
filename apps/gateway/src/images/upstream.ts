/**
 * Stage 4: the generation, sent to a deployment of the model and failed over to another on a
 * retryable failure (routing/router.ts, the text path's router and breaker). The answer is read
 * whole and checked here: each image decoded and typed by its content, and the fields the upstream
 * reports kept only when the spec names their values.
 */
import type { ImagesResponse, ImagesUsage } from '@modelgate/core';
import { zImagesResponse, zImagesUsage } from '@modelgate/core/zod';
import { type ImageType, SNIFF_BYTES, sniffImageType } from '../files/sniff.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { UpstreamError } from '../providers/text/types.js';
import type { Router } from '../routing/router.js';
import type { OverheadClock } from '../text/overhead.js';
import type { ImageDeployment } from './catalog.js';
import type { ImageRequest } from './request.js';

export interface UpstreamImage {
  bytes: Buffer;
  /** As the upstream sent it: answered as it is for `b64_json`. */
  base64: string;
  type: ImageType;
  revisedPrompt?: string;
}

/** What came back: the images (at most `n`) and what the upstream says about them. */
export interface UpstreamImages {
  created: number;
  images: UpstreamImage[];
  size?: ImagesResponse['size'];
  quality?: ImagesResponse['quality'];
  background?: ImagesResponse['background'];
  outputFormat?: ImagesResponse['output_format'];
  usage?: ImagesUsage;
}

export interface CallContext {
  signal: AbortSignal;
  clock: OverheadClock;
}

/** The upstream body: the request's fields under the deployment's model name. */
function upstreamBody(request: ImageRequest, deployment: ImageDeployment): Record<string, unknown> {
  const { spec } = request.model;
  return {
    model: deployment.upstreamModel,
    prompt: request.prompt,
    n: request.n,
    size: request.size,
    quality: request.quality,
    ...request.passed,
    ...(spec.asksForBase64 ? { response_format: 'b64_json' } : {}),
  };
}

/** A broken answer is the upstream's fault: a 502, and another deployment may do better. */
function badAnswer(provider: string, what: string): UpstreamError {
  return new UpstreamError('status', `${provider} answered ${what}.`, 502);
}

function readImage(entry: unknown, provider: string): UpstreamImage {
  const item = (entry ?? {}) as { b64_json?: unknown; revised_prompt?: unknown };
  if (typeof item.b64_json !== 'string') throw badAnswer(provider, 'an image without b64_json');
  const bytes = Buffer.from(item.b64_json, 'base64');
  const type = sniffImageType(bytes.subarray(0, SNIFF_BYTES));
  if (!type) throw badAnswer(provider, 'an image that is not PNG, JPEG, WebP or GIF');
  const image: UpstreamImage = { bytes, base64: item.b64_json, type };
  if (typeof item.revised_prompt === 'string') image.revisedPrompt = item.revised_prompt;
  return image;
}

/** A field kept only when its value is one the spec names (else the client's schema would break). */
function known<T>(
  schema: { safeParse(value: unknown): { success: boolean; data?: T } },
  value: unknown,
): T | undefined {
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

function readAnswer(json: unknown, request: ImageRequest, provider: string): UpstreamImages {
  const answer = (json ?? {}) as Record<string, unknown>;
  if (!Array.isArray(answer.data) || answer.data.length === 0) {
    throw badAnswer(provider, 'without images');
  }
  const shape = zImagesResponse.shape;
  return {
    created: Number.isInteger(answer.created)
      ? Number(answer.created)
      : Math.floor(Date.now() / 1000),
    images: answer.data.slice(0, request.n).map((entry) => readImage(entry, provider)),
    size: known(shape.size, answer.size),
    quality: known(shape.quality, answer.quality),
    background: known(shape.background, answer.background),
    outputFormat: known(shape.output_format, answer.output_format),
    usage: known(zImagesUsage, answer.usage),
  };
}

/**
 * @throws RoutingError when every deployment failed (or none could be tried), UpstreamError for a
 *   refusal failover cannot fix (a 400: the prompt, say) or the client's hang-up.
 * @example
 * const answer = await callImageUpstream(request, { signal, clock }, { router, metrics });
 */
export function callImageUpstream(
  request: ImageRequest,
  ctx: CallContext,
  deps: { router: Router; metrics?: StandardMetrics },
): Promise<UpstreamImages> {
  return deps.router.run(request.model.deployments, async (deployment) => {
    const { provider } = deployment;
    const sentAt = performance.now();
    try {
      const json = await provider.generate(upstreamBody(request, deployment), ctx.signal);
      return readAnswer(json, request, provider.name);
    } catch (err) {
      if (err instanceof UpstreamError) {
        const reason = err.kind === 'status' ? String(err.status) : err.kind;
        deps.metrics?.upstreamErrors.inc({ provider: provider.name, reason });
      }
      throw err;
    } finally {
      ctx.clock.upstreamSince(sentAt);
    }
  });
}
