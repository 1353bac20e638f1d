// Retries, Retry-After, idempotency keys, timeouts and aborts against a real loopback server.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConnectionError,
  createClient,
  InsufficientQuotaError,
  type ModelgateError,
  parseRetryAfterMs,
  RateLimitError,
  TimeoutError,
  UpstreamError,
  ValidationError,
} from '../src/index.js';
import { backoffMs, retryDelayMs, sleep } from '../src/retry.js';
import * as fx from './fixtures.js';
import { json, startServer, type TestServer } from './server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const chatBody = { model: 'gpt-4o-mini', messages: [{ role: 'user' as const, content: 'Hi' }] };
const errorBody = (type: string) => ({ error: { message: type, type, code: null, param: null } });

function client(options: { maxRetries?: number; timeoutMs?: number } = {}) {
  return createClient({ baseUrl: server.url, apiKey: 'sk-test', ...options });
}

describe('retries', () => {
  it('retries a 429 after Retry-After seconds, then succeeds', async () => {
    server.handle((_req, res, attempt) =>
      attempt === 1
        ? json(res, 429, errorBody('rate_limit_error'), { 'retry-after': '0.05' })
        : json(res, 200, fx.chatCompletion),
    );
    expect(await client().chat.completions.create(chatBody)).toEqual(fx.chatCompletion);
    expect(server.requests).toHaveLength(2);
    // The replayed request carries the same body.
    expect(server.requests[1]!.body.toString()).toBe(server.requests[0]!.body.toString());
  });

  it('honours retry-after-ms on 503 and gives up after maxRetries with the last error', async () => {
    server.handle((_req, res) =>
      json(res, 503, errorBody('overloaded_error'), { 'retry-after-ms': '10' }),
    );
    const error = await client({ maxRetries: 2 })
      .models.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).status).toBe(503);
    expect(server.requests).toHaveLength(3);
  });

  it('retries 408 and 500', async () => {
    server.handle((_req, res, attempt) => {
      if (attempt === 1) json(res, 408, errorBody('timeout'), { 'retry-after-ms': '1' });
      else if (attempt === 2) json(res, 500, errorBody('api_error'), { 'retry-after-ms': '1' });
      else json(res, 200, fx.modelList);
    });
    expect(await client().models.list()).toEqual(fx.modelList);
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    [400, 'invalid_request_error', ValidationError],
    [401, 'authentication_error', AuthenticationError],
    [402, 'insufficient_quota', InsufficientQuotaError],
  ] as const)('never retries %i', async (status, type, ErrorClass) => {
    server.handle((_req, res) => json(res, status, errorBody(type), { 'retry-after-ms': '1' }));
    const error = await client({ maxRetries: 3 })
      .chat.completions.create(chatBody)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(server.requests).toHaveLength(1);
  });

  it('does not wait out a Retry-After beyond 60 s: the RateLimitError carries it', async () => {
    server.handle((_req, res) =>
      json(res, 429, errorBody('rate_limit_error'), { 'retry-after': '120' }),
    );
    const error = await client({ maxRetries: 2 })
      .chat.completions.create(chatBody)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps the same Idempotency-Key across the retries of one video submission', async () => {
    server.handle((_req, res, attempt) =>
      attempt < 3
        ? json(res, 503, errorBody('overloaded_error'), { 'retry-after-ms': '1' })
        : json(res, 200, fx.videoTaskCreated),
    );
    const c = client({ maxRetries: 2 });
    await c.video.generations.create({ model: 'kling-v3', prompt: 'waves' });
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toBeTruthy();

    // A second call is a new submission: a new key.
    server.handle((_req, res) => json(res, 200, fx.videoTaskCreated));
    await c.video.generations.create({ model: 'kling-v3', prompt: 'waves' });
    expect(server.requests[0]!.headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('retries a connection error, then reports ConnectionError', async () => {
    // A port that accepted once and is closed now: connections are refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    let calls = 0;
    const c = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      maxRetries: 1,
      fetch: (input, init) => {
        calls++;
        return fetch(input, init);
      },
    });
    const error = await c.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).status).toBeUndefined();
    expect((error as ConnectionError).cause).toBeInstanceOf(Error);
    expect(calls).toBe(2);
  });
});

describe('timeouts and aborts', () => {
  it('times out when no response arrives, retrying per attempt', async () => {
    server.handle(() => {
      // Never answer.
    });
    const error = await client({ timeoutMs: 50, maxRetries: 1 })
      .models.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).status).toBeUndefined();
    expect(server.requests).toHaveLength(2);
  });

  it('times out while the body is still arriving (not retried: a body was started)', async () => {
    server.handle((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"object":"list",');
    });
    const error = await client({ timeoutMs: 100, maxRetries: 2 })
      .models.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).status).toBe(200);
    expect(server.requests).toHaveLength(1);
  });

  it('per-call timeoutMs overrides the client default', async () => {
    server.handle(() => {});
    const error = await client({ timeoutMs: 60_000, maxRetries: 0 })
      .models.list({ timeoutMs: 30 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
  });

  it('a user abort rejects with the standard AbortError and is not retried', async () => {
    server.handle(() => {});
    const controller = new AbortController();
    const pending = client({ maxRetries: 3 }).chat.completions.create(chatBody, {
      signal: controller.signal,
    });
    await waitFor(() => server.requests.length === 1);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(server.requests).toHaveLength(1);
  });

  it('a user abort during the retry wait rejects with signal.reason', async () => {
    server.handle((_req, res) =>
      json(res, 503, errorBody('overloaded_error'), { 'retry-after': '30' }),
    );
    const controller = new AbortController();
    const reason = new Error('user gave up');
    const pending = client({ maxRetries: 3 }).models.list({ signal: controller.signal });
    await waitFor(() => server.requests.length === 1);
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    server.handle((_req, res) => json(res, 200, fx.modelList));
    const error = await client()
      .models.list({ signal: AbortSignal.abort() })
      .catch((e: unknown) => e);
    expect((error as DOMException).name).toBe('AbortError');
    expect(server.requests).toHaveLength(0);
  });
});

describe('retry policy', () => {
  it('parses Retry-After as seconds, HTTP date, and retry-after-ms first', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(
      parseRetryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now),
    ).toBe(3000);
    expect(
      parseRetryAfterMs(new Headers({ 'retry-after': '2', 'retry-after-ms': '150' }), now),
    ).toBe(150);
    expect(parseRetryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers(), now)).toBeUndefined();
  });

  it('reads the same hints from a header record (the gateway, undici) or one header value', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs({ 'retry-after': '2', 'retry-after-ms': '150' }, now)).toBe(150);
    expect(parseRetryAfterMs({ 'retry-after': ['3', '9'] }, now)).toBe(3000);
    expect(parseRetryAfterMs({ 'retry-after-ms': 'x', 'retry-after': '1.5' }, now)).toBe(1500);
    expect(parseRetryAfterMs({ 'retry-after': undefined }, now)).toBeUndefined();
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfterMs('0', now)).toBe(0);
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
  });

  it('refuses negative and empty hints, and reads a date in the past as 0', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterMs('-1', now)).toBeUndefined();
    expect(parseRetryAfterMs(' ', now)).toBeUndefined();
    expect(parseRetryAfterMs({ 'retry-after-ms': '-5' }, now)).toBeUndefined();
    expect(parseRetryAfterMs(new Headers({ 'retry-after-ms': '' }), now)).toBeUndefined();
    expect(parseRetryAfterMs('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
  });

  it('backs off exponentially with full jitter, capped at 8 s', () => {
    expect(backoffMs(0, () => 0.999)).toBeCloseTo(499.5);
    expect(backoffMs(3, () => 0.5)).toBe(2000);
    expect(backoffMs(10, () => 0.999)).toBeCloseTo(7992);
    expect(backoffMs(2, () => 0)).toBe(0);
    expect(retryDelayMs(0, new Headers({ 'retry-after': '61' }))).toBeUndefined();
  });
});

describe('sleep', () => {
  it('resolves when no signal aborts it', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    await expect(sleep(1, new AbortController().signal)).resolves.toBeUndefined();
  });

  it("rejects with the signal's reason, whether it aborts before or during the sleep", async () => {
    const reason = new Error('stop');
    await expect(sleep(1, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const sleeping = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(sleeping).rejects.toBe(reason);
  });
});

async function waitFor(predicate: () => boolean): Promise<void> {
  while (!predicate()) await new Promise((resolve) => setTimeout(resolve, 5));
}

export type { ModelgateError };
