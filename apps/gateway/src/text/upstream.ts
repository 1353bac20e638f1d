/**
 * Stage 3: plan the request for a deployment and call it, failing over to another deployment on a
 * retryable failure (routing/router.ts) until one answers. Failover is possible until the client
 * has seen a byte: a JSON answer is read whole here, a stream is returned once its first chunk
 * has arrived.
 */
import type { TextDeployment, TextModel } from '../models/catalog.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { classifyNetworkError } from '../providers/text/http.js';
import { UpstreamError, type UpstreamResponse } from '../providers/text/types.js';
import type { Router } from '../routing/router.js';
import type { OverheadClock } from './overhead.js';
import { planUpstream, type UpstreamPlan } from './plan.js';
import { isStreaming, type TextRequest } from './request.js';
import { bodyFor, refoldAfter } from './system-turns.js';

/** An upstream's complete JSON answer. */
export interface UpstreamJson {
  kind: 'json';
  plan: UpstreamPlan;
  json: unknown;
  /** The answer's bytes as received, forwarded as they are when the formats match. */
  raw: Buffer;
}

/** An upstream stream whose first chunk has arrived. */
export interface UpstreamStream {
  kind: 'stream';
  plan: UpstreamPlan;
  deployment: TextDeployment;
  response: UpstreamResponse;
}

export interface CallContext {
  signal: AbortSignal;
  clock: OverheadClock;
}

/**
 * @throws RoutingError when every deployment failed (or none could be tried), UpstreamError for
 *   a refusal failover cannot fix or the client's hang-up.
 * @example
 * const answer = await callUpstream(request, model, { signal, clock }, { router, metrics });
 */
export function callUpstream(
  request: TextRequest,
  model: TextModel,
  ctx: CallContext,
  deps: { router: Router; metrics?: StandardMetrics },
): Promise<UpstreamJson | UpstreamStream> {
  return deps.router.run(model.deployments, async (deployment) => {
    const call = (sent: TextRequest) => attempt(sent, deployment, model, ctx, deps.metrics);
    if (request.format !== 'messages') return call(request);
    // System turns go as sent, or folded into `system` for an upstream that refuses them.
    const body = bodyFor(request.body, deployment);
    try {
      return await call({ ...request, body });
    } catch (err) {
      const again = refoldAfter(err, body, deployment);
      if (!again) throw err;
      return call({ ...request, body: again });
    }
  });
}

/** One call of one deployment. */
async function attempt(
  request: TextRequest,
  deployment: TextDeployment,
  model: TextModel,
  ctx: CallContext,
  metrics: StandardMetrics | undefined,
): Promise<UpstreamJson | UpstreamStream> {
  const plan = planUpstream(request, deployment, model);
  const sentAt = performance.now();
  try {
    const response = await deployment.provider.send({
      operation: plan.operation,
      body: plan.body,
      betas: request.format === 'messages' ? request.betas : undefined,
      signal: ctx.signal,
    });
    if (!isStreaming(request)) return await readJson(plan, deployment, response);
    await firstChunk(deployment, response);
    return { kind: 'stream', plan, deployment, response };
  } catch (err) {
    if (err instanceof UpstreamError) countUpstreamError(metrics, deployment, err);
    throw err;
  } finally {
    ctx.clock.upstreamSince(sentAt);
  }
}

async function readJson(
  plan: UpstreamPlan,
  deployment: TextDeployment,
  response: UpstreamResponse,
): Promise<UpstreamJson> {
  let raw: Buffer;
  try {
    raw = await response.body.collect();
  } catch (err) {
    throw classifyNetworkError(err, deployment.provider.name);
  }
  try {
    return { kind: 'json', plan, json: JSON.parse(raw.toString('utf8')), raw };
  } catch {
    throw new UpstreamError('status', 'Upstream sent a response that is not JSON.', 502);
  }
}

/** Waits for the stream's first chunk: a failure before it can still fail over. */
async function firstChunk(deployment: TextDeployment, response: UpstreamResponse): Promise<void> {
  try {
    await response.body.ready();
  } catch (err) {
    throw classifyNetworkError(err, deployment.provider.name);
  }
}

/** `modelgate_upstream_errors_total`, by provider and status or failure kind. */
export function countUpstreamError(
  metrics: StandardMetrics | undefined,
  deployment: TextDeployment,
  error: UpstreamError,
): void {
  metrics?.upstreamErrors.inc({
    provider: deployment.provider.name,
    reason: error.kind === 'status' ? String(error.status) : error.kind,
  });
}
