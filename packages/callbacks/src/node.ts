/**
 * Node `http` and Express-style middleware for receiving modelgate callbacks.
 *
 * @example
 * import http from 'node:http';
 * import { callbackHandler } from '@modelgate/callbacks/node';
 * http.createServer(callbackHandler({ secret }, (event) => console.log(event.type))).listen(3000);
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CallbackVerificationError } from './errors.js';
import { refusalBody } from './fetch.js';
import { prepareKeys } from './secret.js';
import type { WebhookEvent } from './types.js';
import { type VerifyOptions, verifyWithKeys } from './verify.js';

/** Options of the Node middleware. */
export interface NodeHandlerOptions extends VerifyOptions {
  /** Largest body read from the stream, in bytes (413 above it). Default 1 MiB. */
  maxBodyBytes?: number;
}

/** Called with each verified event. Answer through `res` yourself, or let the handler answer 204. */
export type NodeEventHandler<
  Req extends IncomingMessage = IncomingMessage,
  Res extends ServerResponse = ServerResponse,
> = (event: WebhookEvent, req: Req, res: Res) => void | Promise<void>;

/** Express's `next`: called with an error when `onEvent` fails or the body was parsed too early. */
export type NextFunction = (error?: unknown) => void;

/** Thrown (or passed to `next`) when a body parser ran before the handler and the raw bytes are gone. */
export class RawBodyUnavailableError extends Error {
  override readonly name = 'RawBodyUnavailableError';
  readonly code = 'raw_body_unavailable';
  readonly status = 500;
}

/**
 * A request listener and Express-style middleware `(req, res, next?)` that reads the raw body,
 * verifies it, calls `onEvent` and answers 204 (unless `onEvent` answered). Refused callbacks get
 * 400/401 with `{"error": {"reason", "message"}}`. A raw body kept by an earlier middleware
 * (`req.rawBody`, or a Buffer/string `req.body` from `express.raw()`/`express.text()`) is used as is;
 * a JSON-parsed `req.body` is refused: the signature covers bytes, not objects.
 * Errors from `onEvent` go to `next(error)`, or become a 500 without `next`.
 *
 * @example
 * // Express: mount before express.json(), or use express.raw() on this route
 * app.post('/callbacks', callbackHandler({ secret }, async (event) => { await save(event); }));
 */
export function callbackHandler<
  Req extends IncomingMessage = IncomingMessage,
  Res extends ServerResponse = ServerResponse,
>(
  options: NodeHandlerOptions,
  onEvent: NodeEventHandler<Req, Res>,
): (req: Req, res: Res, next?: NextFunction) => Promise<void> {
  const keys = prepareKeys(options.secret);
  keys.catch(() => {});
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;

  return async (req, res, next) => {
    const fail = (error: unknown) => {
      if (next) return next(error);
      if (res.headersSent) return void res.end();
      sendJson(res, 500, { error: describeFailure(error) });
    };
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      return sendJson(res, 405, {
        error: { reason: 'method_not_allowed', message: 'callbacks are POSTed' },
      });
    }
    let body: Uint8Array;
    try {
      const raw = await rawBodyOf(req, maxBodyBytes);
      if (raw === 'too_large') {
        return sendJson(res, 413, {
          error: { reason: 'body_too_large', message: `the body is over ${maxBodyBytes} bytes` },
        });
      }
      body = raw;
    } catch (error) {
      return fail(error);
    }
    let event: WebhookEvent;
    try {
      event = await verifyWithKeys({ ...options, body, headers: req.headers }, await keys);
    } catch (error) {
      if (error instanceof CallbackVerificationError && error.reason !== 'malformed_secret') {
        return sendJson(res, error.status, refusalBody(error));
      }
      return fail(error);
    }
    try {
      await onEvent(event, req, res);
    } catch (error) {
      return fail(error);
    }
    if (!res.headersSent && !res.writableEnded) {
      res.statusCode = 204;
      res.end();
    }
  };
}

type MaybeParsed = IncomingMessage & { rawBody?: unknown; body?: unknown };

async function rawBodyOf(
  req: IncomingMessage,
  maxBytes: number,
): Promise<Uint8Array | 'too_large'> {
  const { rawBody, body } = req as MaybeParsed;
  const kept = asBytes(rawBody) ?? asBytes(body);
  if (kept) return kept;
  // A parser that skipped this content type leaves `{}` in req.body but the stream unread.
  if (body !== undefined && req.readableEnded) {
    throw new RawBodyUnavailableError(
      'callbackHandler needs the raw request body, but a body parser already consumed it: mount the ' +
        'handler before express.json(), use express.raw({ type: "application/json" }) on its route, or ' +
        'keep the bytes in req.rawBody',
    );
  }
  return readStream(req, maxBytes);
}

function asBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value; // Buffer included
  if (typeof value === 'string') return new TextEncoder().encode(value);
  return undefined;
}

function readStream(req: IncomingMessage, maxBytes: number): Promise<Uint8Array | 'too_large'> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const onData = (chunk: Uint8Array | string) => {
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) {
        // Stop keeping bytes but let the rest drain, so the connection can still carry the answer.
        cleanup();
        req.resume();
        resolve('too_large');
        return;
      }
      chunks.push(bytes);
    };
    const onEnd = () => {
      cleanup();
      resolve(concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

// Without `next`, the 500 body says what went wrong when it is ours to say (never an app error's text).
function describeFailure(error: unknown): { reason: string; message: string } {
  if (error instanceof RawBodyUnavailableError)
    return { reason: error.code, message: error.message };
  if (error instanceof CallbackVerificationError)
    return { reason: error.reason, message: error.message };
  return { reason: 'handler_error', message: 'the callback handler failed' };
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.setHeader('content-length', Buffer.byteLength(text));
  res.end(text);
}
