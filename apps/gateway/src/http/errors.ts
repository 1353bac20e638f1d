/**
 * Errors as HTTP answers: `toApiError` adds what the web framework throws to `asApiError`
 * (`errors/body.ts`), and `renderError` writes the answer in the body shape the path speaks.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type ApiError, badRequest, tooLarge, unauthorized } from '../errors/api-error.js';
import { asApiError, errorBody } from '../errors/body.js';
import type { Logger } from '../observability/logger.js';

/**
 * Map anything thrown to an ApiError (unknown errors become 500 api_error; a database that is
 * unreachable or restarting, 503 temporarily_unavailable).
 */
export function toApiError(err: unknown, requestId?: string): ApiError {
  if (err instanceof SyntaxError && /JSON/i.test(err.message)) {
    return badRequest('The request body is not valid JSON.', null, 'invalid_json');
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    if (status === 413) return tooLarge('The request body is too large.');
    if (status === 400) return badRequest(err.message || 'Bad request.');
    if (status === 401) return unauthorized(err.message || 'Unauthorized.');
  }
  return asApiError(err, requestId);
}

/**
 * What a request that threw answers: {@link toApiError}, with a log line for what an operator
 * should see (a 5xx, a database that is unreachable, a bug).
 * @example return renderError(c, answerableError(err, log, { requestId, path }));
 */
export function answerableError(
  err: unknown,
  log: Logger,
  request: { requestId: string | undefined; path: string },
): ApiError {
  const { requestId, path } = request;
  const apiErr = toApiError(err, requestId);
  if (apiErr.status >= 500 && apiErr === err) {
    log.warn('request failed', {
      request_id: requestId,
      status: apiErr.status,
      code: apiErr.code,
      error: apiErr.message,
    });
  } else if (apiErr.code === 'temporarily_unavailable') {
    // Expected while the database restarts: one line per request, no stack.
    log.warn('database unreachable', { request_id: requestId, path });
  } else if (apiErr !== err && apiErr.status >= 500) {
    log.error('unhandled error', { request_id: requestId, path, err });
  }
  return apiErr;
}

/** Render an ApiError as the response for the current request. */
export function renderError(c: Context, err: ApiError): Response {
  for (const [k, v] of Object.entries(err.headers)) c.header(k, v);
  return c.json(errorBody(err, c.req.path) as object, err.status);
}
