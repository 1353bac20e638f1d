/**
 * Requests Node's HTTP parser refuses before the app sees them — malformed, headers past the
 * size limit, or not received within the request timeouts — answered in the documented error
 * shape (`{"error": {message, type, code, param}}`, with an x-request-id) instead of Node's bare
 * status line. The connection is closed after: the parser cannot find the next request on it.
 */
import type { Socket } from 'node:net';
import { newRequestId } from './middleware/request-id.js';

interface Refusal {
  status: number;
  reason: string;
  type: string;
  code: string;
  message: string;
}

function refusalFor(code: string | undefined): Refusal {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      type: 'request_too_large',
      code: 'headers_too_large',
      message: 'The request line and headers are too large.',
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      reason: 'Request Timeout',
      type: 'invalid_request_error',
      code: 'request_timeout',
      message: 'The request was not received in time.',
    };
  }
  return {
    status: 400,
    reason: 'Bad Request',
    type: 'invalid_request_error',
    code: 'malformed_request',
    message: 'The request is not well-formed HTTP.',
  };
}

/**
 * For the server's `clientError` event.
 *
 * @example
 * server.on('clientError', answerClientError);
 */
export function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const r = refusalFor(err.code);
  const body = JSON.stringify({
    error: { message: r.message, type: r.type, code: r.code, param: null },
  });
  socket.end(
    `HTTP/1.1 ${r.status} ${r.reason}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${newRequestId()}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}
