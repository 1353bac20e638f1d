/**
 * Stage 4: the inputs, sent to a deployment of the model and failed over to another on a
 * retryable failure (routing/router.ts, the text path's router and breaker). A vector of another
 * length than asked is the upstream's fault: a 502.
 */
import type { StandardMetrics } from '../observability/metrics.js';
import type { EmbeddingResult } from '../providers/embedding/types.js';
import { badAnswer } from '../providers/provider-http.js';
import { UpstreamError } from '../providers/text/types.js';
import type { Router } from '../routing/router.js';
import type { OverheadClock } from '../text/overhead.js';
import type { EmbeddingRequest } from './request.js';

/**
 * @throws RoutingError when every deployment failed, UpstreamError for a refusal failover cannot
 *   fix (a 400: an input too long, say) or the client's hang-up.
 * @example
 * const result = await callEmbeddingUpstream(request, { signal, clock }, { router });
 */
export function callEmbeddingUpstream(
  request: EmbeddingRequest,
  ctx: { signal: AbortSignal; clock: OverheadClock },
  deps: { router: Router; metrics?: StandardMetrics | undefined },
): Promise<EmbeddingResult> {
  const length = request.dimensions ?? request.model.spec.dimensions;
  return deps.router.run(request.model.deployments, async (deployment) => {
    const { provider } = deployment;
    const sentAt = performance.now();
    try {
      const job = {
        model: deployment.upstreamModel,
        inputs: request.inputs,
        ...(request.dimensions !== undefined ? { dimensions: request.dimensions } : {}),
        ...(request.user !== undefined ? { user: request.user } : {}),
      };
      const result = await provider.embed(job, ctx.signal);
      if (result.vectors.some((vector) => vector.length !== length)) {
        throw badAnswer(provider.name, `vectors of another length than ${length}`);
      }
      return result;
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
