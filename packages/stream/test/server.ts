// A real loopback HTTP server that writes SSE in awkward chunks, and records requests and closes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** Resolves when the client's connection for this request closes. */
  closed: Promise<void>;
}

export type Handler = (req: Seen, res: ServerResponse, attempt: number) => void | Promise<void>;

export interface StreamServer {
  url: string;
  requests: Seen[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

export async function startServer(): Promise<StreamServer> {
  let handler: Handler = (_req, res) => {
    res.end();
  };
  const requests: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      const closed = new Promise<void>((resolve) => res.on('close', () => resolve()));
      const seen: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        closed,
      };
      requests.push(seen);
      void handler(seen, res, requests.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handle(next) {
      handler = next;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Starts an SSE response. */
export function sseHead(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'x-request-id': 'req_stream',
  });
  res.flushHeaders();
}

/**
 * Writes `text` in pieces of 1–7 bytes (cutting lines, CRLF pairs and UTF-8 sequences), yielding
 * to the event loop between pieces so they travel as separate reads.
 */
export async function writeAwkwardly(res: ServerResponse, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  let i = 0;
  let n = 0;
  while (i < bytes.length) {
    const size = 1 + ((n * 5 + 3) % 7);
    res.write(bytes.subarray(i, i + size));
    i += size;
    n++;
    if (n % 4 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': 'req_err',
    ...headers,
  });
  res.end(JSON.stringify(body));
}

/** `data: <json>` events separated by blank lines, with the given line ending. */
export function sse(events: Array<{ event?: string; data: unknown }>, eol = '\n'): string {
  return events
    .map(
      ({ event, data }) =>
        `${event ? `event: ${event}${eol}` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`,
    )
    .join('');
}
