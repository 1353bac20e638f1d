import type { ErrorSpec } from './context.js';

/**
 * Thrown by handlers to answer with an error; the dispatcher renders it in the route's provider
 * shape. Carries `status`, `code` and `param` so nothing has to parse a message.
 */
export class HttpError extends Error {
  readonly spec: ErrorSpec;
  constructor(spec: ErrorSpec) {
    super(spec.message);
    this.spec = spec;
  }
  get status(): number {
    return this.spec.status;
  }
}

/** Shorthand for a 400 naming the offending field. */
export function badRequest(message: string, param?: string, code?: string): HttpError {
  return new HttpError({ status: 400, message, param: param ?? null, code });
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads the bearer token of `Authorization` (any scheme word given in `scheme`). */
export function authToken(header: string | undefined, scheme = 'Bearer'): string | null {
  if (!header) return null;
  const space = header.indexOf(' ');
  if (space === -1) return null;
  if (header.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return null;
  const token = header.slice(space + 1).trim();
  return token.length > 0 ? token : null;
}
