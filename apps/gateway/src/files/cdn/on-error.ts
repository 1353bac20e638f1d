/**
 * Errors on the CDN listener, in plain text like its other answers. A database that is unreachable
 * for a moment (a restart, a failover) answers 503 with Retry-After, so clients and caches retry
 * rather than record a failure; anything else is a 500, logged with its stack.
 */
import type { ErrorHandler } from 'hono';
import { isTransientDbError } from '../../errors/transient-db.js';
import type { Logger } from '../../observability/logger.js';

/**
 * @example
 * const cdn = new Hono();
 * cdn.onError(cdnErrorHandler(log));
 */
export function cdnErrorHandler(log: Logger): ErrorHandler {
  return (err, c) => {
    if (isTransientDbError(err)) {
      return c.text('The database is unreachable; retry shortly.', 503, { 'retry-after': '1' });
    }
    log.error('cdn request failed', { path: c.req.path, err });
    return c.text('Internal error.', 500);
  };
}
