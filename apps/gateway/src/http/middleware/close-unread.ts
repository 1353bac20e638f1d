/**
 * An error answered before the request body has all arrived (a multipart upload refused at its
 * first part, a key over its rpm, a body over the limit). A small body of known length is read to
 * its end and discarded, so the client finishes sending, reads the answer and keeps its
 * connection: closing on it instead makes a client still writing its body fail with EPIPE and
 * never see the status. A large or unsized body is not worth reading: the connection ends, and
 * `Connection: close` lets a keep-alive client know, instead of sending its next request into a
 * socket that is being closed ("socket hang up").
 */
import type { IncomingMessage } from 'node:http';
import type { Stage } from '../exchange.js';

/** Unread bodies up to this size are drained rather than cut. */
const DRAIN_LIMIT_BYTES = 1024 * 1024;

/**
 * For a request refused before its body was read: drains a small body of known length (and
 * answers true) or answers false, meaning the answer must close the connection.
 * @example if (!drainUnreadBody(req)) headers.connection = 'close';
 */
export function drainUnreadBody(incoming: IncomingMessage): boolean {
  if (incoming.complete) return true;
  const chunked = incoming.headers['transfer-encoding'] !== undefined;
  const length = Number(incoming.headers['content-length'] ?? 0);
  if (chunked || length > DRAIN_LIMIT_BYTES) return false;
  incoming.resume();
  return true;
}

/**
 * `Connection: close` on an error answered before a large or unsized body was read.
 * @example const stages = [requestIdStage(), observeStage(log, metrics), closeIfBodyUnreadStage()];
 */
export function closeIfBodyUnreadStage(): Stage {
  return {
    name: 'close-if-body-unread',
    scope: 'every',
    leave(x) {
      if (x.status < 400 || x.bodyRead || !x.incoming) return;
      if (!drainUnreadBody(x.incoming)) x.headers.connection = 'close';
    },
  };
}
