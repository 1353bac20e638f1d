// The hooks expose failures as ModelgateError values, so UIs branch on `status` and `code`.
import { ModelgateError } from '@modelgate/core';

/** Wraps anything that is not already a ModelgateError (a bug, a foreign fetch error). */
export function toModelgateError(error: unknown): ModelgateError {
  if (error instanceof ModelgateError) return error;
  return new ModelgateError(error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

/** Worth polling again: rate limits, server errors, and failures without a response. */
export function isTransient(error: ModelgateError): boolean {
  const { status } = error;
  return status === undefined || status === 408 || status === 429 || status >= 500;
}
