import { anthropicSse, openAiSse } from './sse.js';

/** The error types of our API (spec ErrorType); a vendor's other types become upstream_error. */
const API_ERROR_TYPES = new Set([
  'invalid_request_error',
  'authentication_error',
  'insufficient_quota',
  'permission_error',
  'not_found_error',
  'conflict',
  'request_too_large',
  'unsupported_media_type',
  'rate_limit_error',
  'api_error',
  'upstream_error',
  'overloaded_error',
  'upstream_timeout',
]);

/** Maps an upstream's error type onto ours (e.g. OpenAI `server_error` → `upstream_error`). */
export function apiErrorType(type: string | undefined): string {
  return type && API_ERROR_TYPES.has(type) ? type : 'upstream_error';
}

/** OpenAI-style in-stream error (the SDK throws on a `data:` JSON with an `error` key). */
export function openAiStreamError(type: string, message: string): string {
  return openAiSse({ error: { message, type: apiErrorType(type), code: null, param: null } });
}

/** Anthropic-style in-stream error event. */
export function anthropicStreamError(type: string, message: string): string {
  return anthropicSse({ type: 'error', error: { type: apiErrorType(type), message } });
}
