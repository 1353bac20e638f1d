/** Start a Node HTTP listener for a fetch handler and learn its real address (port 0 → chosen port). */

import { createServer, type Server } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { answerClientError } from './http/client-error.js';
import type { NodeBindings } from './http/node-adapter.js';
import type { FrontHandler } from './http/text-edge/index.js';
import { withoutTrailingSlash } from './http/trailing-slash.js';

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
 * @param fetch the Hono app (through @hono/node-server). `env` is the adapter's
 *   `{ incoming, outgoing }`: passed on to Hono (`c.env`) so middleware can read the Node request
 *   without building a web Request.
 * @param front tried first for each request (the text edge); what it declines goes to `fetch`.
 * @example
 * const api = await listen((req, env) => app.fetch(req, env), 0, '127.0.0.1', {
 *   headersTimeoutMs: 15_000,
 *   requestTimeoutMs: 120_000,
 * }, createTextEdge(services));
 */
export function listen(
  fetch: (req: Request, env: NodeBindings) => Response | Promise<Response>,
  port: number,
  host: string,
  timeouts: RequestTimeouts,
  front?: FrontHandler,
): Promise<Listener> {
  const viaFetch = getRequestListener(fetch, { hostname: host });
  const server = createServer(timeoutOptions(timeouts), (req, res) => {
    if (req.url) req.url = withoutTrailingSlash(req.url);
    if (!front?.(req, res)) void viaFetch(req, res);
  });
  server.on('clientError', answerClientError);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      // A TCP listener's address is an AddressInfo (a string is a pipe's, null before listening).
      if (address === null || typeof address === 'string') throw new Error('listen: not on TCP');
      resolve({
        server,
        port: address.port,
        close: (deadlineMs) => closeServer(server, deadlineMs),
      });
    });
  });
}

/** Stops accepting; ends idle keep-alive connections as they become idle, and cuts the rest at the deadline. */
function closeServer(server: Server, deadlineMs = 30_000): Promise<void> {
  return new Promise<void>((done) => {
    if (!server.listening) return done();
    const timer = setTimeout(() => server.closeAllConnections(), deadlineMs);
    // Keep-alive sockets become idle as their last response ends; close them as they do, or
    // close() would wait for their keep-alive timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    timer.unref();
    sweep.unref();
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweep);
      done();
    });
    server.closeIdleConnections();
  });
}
