/**
 * One callback POST to an address the guard already checked. The connection goes to that IP (no
 * second DNS lookup: a rebinding resolver cannot swap in a private address), while the Host header and
 * TLS server name stay the URL's host so virtual hosting and certificate checks work. Redirects are
 * not followed (node:http never does), and at most `maxResponseBytes` of the answer are read.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { CheckedTarget } from './address-guard.js';

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  /** Whole-attempt deadline: connect, answer and the capped body read. */
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Why an attempt got no HTTP status (CallbackAttempt.error in the spec). */
export type AttemptError =
  | 'timeout'
  | 'connection_error'
  | 'address_refused'
  | 'dns_error'
  | 'invalid_url'
  | 'internal_error';

/** What one attempt came to: an HTTP status, or an error (`statusCode` null), and how long it took. */
export interface PostOutcome {
  statusCode: number | null;
  error: AttemptError | null;
  /** Human detail for logs (never shown to API clients: it may name internal addresses). */
  detail?: string;
  latencyMs: number;
}

// Errors that happen before anything was sent: the next resolved address may work.
const CONNECT_ERRORS = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'EAFNOSUPPORT',
]);

/**
 * POSTs to the target, trying its addresses in order while connections are refused.
 *
 * @example
 * const outcome = await postToTarget(target, { headers, body, timeoutMs: 10_000, maxResponseBytes: 4096 });
 */
export async function postToTarget(
  target: CheckedTarget,
  options: PostOptions,
): Promise<PostOutcome> {
  const started = performance.now();
  const deadline = AbortSignal.timeout(options.timeoutMs);
  let detail = 'no address to connect to';
  for (const { address } of target.addresses) {
    try {
      const statusCode = await postOnce(target, address, options, deadline);
      return { statusCode, error: null, latencyMs: elapsed(started) };
    } catch (error) {
      const { code, message } = error as { code?: string; message?: string };
      detail = `${address}: ${code ?? ''} ${message ?? ''}`.trim();
      if (deadline.aborted || !code || !CONNECT_ERRORS.has(code)) break;
    }
  }
  return {
    statusCode: null,
    error: deadline.aborted ? 'timeout' : 'connection_error',
    detail,
    latencyMs: elapsed(started),
  };
}

function postOnce(
  target: CheckedTarget,
  address: string,
  options: PostOptions,
  signal: AbortSignal,
): Promise<number> {
  const { url, hostname } = target;
  const secure = url.protocol === 'https:';
  const body = Buffer.from(options.body);
  return new Promise((resolve, reject) => {
    const request = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      // SNI must be a host name, never an IP literal.
      ...(secure && isIP(hostname) === 0 ? { servername: hostname } : {}),
      headers: {
        ...options.headers,
        host: url.host,
        'content-length': String(body.length),
      },
      agent: false,
      signal,
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const statusCode = response.statusCode ?? 0;
      let read = 0;
      // Read a little of the answer (a receiver may wait for it to be consumed), then hang up.
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read >= options.maxResponseBytes) {
          response.destroy();
          resolve(statusCode);
        }
      });
      response.on('end', () => resolve(statusCode));
      response.on('error', () => resolve(statusCode));
      response.on('close', () => resolve(statusCode));
    });
    request.end(body);
  });
}

function elapsed(started: number): number {
  return Math.max(0, Math.round(performance.now() - started));
}
