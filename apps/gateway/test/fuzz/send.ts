/**
 * The fuzzer's HTTP client: node:http directly, so a request goes out exactly as generated (raw
 * paths with `..` segments are not normalised as fetch would, any Content-Type, duplicate JSON
 * keys), and what comes back is checked against the documented error shape.
 */
import { Agent, request } from 'node:http';
import { zErrorResponse, zMessagesErrorResponse } from '@modelgate/core/zod';
import fc from 'fast-check';
import { expect } from 'vitest';
import { TYPE_BY_STATUS } from '../contract/support.js';

export interface RawRequest {
  method: string;
  /** Sent as is: already percent-encoded where it should be. */
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

/** Send one request; the whole response body is read (streams included). */
export function send(base: string, req: RawRequest, timeoutMs = 20_000): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        // Framed by Content-Length, as clients send bodies (Node would not frame a GET's body).
        headers:
          req.body === undefined
            ? req.headers
            : { 'content-length': String(Buffer.byteLength(req.body)), ...req.headers },
        agent,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    r.on('timeout', () => r.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    r.on('error', reject);
    r.end(req.body);
  });
}

/** The error `type` per status: DESIGN's table, plus 405 (which shares 400's type). */
const ERROR_TYPES: Record<number, string> = {
  ...TYPE_BY_STATUS,
  405: 'invalid_request_error',
  408: 'invalid_request_error',
  431: 'request_too_large',
};

/**
 * What every answer must be, whatever was sent: never a 5xx, and every error in the documented
 * shape (the vendor's on /v1/messages) with the `type` its status carries.
 */
export function expectWellFormed(req: RawRequest, res: RawResponse): void {
  const where = `${req.method} ${req.path.slice(0, 200)} → ${res.status}: ${res.text.slice(0, 300)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(res.headers['x-request-id'], where).toBeTruthy();
  if (res.status < 400) return;
  expect(String(res.headers['content-type']), where).toMatch(/^application\/json/);
  const body: unknown = JSON.parse(res.text);
  const pathname = req.path.split('?')[0]!;
  // Refusals by the HTTP layer (431, 408, malformed HTTP) come before routing: the common shape.
  const beforeRouting = res.status === 431 || res.status === 408;
  const messagesShape =
    !beforeRouting && (pathname === '/v1/messages' || pathname.startsWith('/v1/messages/'));
  if (messagesShape) {
    const parsed = zMessagesErrorResponse.safeParse(body);
    expect(parsed.success, where).toBe(true);
    expect(parsed.data?.error.type, where).toBe(ERROR_TYPES[res.status]);
  } else {
    const parsed = zErrorResponse.safeParse(body);
    expect(parsed.success, where).toBe(true);
    expect(parsed.data?.error.type, where).toBe(ERROR_TYPES[res.status]);
  }
  if (res.status === 405) expect(res.headers.allow, where).toBeTruthy();
}

/** The number of requests the fuzz tests may make per property (FUZZ_RUNS overrides). */
export function fuzzRuns(defaultRuns: number): number {
  const raw = process.env.FUZZ_RUNS;
  return raw && /^\d+$/.test(raw) ? Number(raw) : defaultRuns;
}

/** A test's time limit for `runs` requests: the default 30 s, or more for a long run. */
export function fuzzTimeout(runs: number): number {
  return Math.max(30_000, runs * 250);
}

/** One fixed seed (FUZZ_SEED overrides) so a CI failure replays locally. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261124);

/** Short enough to read in a CI log: a counterexample may hold megabytes of generated text. */
function abbreviate(value: unknown, max = 600): string {
  const text = JSON.stringify(value, (_k, v: unknown) =>
    Buffer.isBuffer(v)
      ? `<${v.length} bytes>`
      : typeof v === 'string' && v.length > 200
        ? `${v.slice(0, 200)}…(${v.length} chars)`
        : v,
  );
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Runs a property with the fixed seed; a failure names the seed, the shrunk counterexample
 * (abbreviated) and the assertion that failed. Returns how many inputs were tried.
 *
 * @example
 * tried += await checkProperty(requestFor(op, keys), async (req) => expectWellFormed(req, await send(url, req)), 30);
 */
export async function checkProperty<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  numRuns: number,
): Promise<number> {
  const details = await fc.check(fc.asyncProperty(arbitrary, predicate), {
    seed: FUZZ_SEED,
    numRuns,
    endOnFailure: true,
  });
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error
        ? details.errorInstance.message
        : String(details.errorInstance);
    throw new Error(
      `property failed (seed ${FUZZ_SEED}, path ${details.counterexamplePath}) on ${abbreviate(details.counterexample)}\n${cause.slice(0, 1500)}`,
    );
  }
  return details.numRuns;
}
