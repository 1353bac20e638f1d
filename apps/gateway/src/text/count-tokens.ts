/**
 * `POST /v1/messages/count_tokens`: the input tokens of a messages request. A messages-format
 * upstream counts them itself (its own `/v1/messages/count_tokens`), with failover across the
 * model's deployments like a create call; any other upstream has no count endpoint, and the
 * gateway's tokenizer estimates (tokens.ts). Nothing is held or billed.
 */
import type { CountMessageTokensRequest } from '@modelgate/core';
import type { AuthKey } from '../keys/keys.js';
import type { TextDeployment, TextModelCatalog } from '../models/catalog.js';
import type { StandardMetrics } from '../observability/metrics.js';
import { classifyNetworkError } from '../providers/text/http.js';
import { UpstreamError } from '../providers/text/types.js';
import type { Router } from '../routing/router.js';
import { clientFailure } from './failure.js';
import type { TextRequest } from './request.js';
import { resolveModel } from './resolve.js';
import { bodyFor, refoldAfter } from './system-turns.js';
import { countInputTokens } from './tokens.js';
import { countUpstreamError } from './upstream.js';

/** A count and where it came from (the `x-modelgate-token-count` header). */
export interface TokenCount {
  inputTokens: number;
  source: 'upstream' | 'estimate';
}

/** A count request as the route carries it: the validated body and the client's betas. */
export interface TokenCountRequest {
  body: CountMessageTokensRequest;
  betas?: readonly string[];
}

export interface TokenCountDeps {
  catalog: TextModelCatalog;
  router: Router;
  metrics?: StandardMetrics;
}

/**
 * @throws ApiError 404/403 for a model the key cannot use (as on create), the failover verdict
 *   (502/503/504) when every Anthropic deployment failed, 400 for an upstream refusal.
 * @example
 * const { inputTokens, source } = await countMessageTokens({ body }, { key, signal }, deps);
 */
export async function countMessageTokens(
  request: TokenCountRequest,
  ctx: { key: AuthKey; signal?: AbortSignal },
  deps: TokenCountDeps,
): Promise<TokenCount> {
  const asMessages = asMessagesRequest(request.body);
  const model = await resolveModel(deps.catalog, asMessages, ctx.key);
  try {
    return await deps.router.run(model.deployments, (deployment) =>
      deployment.provider.supports('count_tokens')
        ? upstreamCount(request, deployment, ctx.signal, deps.metrics)
        : estimate(asMessages),
    );
  } catch (err) {
    throw clientFailure(err, deps.catalog.mode !== 'config');
  }
}

/** The body as a messages request, for the stages shared with create (max_tokens is not counted). */
function asMessagesRequest(body: CountMessageTokensRequest): TextRequest {
  return { format: 'messages', body: { ...body, max_tokens: 1 } };
}

async function estimate(request: TextRequest): Promise<TokenCount> {
  return { inputTokens: await countInputTokens(request), source: 'estimate' };
}

/** The upstream's count; system turns folded into `system` for an upstream that refuses them. */
async function upstreamCount(
  request: TokenCountRequest,
  deployment: TextDeployment,
  signal: AbortSignal | undefined,
  metrics: StandardMetrics | undefined,
): Promise<TokenCount> {
  const body = bodyFor(request.body, deployment);
  const count = (sent: CountMessageTokensRequest) =>
    countOnce({ ...request, body: sent }, deployment, signal, metrics);
  try {
    return await count(body);
  } catch (err) {
    const again = refoldAfter(err, body, deployment);
    if (!again) throw err;
    return count(again);
  }
}

async function countOnce(
  request: TokenCountRequest,
  deployment: TextDeployment,
  signal: AbortSignal | undefined,
  metrics: StandardMetrics | undefined,
): Promise<TokenCount> {
  try {
    const response = await deployment.provider.send({
      operation: 'count_tokens',
      body: { ...request.body, model: deployment.upstreamModel },
      betas: request.betas,
      signal,
    });
    let raw: Buffer;
    try {
      raw = await response.body.collect();
    } catch (err) {
      throw classifyNetworkError(err, deployment.provider.name);
    }
    return { inputTokens: inputTokensOf(raw), source: 'upstream' };
  } catch (err) {
    if (err instanceof UpstreamError) countUpstreamError(metrics, deployment, err);
    throw err;
  }
}

/** `input_tokens` of the upstream's answer; anything else is the upstream's fault (502). */
function inputTokensOf(raw: Buffer): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    parsed = null;
  }
  const tokens = (parsed as { input_tokens?: unknown } | null)?.input_tokens;
  if (typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0) return tokens;
  throw new UpstreamError('status', 'Upstream sent a token count without input_tokens.', 502);
}
