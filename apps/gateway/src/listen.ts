/** Start a Node HTTP listener for a fetch handler and learn its real address (port 0 → chosen port). */

import { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { answerClientError } from './http/client-error.js';
import { type NodeBindings, sendThroughNode } from './http/node-adapter.js';

export interface Listener {
  server: Server;
  port: number;
  /** Stop accepting; resolves when every connection has ended (or was cut at the deadline). */
  close(deadlineMs?: number): Promise<void>;
}

/**
 * How long a client may take to send a request, set here rather than left to Node's defaults
 * (60 s for the headers, 300 s for the whole request) so a client trickling bytes cannot hold a
 * connection, its socket and its parser for minutes (slow-loris). Past either, Node answers 408
 * and closes the connection. Responses (streams included) are not bounded by these.
 */
export interface RequestTimeouts {
  /** Time to receive the request line and headers (MODELGATE_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** Time to receive the whole request, body included (MODELGATE_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
}

/** Node's options for those timeouts: it checks them every `connectionsCheckingInterval`. */
function timeoutOptions({ headersTimeoutMs, requestTimeoutMs }: RequestTimeouts) {
  const headersTimeout = Math.min(headersTimeoutMs, requestTimeoutMs);
  return {
    headersTimeout,
    requestTimeout: requestTimeoutMs,
    // Node's 30 s default would let a 1 s timeout run for up to 31 s; a quarter of the headers
    // timeout (within 0.1–1 s) keeps the overshoot small for a few cheap timer callbacks.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

/**
 * @example
 * const api = await listen((req) => app.fetch(req), 0, '127.0.0.1', {
 *   headersTimeoutMs: 15_000,
 *   requestTimeoutMs: 120_000,
 * });
 */
export function listen(
  // `env` is @hono/node-server's `{ incoming, outgoing }`: pass it on to Hono (`c.env`) so
  // middleware can read the Node request without building a web Request.
  fetch: (req: Request, env: NodeBindings) => Response | Promise<Response>,
  port: number,
  host: string,
  timeouts: RequestTimeouts,
): Promise<Listener> {
  // Streamed answers are written to the Node response here, after every middleware has had its
  // say on status and headers.
  const handler = (req: Request, env: NodeBindings): Response | Promise<Response> => {
    const res = fetch(req, env);
    return res instanceof Promise
      ? res.then((r) => sendThroughNode(r, env))
      : sendThroughNode(res, env);
  };
  return new Promise((resolve, reject) => {
    const serverOptions = timeoutOptions(timeouts);
    const server = serve(
      { fetch: handler, port, hostname: host, serverOptions },
      (info: AddressInfo) => {
        // serve() makes an HTTP/1.1 server unless told to create an HTTP/2 one.
        if (!(server instanceof Server)) throw new Error('listen: expected an HTTP/1.1 server');
        resolve({
          server,
          port: info.port,
          close: (deadlineMs = 30_000) =>
            new Promise<void>((done) => {
              const s = server;
              if (!s.listening) return done();
              const timer = setTimeout(() => s.closeAllConnections(), deadlineMs);
              // Keep-alive sockets become idle as their last response ends; close them as they do,
              // or close() would wait for their keep-alive timeout.
              const sweep = setInterval(() => s.closeIdleConnections(), 50);
              timer.unref();
              sweep.unref();
              s.close(() => {
                clearTimeout(timer);
                clearInterval(sweep);
                done();
              });
              s.closeIdleConnections();
            }),
        });
      },
    );
    server.once('error', reject);
    server.on('clientError', answerClientError);
  });
}
