/**
 * Stage 5: the job, sent to a deployment of the model and failed over to another on a retryable
 * failure (routing/router.ts, the text path's router and breaker). Each adapter reads its own
 * upstream's answer into decoded, typed images (providers/image/).
 */
import { imageInfo } from '../files/index.js';
import type { StandardMetrics } from '../observability/metrics.js';
import type { ImageJob, ImageStreamEvent, UpstreamImages } from '../providers/image/types.js';
import { UpstreamError } from '../providers/text/types.js';
import type { Router } from '../routing/router.js';
import type { OverheadClock } from '../text/overhead.js';
import type { ImageDeployment } from './catalog.js';
import type { LoadedInputs } from './inputs.js';
import type { ImageRequest } from './request.js';

export type { UpstreamImage, UpstreamImages } from '../providers/image/types.js';

export interface CallContext {
  signal: AbortSignal;
  clock: OverheadClock;
}

export interface UpstreamDeps {
  router: Router;
  metrics?: StandardMetrics | undefined;
}

/** The job for one deployment: the request's fields under the deployment's model name. */
function jobFor(
  request: ImageRequest,
  inputs: LoadedInputs,
  deployment: ImageDeployment,
): ImageJob {
  const job: ImageJob = {
    operation: request.operation,
    model: deployment.upstreamModel,
    prompt: request.prompt,
    n: request.n,
    size: request.size,
    quality: request.quality,
    options: request.passed,
    images: inputs.images,
  };
  if (inputs.mask) job.mask = inputs.mask;
  if (request.stream)
    job.options = { ...job.options, partial_images: request.stream.partialImages };
  return job;
}

/** The size made, read from the first image when the upstream does not say (it chose it). */
function withSize(answer: UpstreamImages): UpstreamImages {
  const [first] = answer.images;
  if (answer.size || !first) return answer;
  const info = imageInfo(first.bytes, first.type);
  return info ? { ...answer, size: `${info.width}x${info.height}` } : answer;
}

/** Counts an upstream failure in `modelgate_upstream_errors_total` and passes it on. */
function counted(err: unknown, provider: string, metrics: StandardMetrics | undefined): unknown {
  if (err instanceof UpstreamError) {
    const reason = err.kind === 'status' ? String(err.status) : err.kind;
    metrics?.upstreamErrors.inc({ provider, reason });
  }
  return err;
}

/**
 * @throws RoutingError when every deployment failed (or none could be tried), UpstreamError for a
 *   refusal failover cannot fix (a 400: the prompt, say) or the client's hang-up.
 * @example
 * const answer = await callImageUpstream(request, inputs, { signal, clock }, { router, metrics });
 */
export function callImageUpstream(
  request: ImageRequest,
  inputs: LoadedInputs,
  ctx: CallContext,
  deps: UpstreamDeps,
): Promise<UpstreamImages> {
  return deps.router.run(request.model.deployments, async (deployment) => {
    const { provider } = deployment;
    const sentAt = performance.now();
    try {
      return withSize(await provider.run(jobFor(request, inputs, deployment), ctx.signal));
    } catch (err) {
      throw counted(err, provider.name, deps.metrics);
    } finally {
      ctx.clock.upstreamSince(sentAt);
    }
  });
}

/**
 * A streamed edit: resolves once a deployment has answered with its event stream (failover up
 * to then, as for a whole answer).
 *
 * @example
 * const events = await streamImageUpstream(request, inputs, { signal, clock }, { router });
 */
export function streamImageUpstream(
  request: ImageRequest,
  inputs: LoadedInputs,
  ctx: CallContext,
  deps: UpstreamDeps,
): Promise<AsyncIterable<ImageStreamEvent>> {
  return deps.router.run(request.model.deployments, async (deployment) => {
    const { provider } = deployment;
    const sentAt = performance.now();
    try {
      if (!provider.stream) {
        throw new UpstreamError('status', `${provider.name} does not stream images.`, 400);
      }
      return await provider.stream(jobFor(request, inputs, deployment), ctx.signal);
    } catch (err) {
      throw counted(err, provider.name, deps.metrics);
    } finally {
      ctx.clock.upstreamSince(sentAt);
    }
  });
}
