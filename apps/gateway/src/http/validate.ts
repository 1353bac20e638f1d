/**
 * JSON request bodies: read, checked for their Content-Type and for text no client means to send,
 * and parsed. Checking them against the spec's schemas is `errors/validate.ts`.
 */
import type { Context } from 'hono';
import { ApiError, badRequest } from '../errors/api-error.js';
import { validateBody } from '../errors/validate.js';
import type { AppEnv } from './env.js';
import { findUnsafeText, mayHoldUnsafeText, unsafeTextError } from './unsafe-text.js';

// Re-exported for the text edge; goes when it imports errors/validate.ts.
export { validateBody };

/** `application/json` or any `+json` type (charset and other parameters allowed). */
export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

export interface ReadJsonOptions {
  /** An empty body (and no Content-Type) is allowed and yields `undefined`. */
  optional?: boolean;
}

/**
 * Read and parse the JSON body. A body sent with another Content-Type → 415 `unsupported_media_type`;
 * malformed or empty JSON → 400 `invalid_json`; a string (or key) holding U+0000 or an unpaired
 * surrogate → 400 `invalid_characters` naming it (see unsafe-text.ts). The body is read as the
 * text routes read it (`Exchange.readBody()`): from the Node request, within the body-limit
 * stage's limit (413 beyond it).
 *
 * @example
 * const body = await readJsonBody(c);                      // required
 * const opts = await readJsonBody(c, { optional: true });  // undefined when no body was sent
 */
export async function readJsonBody(
  c: Context<AppEnv>,
  options: ReadJsonOptions = {},
): Promise<unknown> {
  const x = c.get('exchange');
  const text = x?.incoming ? (await x.readBody()).toString() : await c.req.text();
  return parseJsonBody(text, c.req.header('content-type'), options);
}

/**
 * A request body's text as JSON, with the checks and errors of {@link readJsonBody}.
 * @example const body = parseJsonBody('{"model":"gpt-4o-mini"}', 'application/json');
 */
export function parseJsonBody(
  text: string,
  contentType: string | undefined,
  options: ReadJsonOptions = {},
): unknown {
  if (text.trim() === '') {
    if (options.optional) return undefined;
    throw badRequest('The request body is empty; expected JSON.', null, 'invalid_json');
  }
  if (!isJsonContentType(contentType)) {
    throw new ApiError(
      415,
      'unsupported_media_type',
      `Send the body as JSON with "Content-Type: application/json" (got ${contentType ? `"${contentType}"` : 'none'}).`,
      { code: 'unsupported_media_type' },
    );
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.', null, 'invalid_json');
  }
  const unsafe = mayHoldUnsafeText(text) ? findUnsafeText(body) : null;
  if (unsafe) throw unsafeTextError(unsafe.problem, unsafe.path);
  return body;
}
