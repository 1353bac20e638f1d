/**
 * The request's abort controller, aborted when the client hangs up before its response finished.
 *
 * On @hono/node-server this listens for the Node response's 'close' (which comes once, at the end
 * of every response) instead of reading `c.req.raw.signal`: that getter makes the adapter build a
 * second AbortController per request, and linking the two costs an add/remove listener pair too.
 * Outside a Node listener (`app.request()` in tests) the web Request's signal is used.
 *
 * The reason is always an AbortError: the adapter aborts with a plain string, which undici would
 * pass on and the adapter classify as a retryable connection failure (opening the breaker).
 */
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

const clientClosed = () => new DOMException('The client closed the request.', 'AbortError');

/**
 * @example
 * services.text.generate('chat', body, { ...ctx, abort: clientAbort(c) });
 */
export function clientAbort(c: Context): AbortController {
  const controller = new AbortController();
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (outgoing && typeof outgoing.once === 'function') {
    const onClose = () => {
      if (!outgoing.writableFinished) controller.abort(clientClosed());
    };
    // Already closed (the client left while the body was read): 'close' will not come again.
    if (outgoing.closed) onClose();
    else outgoing.once('close', onClose);
    return controller;
  }
  const signal = c.req.raw.signal;
  const onAbort = () => controller.abort(clientClosed());
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return controller;
}
