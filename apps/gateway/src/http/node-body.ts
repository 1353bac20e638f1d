/**
 * Streamed answers written straight to Node's response instead of through a web ReadableStream.
 *
 * Why: a held stream through `new Response(readableStream)` costs a web stream, its reader and a
 * promise per chunk in @hono/node-server's writer — per-stream memory and per-chunk CPU that a
 * gateway holding thousands of streams pays for nothing (BENCHMARKS.md finding 4). A route marks
 * its Response with a {@link NodeBody}; middleware still sees and edits that Response's status and
 * headers as usual; the listener then writes the head and lets the body write itself into the
 * Node response. Outside a Node listener (`app.request()` in embedding code) the same body is
 * turned into a web stream, so the Response stays a valid one.
 */
import type { ServerResponse } from 'node:http';
import { PassThrough, Readable, type Writable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';

/** A body that writes itself into a Node writable, ending it when done. */
export interface NodeBody {
  /** Called once with the destination; must end it (or see it closed by the client). */
  pipe(sink: Writable): void;
}

const NODE_BODY = Symbol('modelgate.nodeBody');

type WithNodeBody = Response & { [NODE_BODY]?: NodeBody };

/**
 * A Response whose body is written directly to the Node response by the listener.
 *
 * @example
 * return nodeBodyResponse(200, { 'content-type': 'text/event-stream' }, { pipe: (sink) => sink.end('data: x\n\n') });
 */
export function nodeBodyResponse(
  status: number,
  headers: Record<string, string>,
  body: NodeBody,
): Response {
  const res = new Response(null, { status, headers }) as WithNodeBody;
  res[NODE_BODY] = body;
  return res;
}

/** The NodeBody a Response carries, if any. */
export function nodeBodyOf(res: Response): NodeBody | undefined {
  return (res as WithNodeBody)[NODE_BODY];
}

/**
 * Writes a NodeBody response to Node's `outgoing`: the head from the (middleware-edited) Response,
 * then the body. The caller tells @hono/node-server the response was sent.
 */
export function writeNodeBody(res: Response, body: NodeBody, outgoing: ServerResponse): void {
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(res.status, headers);
  // Headers go out now: a stream's first event may take a while and clients wait on the status.
  outgoing.flushHeaders();
  body.pipe(outgoing);
}

/**
 * Outermost middleware: outside a Node listener, replaces a NodeBody Response by an ordinary one
 * whose web stream the NodeBody fills.
 */
export function webBodyFallback(): MiddlewareHandler<{ Bindings: { outgoing?: unknown } }> {
  return async (c, next) => {
    await next();
    const body = nodeBodyOf(c.res);
    if (!body || c.env?.outgoing) return;
    const sink = new PassThrough();
    body.pipe(sink);
    const headers = new Headers(c.res.headers);
    const status = c.res.status;
    c.res = undefined;
    c.res = new Response(Readable.toWeb(sink) as ReadableStream<Uint8Array>, { status, headers });
  };
}
