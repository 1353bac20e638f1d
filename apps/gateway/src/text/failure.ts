/**
 * What the client is told when no upstream produced an answer: the router's verdict after
 * failover, an upstream refusal that failover cannot fix, or the client's own hang-up.
 */
import { ApiError, badRequest, notFound, tooLarge, upstreamError } from '../errors/api-error.js';
import { UpstreamError } from '../providers/text/types.js';
import { RoutingError } from '../routing/router.js';

const ROUTING_CODES = {
  429: 'upstream_rate_limited',
  502: 'upstream_error',
  503: 'no_deployment_available',
  504: 'upstream_timeout',
} as const;

/**
 * @param clientNamedModel the upstream model is the name the client sent (demo and pass-through
 *   modes), not one the operator configured: an upstream "no such model" is then the client's 404.
 * @example
 * throw clientFailure(err, catalog.mode !== 'config');
 */
export function clientFailure(err: unknown, clientNamedModel: boolean): unknown {
  if (err instanceof RoutingError) return routingFailure(err);
  if (err instanceof UpstreamError && err.kind === 'aborted') {
    return new ApiError(400, 'invalid_request_error', 'The client closed the request.', {
      code: 'client_closed_request',
    });
  }
  if (err instanceof UpstreamError) return upstreamRefusal(err, clientNamedModel);
  return err;
}

function routingFailure(error: RoutingError): ApiError {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== null) headers['retry-after'] = String(error.retryAfterSeconds);
  return new ApiError(error.status, error.type, error.message, {
    code: ROUTING_CODES[error.status],
    headers,
  });
}

function upstreamRefusal(error: UpstreamError, clientNamedModel: boolean): ApiError {
  if (error.status === 400 || error.status === 422) {
    return badRequest(
      `Upstream rejected the request: ${error.message}`,
      null,
      'upstream_invalid_request',
    );
  }
  // A 404 with the provider's JSON error body is its "no such model" (OpenAI model_not_found,
  // Anthropic not_found_error). For a configured deployment, or without an error body (a wrong
  // base URL), it stays a 502.
  if (error.status === 404 && error.upstreamType !== null && clientNamedModel) {
    return notFound(`Upstream: ${error.message}`, 'model_not_found', 'model');
  }
  if (error.status === 413) return tooLarge(`Upstream rejected the request: ${error.message}`);
  if (error.status === 401 || error.status === 403) {
    // The gateway's provider credentials were refused: the client can do nothing about it, and
    // the upstream's message may quote part of the key.
    return upstreamError(
      `Upstream refused the gateway's credentials (${error.status}); check the provider's API key.`,
      'upstream_error',
    );
  }
  return upstreamError(
    `Upstream error (${error.status ?? error.kind}): ${error.message}`,
    'upstream_error',
  );
}
