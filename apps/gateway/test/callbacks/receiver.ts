/**
 * A real callback receiver for tests: a node:http server on 127.0.0.1 (port 0) that records every
 * request and answers as the test says (status, redirect, or never).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * What to do with the n-th request (0-based): a status, a redirect, hang until closed, or answer 200
 * with a body that never ends (until the client hangs up).
 */
export type Answer = number | { redirect: string } | 'hang' | 'endless';

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Bytes of endless bodies written before each client hung up. */
  endlessBytesWritten: number[];
  /** Resolves once `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startReceiver(
  answer: (index: number) => Answer = () => 204,
  options: { port?: number; host?: string } = {},
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const endlessBytesWritten: number[] = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const index = requests.length;
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      for (const wake of waiters) wake();
      const what = answer(index);
      if (what === 'hang') return;
      if (what === 'endless') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(16 * 1024, 120);
        let written = 0;
        const pump = () => {
          while (!res.destroyed && written < 64 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
        };
        res.once('close', () => endlessBytesWritten.push(written));
        pump();
        return;
      }
      if (typeof what === 'object') {
        res.writeHead(302, { location: what.redirect }).end();
        return;
      }
      res.writeHead(what, { 'content-type': 'text/plain' }).end(what >= 400 ? 'nope' : 'ok');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/modelgate`,
    port,
    requests,
    endlessBytesWritten,
    waitFor(count, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length >= count) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(requests);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(`receiver got ${requests.length} of ${count} requests in ${timeoutMs} ms`),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
