// wire: docs/providers.md#2-anthropic — Anthropic Messages (and the model list).
// Served at {sim}/anthropic (+ the real /v1/... paths). Any model works except ids starting
// `unknown-` (404 not_found_error).
// This module is the provider (its error shapes) and its routes; each endpoint has its own module.
import type { Ctx, ErrorSpec, Provider } from '../context.js';
import type { RouteDef } from '../router.js';
import { countMessageTokens } from './anthropic-count-tokens.js';
import { messages } from './anthropic-messages.js';
import { getModel, listModels } from './anthropic-models.js';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

export const anthropicProvider: Provider = {
  id: 'anthropic',
  prefix: '/anthropic',
  requestIdHeader: 'request-id',
  streamErrorFrame(message: string) {
    const data = { type: 'error', error: { type: 'overloaded_error', message } };
    return `event: error\ndata: ${JSON.stringify(data)}\n\n`;
  },
  renderError(error: ErrorSpec, ctx: Ctx) {
    return {
      status: error.status,
      body: {
        type: 'error',
        error: {
          type: error.code ?? TYPE_BY_STATUS[error.status] ?? 'api_error',
          message: error.message,
        },
        request_id: ctx.requestId,
      },
    };
  },
};

export const anthropicRoutes: RouteDef[] = [
  { method: 'POST', path: '/v1/messages', handler: messages },
  { method: 'POST', path: '/v1/messages/count_tokens', handler: countMessageTokens },
  { method: 'GET', path: '/v1/models', handler: listModels },
  {
    method: 'GET',
    path: '/v1/models/{id}',
    name: 'GET /anthropic/v1/models/{id}',
    handler: getModel,
  },
];
