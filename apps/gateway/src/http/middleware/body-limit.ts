/**
 * JSON (and any non-multipart) bodies over the limit → 413, decided while the body is read: a
 * Content-Length over the limit is refused before reading, a chunked body as soon as it crosses it.
 * Multipart uploads have their own, larger limit in the files route.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from '../env.js';
import { tooLarge } from '../errors.js';

export function jsonBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge(`The request body exceeds ${maxBytes} bytes.`, 'body_too_large');
    },
  });
  return async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (type.toLowerCase().startsWith('multipart/form-data')) return next();
    return limit(c, next);
  };
}
