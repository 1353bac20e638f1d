/**
 * The request's abort controller, aborted when the client hangs up before its answer has been
 * written. On Node it listens for the response's 'close' (which comes once, at the end of every
 * response): one listener, and no web Request signal, whose getter makes @hono/node-server build
 * a second AbortController per request.
 *
 * The reason is always an AbortError, which undici passes on as a cancellation, not as a failed
 * connection (which would open the deployment's circuit breaker).
 */
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

const clientClosed = () => new DOMException('The client closed the request.', 'AbortError');

/**
 * @example
 * const abort = abortWhenClientGone(res);
 * await services.text.generate(request, { ...ctx, abort });
 */
export function abortWhenClientGone(outgoing: ServerResponse): AbortController {
  const controller = new AbortController();
  const onClose = () => {
    if (!outgoing.writableFinished) controller.abort(clientClosed());
  };
  // Already closed (the client left while the body was read): 'close' will not come again.
  if (outgoing.closed) onClose();
  else outgoing.once('close', onClose);
  return controller;
}

/**
 * The same for a Hono route: the Node response behind `c.env.outgoing`, or outside a Node
 * listener (`app.request()`) the web Request's signal.
 * @example
 * services.images.generate(body, { ...ctx, abort: clientAbort(c) });
 */
export function clientAbort(c: Context): AbortController {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && typeof outgoing.once === 'function') return abortWhenClientGone(outgoing);
  const controller = new AbortController();
  const signal = c.req.raw.signal;
  const onAbort = () => controller.abort(clientClosed());
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return controller;
}
