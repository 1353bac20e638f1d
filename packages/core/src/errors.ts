// Every failure a modelgate client can hit becomes one of these classes, so callers branch on
// `instanceof` or on `status` / `code` instead of parsing messages.
import { parseRetryAfterMs } from './retry-after.js';

/** Fields every {@link ModelgateError} carries. Absent values are `undefined` (or `null` from the server). */
export interface ModelgateErrorInit {
  status?: number | undefined;
  type?: string | undefined;
  code?: string | null | undefined;
  param?: string | null | undefined;
  requestId?: string | undefined;
  headers?: Headers | undefined;
  body?: unknown;
  cause?: unknown;
}

/** Status the gateway answers with for each error `type` (docs/design.md#errors), used when only a body is known. */
/** The status an in-stream error event of an unknown type stands for: the upstream failed (502). */
const IN_STREAM_FAILURE = 502;

const statusOfType: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  insufficient_quota: 402,
  permission_error: 403,
  not_found_error: 404,
  conflict: 409,
  request_too_large: 413,
  unsupported_media_type: 415,
  rate_limit_error: 429,
  api_error: 500,
  upstream_error: 502,
  overloaded_error: 503,
  upstream_timeout: 504,
};

/**
 * Base class of every error thrown by `@modelgate/core` and `@modelgate/stream`
 * (except a user abort, which rejects with the signal's own reason).
 *
 * @example
 * ```ts
 * try {
 *   await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
 * } catch (err) {
 *   if (err instanceof RateLimitError) console.log('retry in', err.retryAfterMs);
 *   else if (err instanceof ModelgateError && err.code === 'model_not_found') console.log(err.param);
 *   else throw err;
 * }
 * ```
 */
export class ModelgateError extends Error {
  /** HTTP status, or `undefined` when no response arrived (timeout, connection error). */
  readonly status: number | undefined;
  /** The error `type` of the body, e.g. `invalid_request_error`. */
  readonly type: string | undefined;
  /** A finer machine-readable reason, e.g. `invalid_api_key`, `model_not_found`. */
  readonly code: string | null | undefined;
  /** The request field at fault, when the server names one. */
  readonly param: string | null | undefined;
  /** The gateway's `x-request-id`: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  /** The parsed error body (or its text when it was not JSON). */
  readonly body: unknown;

  constructor(message: string, init: ModelgateErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.type = init.type;
    this.code = init.code;
    this.param = init.param;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
  }

  /**
   * Reads a non-2xx response's body and returns the matching subclass. Never throws: an unreadable
   * body still gives an error carrying the status.
   *
   * @example
   * ```ts
   * const res = await fetch(url);
   * if (!res.ok) throw await ModelgateError.from(res);
   * ```
   */
  static async from(response: Response): Promise<ModelgateError> {
    let text = '';
    try {
      text = await response.text();
    } catch {
      // A body that cannot be read still yields an error with the status and headers.
    }
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (a proxy's HTML page, say): keep the text.
    }
    return ModelgateError.fromBody(body, {
      status: response.status,
      headers: response.headers,
      statusText: response.statusText,
    });
  }

  /**
   * Builds the matching subclass from an already parsed error body: `{error: {message, type, code, param}}`
   * or the messages shape `{type: "error", error: {type, message}}`. Without a status (an `error`
   * event inside a stream) the subclass follows the error `type`; a type this client does not know
   * (a provider's own, such as OpenAI's `server_error`, relayed mid-answer) or none is the upstream
   * failing after the answer began: an {@link UpstreamError} with status 502, never a connection
   * failure (the connection delivered the event).
   */
  static fromBody(
    body: unknown,
    meta: { status?: number | undefined; headers?: Headers | undefined; statusText?: string } = {},
  ): ModelgateError {
    const detail = errorDetail(body);
    const status =
      meta.status ?? (detail.type ? statusOfType[detail.type] : undefined) ?? IN_STREAM_FAILURE;
    const message =
      detail.message ??
      (status ? `${status} ${meta.statusText || 'error'}`.trim() : 'modelgate request failed');
    const headers = meta.headers;
    const init: ModelgateErrorInit = {
      status,
      type: detail.type,
      code: detail.code,
      param: detail.param,
      requestId: headers?.get('x-request-id') ?? headers?.get('request-id') ?? undefined,
      headers,
      body,
    };
    const ErrorClass = classForStatus(status);
    if (ErrorClass === RateLimitError) {
      return new RateLimitError(message, init, headers ? parseRetryAfterMs(headers) : undefined);
    }
    return new ErrorClass(message, init);
  }
}

/** 401: the API key is missing, malformed, unknown or expired (`code` says which). */
export class AuthenticationError extends ModelgateError {}
/** 402: the key's balance cannot cover the request. Not retried. */
export class InsufficientQuotaError extends ModelgateError {}
/** 403: the key may not use this route or model. */
export class PermissionError extends ModelgateError {}
/** 404: unknown route, model, file or task (also a resource of another key). */
export class NotFoundError extends ModelgateError {}
/** 409: an `Idempotency-Key` was reused with a different body. */
export class ConflictError extends ModelgateError {}
/** 400, 413, 415, 422: the request is wrong; `param` names the field when the server knows it. */
export class ValidationError extends ModelgateError {}
/** 5xx: the gateway or its upstream provider failed. Retried automatically. */
export class UpstreamError extends ModelgateError {}
/** No response within `timeoutMs` (per attempt). `status` is `undefined`. */
export class TimeoutError extends ModelgateError {}
/** The connection failed (refused, reset, DNS). `status` is `undefined`; `cause` holds the fetch error. */
export class ConnectionError extends ModelgateError {}

/** 429: too many requests or tokens per minute. `retryAfterMs` is the server's hint, if any. */
export class RateLimitError extends ModelgateError {
  readonly retryAfterMs: number | undefined;
  constructor(message: string, init: ModelgateErrorInit = {}, retryAfterMs?: number) {
    super(message, init);
    this.retryAfterMs = retryAfterMs;
  }
}

// Names as string literals on each prototype: bundlers rename classes when they minify, and
// `err.name` must still read "RateLimitError" in a minified browser bundle.
const names: Array<[{ prototype: Error }, string]> = [
  [ModelgateError, 'ModelgateError'],
  [AuthenticationError, 'AuthenticationError'],
  [InsufficientQuotaError, 'InsufficientQuotaError'],
  [PermissionError, 'PermissionError'],
  [NotFoundError, 'NotFoundError'],
  [ConflictError, 'ConflictError'],
  [ValidationError, 'ValidationError'],
  [UpstreamError, 'UpstreamError'],
  [TimeoutError, 'TimeoutError'],
  [ConnectionError, 'ConnectionError'],
  [RateLimitError, 'RateLimitError'],
];
for (const [errorClass, name] of names) {
  Object.defineProperty(errorClass.prototype, 'name', {
    value: name,
    writable: true,
    configurable: true,
  });
}

type ErrorClass = new (message: string, init?: ModelgateErrorInit) => ModelgateError;

function classForStatus(status: number | undefined): ErrorClass {
  switch (status) {
    case undefined:
      return ModelgateError;
    case 400:
    case 413:
    case 415:
    case 422:
      return ValidationError;
    case 401:
      return AuthenticationError;
    case 402:
      return InsufficientQuotaError;
    case 403:
      return PermissionError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? UpstreamError : ModelgateError;
  }
}

interface ErrorDetail {
  message?: string | undefined;
  type?: string | undefined;
  code?: string | null | undefined;
  param?: string | null | undefined;
}

/** Pulls the fields out of either error body shape; tolerates anything else. */
function errorDetail(body: unknown): ErrorDetail {
  if (!isRecord(body)) return {};
  const inner = isRecord(body.error) ? body.error : body;
  return {
    message: stringOrUndefined(inner.message),
    type: stringOrUndefined(inner.type),
    code: nullableString(inner.code),
    param: nullableString(inner.param),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function nullableString(value: unknown): string | null | undefined {
  return value === null ? null : stringOrUndefined(value);
}

/**
 * The error as a {@link ModelgateError}: itself when it already is one, otherwise wrapped (message
 * kept, original in `cause`). For code that must hand every failure to a UI as one type, e.g. a
 * chat session's `error`.
 *
 * @example
 * ```ts
 * const error = asModelgateError(caught);
 * if (error.status === 402) showTopUp();
 * ```
 */
export function asModelgateError(error: unknown): ModelgateError {
  if (error instanceof ModelgateError) return error;
  return new ModelgateError(error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}
