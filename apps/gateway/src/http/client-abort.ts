/**
 * The request's abort controller, aborted when the client hangs up before its answer has been
 * written. It listens for the Node response's 'close' (which comes once, at the end of every
 * response), so it costs one listener and no web Request signal.
 *
 * The reason is always an AbortError, which undici passes on as a cancellation, not as a failed
 * connection (which would open the deployment's circuit breaker).
 */
import type { ServerResponse } from 'node:http';

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
