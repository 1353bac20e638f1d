/**
 * The Node request under @hono/node-server (`c.env.incoming`), for the few places that read the
 * body from it directly instead of through the adapter's web `Request`.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * `rawBody` is the adapter's own hook: a Buffer there is used as the body by every read
 * (`text()`, `json()`, `body`) instead of the socket.
 */
export type NodeIncoming = IncomingMessage & { rawBody?: unknown };

/** The Node request, or undefined outside a Node listener (`app.request()`). */
export function nodeIncoming(c: Context): NodeIncoming | undefined {
  const incoming = (c.env as { incoming?: NodeIncoming } | undefined)?.incoming;
  return incoming && typeof incoming.on === 'function' && incoming.headers ? incoming : undefined;
}

/**
 * A body that has fully arrived is taken from the stream's buffer now, synchronously, and handed
 * to the adapter as `rawBody`: the read that follows then costs no stream events and no extra
 * turns of the event loop (≈ 10 % of the gateway's CPU per plain chat, PERFORMANCE.md round 6).
 *
 * When: once the route reads the body, not in middleware. Node emits 'request' from inside its
 * parser as soon as the head is parsed, so the middleware that runs synchronously in that event
 * always sees an empty buffer; by the first `await` (authentication) the parser has finished the
 * packet, and a small JSON body, which comes in the same packet as the head, is all there. Node's
 * parser never buffers more than Content-Length bytes, so that many buffered bytes are the whole
 * body (`complete` is only set a moment later).
 */
export function takeArrivedBody(c: Context): void {
  const incoming = nodeIncoming(c);
  if (!incoming || incoming.rawBody !== undefined) return;
  if (incoming.readableDidRead || incoming.readableFlowing) return;
  const length = incoming.headers['content-length'];
  if (length === undefined || incoming.headers['transfer-encoding'] !== undefined) return;
  const size = Number.parseInt(length, 10);
  if (!(size > 0) || incoming.readableLength !== size) return;
  const body: Buffer | null = incoming.read();
  if (!body) return;
  incoming.rawBody = body;
  // Flowing from here, so the end of the message still emits 'end' and 'close' as after a read.
  incoming.resume();
}
