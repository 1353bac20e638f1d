/**
 * An error answered before the request body has all arrived (a multipart upload refused at its
 * first part, a body over the limit) ends the connection: the adapter stops reading the request
 * there, so the socket cannot carry another request. Saying `Connection: close` lets a keep-alive
 * client know, instead of sending its next request into a socket that is being closed ("socket
 * hang up").
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.js';
import { nodeIncoming } from '../node-request.js';

/**
 * @example
 * app.use('*', closeIfBodyUnread());
 */
export function closeIfBodyUnread(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status < 400) return;
    const incoming = nodeIncoming(c);
    if (!incoming || incoming.complete || incoming.rawBody !== undefined) return;
    const hasBody =
      incoming.headers['transfer-encoding'] !== undefined ||
      Number(incoming.headers['content-length'] ?? 0) > 0;
    if (hasBody) c.res.headers.set('connection', 'close');
  };
}
