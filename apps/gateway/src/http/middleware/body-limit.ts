/**
 * JSON (and any non-multipart) bodies over the limit → 413, decided while the body is read: a
 * Content-Length over the limit is refused before reading, a chunked body as soon as it crosses it.
 * Multipart uploads have their own, larger limit in the files route.
 *
 * On @hono/node-server the check reads the Node request (`c.env.incoming`) and never touches
 * `c.req.raw.body`: that getter makes the adapter build a full web `Request` around a web stream
 * of the socket, which every later body read then goes through (≈ a tenth of the CPU per text
 * request, PERFORMANCE.md). Left alone, `c.req.text()` reads the Node stream directly.
 */
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { tooLarge } from '../../errors/api-error.js';
import type { AppEnv } from '../env.js';
import { arrivedBody, declaredLength, nodeIncoming } from '../node-adapter.js';

const tooLargeError = (maxBytes: number) =>
  tooLarge(`The request body exceeds ${maxBytes} bytes.`, 'body_too_large');

/**
 * 413 for a request whose declared length is over the limit, before anything is read.
 * @example refuseDeclaredOverLimit(req, 1_048_576);
 */
export function refuseDeclaredOverLimit(incoming: IncomingMessage, maxBytes: number): void {
  const declared = declaredLength(incoming);
  if (declared !== null && declared > maxBytes) throw tooLargeError(maxBytes);
}

/**
 * The whole body of a Node request, or 413 once it crosses `maxBytes` (a declared length is
 * refused before reading). A body that has already arrived is taken without waiting.
 * @example const body = await readBodyWithin(req, 1_048_576);
 */
export async function readBodyWithin(incoming: IncomingMessage, maxBytes: number): Promise<Buffer> {
  refuseDeclaredOverLimit(incoming, maxBytes);
  const arrived = arrivedBody(incoming);
  if (arrived) return arrived;
  const body = await readWithin(incoming, maxBytes);
  if (body === 'too_large') throw tooLargeError(maxBytes);
  return body;
}

/** Reads a body of unknown length, giving up (and leaving the rest unread) once it crosses maxBytes. */
function readWithin(incoming: IncomingMessage, maxBytes: number): Promise<Buffer | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        done();
        incoming.pause(); // the adapter drains or closes what is left once the 413 is sent
        resolve('too_large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onClose = () => {
      if (incoming.readableEnded) return onEnd();
      done();
      reject(new Error('Client connection prematurely closed.'));
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

export function jsonBodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  // Other runtimes (and app.request() in tests): Hono's middleware, which works on the web Request.
  const webLimit = bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLargeError(maxBytes);
    },
  });
  return async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (type.toLowerCase().startsWith('multipart/form-data')) return next();
    const incoming = nodeIncoming(c);
    if (!incoming) return webLimit(c, next);
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const declared = declaredLength(incoming);
    if (declared !== null) {
      if (declared > maxBytes) throw tooLargeError(maxBytes);
      return next();
    }
    if (incoming.rawBody instanceof Buffer || incoming.readableEnded) return next();
    // Chunked: read it now, within the limit (as Hono's middleware does), and hand the bytes to
    // the adapter so the route's read is served from memory.
    const body = await readWithin(incoming, maxBytes);
    if (body === 'too_large') throw tooLargeError(maxBytes);
    incoming.rawBody = body;
    return next();
  };
}
