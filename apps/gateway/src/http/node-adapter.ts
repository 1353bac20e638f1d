/**
 * What knows the gateway runs on Node's HTTP server, in one place: the Node request behind Hono's
 * `c.env.incoming` (@hono/node-server), a request's declared length, and the StreamSink over
 * Node's response that streamed answers are written into. Other modules call these functions.
 *
 * Why streams are written into Node's response and not through a web `Response(stream)`: that
 * costs a web stream, its reader and a promise per chunk. What it saves: about half the heap per
 * held stream (≈ 46 → 25 KiB), which is what 1,000 held streams are made of.
 */
import type { IncomingMessage } from 'node:http';
import type { Writable } from 'node:stream';
import type { Http2Bindings, HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import type { StreamSink } from '../translate/stream-sink.js';

/** What the adapter passes to Hono as `c.env`. */
export type NodeBindings = HttpBindings | Http2Bindings;

/** The Node request, or undefined outside a Node listener (`app.request()`). */
export function nodeIncoming(c: Context): IncomingMessage | undefined {
  const incoming: unknown = (c.env as Partial<HttpBindings> | undefined)?.incoming;
  return isNodeRequest(incoming) ? incoming : undefined;
}

function isNodeRequest(value: unknown): value is IncomingMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    'headers' in value &&
    'on' in value &&
    typeof value.on === 'function'
  );
}

/**
 * The Content-Length of a request that has one (Node's parser then delivers exactly that many
 * bytes, so it bounds the body); null for a chunked body.
 */
export function declaredLength(incoming: IncomingMessage): number | null {
  const length = incoming.headers['content-length'];
  if (length === undefined || incoming.headers['transfer-encoding'] !== undefined) return null;
  return Number.parseInt(length, 10);
}

/**
 * The one StreamSink: a Node writable (the response under the listener, a PassThrough in tests).
 * Text is written as utf-8 strings: no encoder copy.
 */
export class NodeStreamSink implements StreamSink {
  constructor(private readonly out: Writable) {}

  write(text: string): boolean {
    return text === '' || this.out.write(text);
  }

  onDrain(listener: () => void): void {
    this.out.on('drain', listener);
  }

  onClientGone(listener: () => void): void {
    const gone = () => {
      if (!this.out.writableFinished) listener();
    };
    // Already gone (the client left before the head was written): 'close' will not come again.
    if (this.out.destroyed) gone();
    else this.out.once('close', gone);
  }

  end(): void {
    this.out.end();
  }

  destroy(): void {
    this.out.destroy();
  }
}
