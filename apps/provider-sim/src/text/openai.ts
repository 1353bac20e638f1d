// wire: docs/providers.md#1-openai — OpenAI Chat Completions, legacy Completions, Models, and
// (docs/providers.md#12-openai-images) image generations. Served at {sim}/openai/v1. Any model id
// works except ids starting `unknown-` (404 model_not_found).
// This module is the provider (its error shapes) and its routes; each endpoint has its own module.
import type { ErrorSpec, Provider } from '../context.js';
import { imageGenerations, imageMediaRoute } from '../images/openai-images.js';
import type { RouteDef } from '../router.js';
import { chatCompletions } from './openai-chat.js';
import { completions } from './openai-completions.js';
import { getModel, listModels } from './openai-models.js';
import { responses } from './openai-responses.js';

const TYPE_BY_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
};
const CODE_BY_STATUS: Record<number, string> = {
  401: 'invalid_api_key',
  404: 'model_not_found',
  429: 'rate_limit_exceeded',
};

export const openaiProvider: Provider = {
  id: 'openai',
  prefix: '/openai/v1',
  requestIdHeader: 'x-request-id',
  streamErrorFrame(message: string) {
    return `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`;
  },
  renderError(error: ErrorSpec) {
    const type =
      TYPE_BY_STATUS[error.status] ??
      (error.status >= 500 ? 'server_error' : 'invalid_request_error');
    return {
      status: error.status,
      body: {
        error: {
          message: error.message,
          type,
          param: error.param ?? null,
          code: error.code ?? CODE_BY_STATUS[error.status] ?? null,
        },
      },
    };
  },
};

export const openaiRoutes: RouteDef[] = [
  { method: 'POST', path: '/chat/completions', handler: chatCompletions },
  { method: 'POST', path: '/completions', handler: completions },
  { method: 'POST', path: '/responses', handler: responses },
  { method: 'GET', path: '/models', handler: listModels },
  { method: 'GET', path: '/models/*', name: 'GET /openai/v1/models/{id}', handler: getModel },
  { method: 'POST', path: '/images/generations', handler: imageGenerations },
  imageMediaRoute,
];
