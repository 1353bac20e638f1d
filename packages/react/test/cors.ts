// The loopback stand-ins answer CORS as the gateway does: the hooks run in a page (happy-dom) whose
// origin differs from theirs, so the browser rules apply to them too.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Adds the CORS headers; answers a preflight and returns true when the request was one. */
export function answerCors(req: IncomingMessage, res: ServerResponse): boolean {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-expose-headers', 'retry-after, retry-after-ms, x-request-id');
  if (req.method !== 'OPTIONS') return false;
  res.writeHead(204, {
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
  });
  res.end();
  return true;
}
