// Errors as values the UI and the CLI print the same way: status + code + message, never a stack.
import { ModelgateError } from '@modelgate/core';

/** What the user sees of a failure. */
export interface ErrorInfo {
  /** HTTP status; `undefined` when no response arrived (connection refused, timeout). */
  status: number | undefined;
  /** The finest reason known: the body's `code`, else its `type`, else the error class. */
  code: string;
  message: string;
}

/**
 * Reduces anything thrown to {@link ErrorInfo}.
 *
 * @example
 * ```ts
 * describeError(new AuthenticationError('Invalid API key.', { status: 401, code: 'invalid_api_key' }));
 * // → { status: 401, code: 'invalid_api_key', message: 'Invalid API key.' }
 * ```
 */
export function describeError(error: unknown): ErrorInfo {
  if (error instanceof ModelgateError) {
    return {
      status: error.status,
      code: error.code ?? error.type ?? snakeCase(error.name),
      message: error.message,
    };
  }
  if (error instanceof Error) {
    return { status: undefined, code: snakeCase(error.name), message: error.message };
  }
  return { status: undefined, code: 'error', message: String(error) };
}

/** One line: `401 invalid_api_key: Invalid API key.` (no status when none arrived). */
export function formatError(info: ErrorInfo): string {
  return `${info.status === undefined ? '' : `${info.status} `}${info.code}: ${info.message}`;
}

/** True for the rejection an `abort()` causes, which is a user action, not an error to show. */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'AbortError'
  );
}

function snakeCase(name: string): string {
  return name
    .replace(/Error$/, '_error')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/^_/, '');
}
