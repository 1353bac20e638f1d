/**
 * An error as the API's formats write it, with no web framework: the body shape each path speaks,
 * and `asApiError`, which turns anything a feature throws into the ApiError a client is shown.
 * The web layer (`http/errors.ts`) adds only what a framework throws (Hono's HTTPException).
 */
import { ApiError, internalError, temporarilyUnavailable } from './api-error.js';
import { isTransientDbError } from './transient-db.js';

/** `/v1/messages` speaks the vendor's error shape; everything else the OpenAI shape. */
export function usesMessagesErrorShape(path: string): boolean {
  return path === '/v1/messages' || path.startsWith('/v1/messages/');
}

/**
 * The JSON body for an error on `path`.
 * @example JSON.stringify(errorBody(notFound('No such file.'), '/v1/files/f1'))
 */
export function errorBody(err: ApiError, path: string): unknown {
  if (usesMessagesErrorShape(path)) {
    return { type: 'error', error: { type: err.type, message: err.message } };
  }
  return {
    error: {
      message: err.message,
      type: err.type,
      code: err.code,
      param: err.param,
      ...err.details,
    },
  };
}

/**
 * Anything thrown, as the ApiError a client sees: an ApiError as it is; a database that is
 * unreachable or restarting, 503 `temporarily_unavailable`; any other fault, 500 (the message
 * names the request id so an operator can find the log line).
 * @example const failure = asApiError(err, requestId);
 */
export function asApiError(err: unknown, requestId?: string): ApiError {
  if (err instanceof ApiError) return err;
  if (isTransientDbError(err)) return temporarilyUnavailable();
  return internalError(
    `Internal error${requestId ? ` (request id ${requestId})` : ''}. It has been logged.`,
  );
}
