/**
 * JSON (and any non-multipart) bodies over the limit → 413, decided while the body is read: a
 * Content-Length over the limit is refused before reading, a chunked body as soon as it crosses it.
 * Multipart uploads have their own, larger limit in the files route.
 */
import type { Stage } from '../exchange.js';
import { tooLargeError } from '../read-body.js';

/**
 * 413 for a JSON (or any non-multipart) body over the limit: a declared length is refused before
 * anything is read (Node's parser never delivers more than it, so that bounds the body); a chunked
 * body when the route reads it (`x.readBody()`), as soon as it crosses the limit. Reading it here,
 * before the key is checked, would make a refused client send its whole body first.
 *
 * @example const stages = [bodyLimitStage(config.maxJsonBytes), authStage(services.keys)];
 */
export function bodyLimitStage(maxBytes: number): Stage {
  return {
    name: 'body-limit',
    scope: 'api',
    enter(x) {
      const type = x.header('content-type');
      if (type?.toLowerCase().startsWith('multipart/form-data')) return undefined;
      x.maxBodyBytes = maxBytes;
      const length = x.header('content-length');
      if (length === undefined || x.header('transfer-encoding') !== undefined) return undefined;
      if (Number.parseInt(length, 10) > maxBytes) throw tooLargeError(maxBytes);
      return undefined;
    },
  };
}
