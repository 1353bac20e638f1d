/**
 * API errors as values: every failure a client can see is an ApiError with an HTTP status, a `type`
 * (docs/design.md#errors), a finer `code` and the offending `param`. Features throw them; the web
 * layer (`http/errors.ts`) renders them in the shape the path speaks.
 */

export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'insufficient_quota'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict'
  | 'request_too_large'
  | 'unsupported_media_type'
  | 'rate_limit_error'
  | 'api_error'
  | 'upstream_error'
  | 'overloaded_error'
  | 'upstream_timeout';

/** The statuses an ApiError answers with. */
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 409
  | 413
  | 415
  | 429
  | 500
  | 502
  | 503
  | 504;

export interface ApiErrorOptions {
  code?: string | null;
  param?: string | null;
  /** Extra response headers, e.g. Retry-After. */
  headers?: Record<string, string>;
  /** Documented fields beside code/param in the error object, e.g. `budget` on budget_exceeded. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/**
 * @example
 * throw new ApiError(404, 'not_found_error', 'No such task: vt_123', { code: 'task_not_found' });
 * throw badRequest('temperature must be between 0 and 2', 'temperature', 'out_of_range');
 */
export class ApiError extends Error {
  readonly code: string | null;
  readonly param: string | null;
  readonly headers: Record<string, string>;
  readonly details: Record<string, unknown>;

  constructor(
    readonly status: ErrorStatus,
    readonly type: ErrorType,
    message: string,
    options: ApiErrorOptions = {},
  ) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'ApiError';
    this.code = options.code ?? null;
    this.param = options.param ?? null;
    this.headers = options.headers ?? {};
    this.details = options.details ?? {};
  }
}

export const badRequest = (message: string, param?: string | null, code?: string | null) =>
  new ApiError(400, 'invalid_request_error', message, { param, code });
export const unauthorized = (message: string, code = 'invalid_api_key') =>
  new ApiError(401, 'authentication_error', message, { code });
export const insufficientQuota = (
  message = 'The key has not enough quota left for this request.',
) => new ApiError(402, 'insufficient_quota', message, { code: 'insufficient_quota' });
export const forbidden = (
  message: string,
  code = 'permission_denied',
  param: string | null = null,
) => new ApiError(403, 'permission_error', message, { code, param });
export const notFound = (
  message: string,
  code: string | null = null,
  param: string | null = null,
) => new ApiError(404, 'not_found_error', message, { code, param });
/** A path the API has, with a method it does not serve there; `Allow` lists the ones it does. */
export const methodNotAllowed = (method: string, path: string, allowed: string[]) =>
  new ApiError(
    405,
    'invalid_request_error',
    `${path} does not take ${method}; it takes ${allowed.join(', ')}.`,
    { code: 'method_not_allowed', headers: { allow: allowed.join(', ') } },
  );
export const conflict = (
  message: string,
  code: string | null = null,
  param: string | null = null,
) => new ApiError(409, 'conflict', message, { code, param });
export const tooLarge = (message: string, code: string | null = null) =>
  new ApiError(413, 'request_too_large', message, { code });
export const unsupportedMediaType = (message: string, code: string | null = null) =>
  new ApiError(415, 'unsupported_media_type', message, { code });
export const rateLimited = (message: string, retryAfterSeconds: number, code: string) =>
  new ApiError(429, 'rate_limit_error', message, {
    code,
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  });
export const internalError = (message = 'Internal error.') =>
  new ApiError(500, 'api_error', message, { code: 'internal_error' });
export const upstreamError = (message: string, code: string | null = null) =>
  new ApiError(502, 'upstream_error', message, { code });
export const overloaded = (message: string, code: string | null = null) =>
  new ApiError(503, 'overloaded_error', message, { code });
export const upstreamTimeout = (message: string, code: string | null = null) =>
  new ApiError(504, 'upstream_timeout', message, { code });

/**
 * The database (or a restarting server behind it) is unreachable for a moment: a client should retry
 * shortly, so it gets 503 with Retry-After, not a 500 that reads as a bug.
 */
export const temporarilyUnavailable = () =>
  new ApiError(
    503,
    'overloaded_error',
    'The gateway cannot reach its database or storage; retry shortly.',
    {
      code: 'temporarily_unavailable',
      headers: { 'retry-after': '1' },
    },
  );
