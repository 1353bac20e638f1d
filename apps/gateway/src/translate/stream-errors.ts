import { zErrorType } from '@modelgate/core/zod';
import { anthropicSse, openAiSse } from './sse.js';

/** The error types of our API: the spec's ErrorType enum (a vendor's other types become upstream_error). */
const API_ERROR_TYPES: ReadonlySet<string> = new Set(zErrorType.options);

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
