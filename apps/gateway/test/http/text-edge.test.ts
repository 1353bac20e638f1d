/**
 * The text routes are served by the text edge (src/http/text-edge/) rather than the Hono app: every
 * concern the app's middleware apply to the other routes must hold for them too — request id,
 * CORS, rate-limit headers, the overhead header, unread bodies, NUL in the query, 405 for other
 * methods, the access log and the HTTP metrics.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const chat = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'Say hello' }],
  max_tokens: 8,
};

/** Sends raw HTTP/1.1 on one socket and collects what comes back. */
function rawSocket(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.on('data', (d) => {
    received += d.toString('latin1');
  });
  return {
    write: (text: string | Buffer) => socket.write(text),
    received: () => received,
    closed: new Promise<void>((resolve) => socket.on('close', () => resolve())),
    destroy: () => socket.destroy(),
  };
}

describe('text edge', () => {
  let gw: TestGateway;
  let key: string;
  let keyId: number;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key, id: keyId } = await gw.createKey({ rpm: 1_000 }));
  });
  afterAll(() => gw?.close());

  it('answers with the request id it was sent, CORS and the key rate limits', async () => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: chat,
      headers: { 'x-request-id': 'trace-edge.1', origin: 'https://app.example' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toBe('trace-edge.1');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-expose-headers')).toContain('x-modelgate-overhead-ms');
    expect(res.headers.get('x-ratelimit-limit-requests')).toBe('1000');
    expect(Number(res.headers.get('x-modelgate-overhead-ms'))).toBeGreaterThanOrEqual(0);
    expect(res.headers.get('content-length')).toBe(String((await res.arrayBuffer()).byteLength));
  });

  it('puts the same headers on its refusals, before and after authentication', async () => {
    const noKey = await gw.fetch('/v1/chat/completions', { method: 'POST', json: chat });
    expect(noKey.status).toBe(401);
    expect(noKey.headers.get('x-request-id')).toMatch(/^req_/);
    expect(noKey.headers.get('access-control-allow-origin')).toBe('*');
    expect(noKey.headers.get('x-modelgate-overhead-ms')).not.toBeNull();
    expect(await noKey.json()).toMatchObject({ error: { code: 'invalid_api_key' } });

    const badBody = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { ...chat, temperature: 9 },
    });
    expect(badBody.status).toBe(400);
    expect(badBody.headers.get('x-ratelimit-limit-requests')).toBe('1000');
    expect(badBody.headers.get('access-control-allow-origin')).toBe('*');
    expect(await badBody.json()).toMatchObject({ error: { param: 'temperature' } });
  });

  it('serves a path with a query string, and refuses a NUL in it naming the parameter', async () => {
    const ok = await gw.fetch('/v1/chat/completions?api-version=2024-06-01', {
      method: 'POST',
      key,
      json: chat,
    });
    expect(ok.status).toBe(200);
    const nul = await gw.fetch('/v1/chat/completions?trace=a%00b', {
      method: 'POST',
      key,
      json: chat,
    });
    expect(nul.status).toBe(400);
    expect(await nul.json()).toMatchObject({
      error: { code: 'invalid_characters', param: 'trace' },
    });
  });

  it('serves a request target in absolute form, as some proxies forward it', async () => {
    const socket = rawSocket(Number(new URL(gw.url).port));
    const body = JSON.stringify(chat);
    socket.write(
      `POST ${gw.url}/v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await vi.waitFor(() => expect(socket.received()).toContain('"chat.completion"'));
    expect(socket.received()).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
  });

  it('leaves other methods and neighbouring paths to the app: 405 naming POST, 404', async () => {
    const get = await gw.fetch('/v1/chat/completions', { key });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await gw.fetch('/v1/chat/completions', {})).status).toBe(401);
    // One trailing slash is dropped at the listener (test/http/trailing-slash.test.ts); a
    // neighbouring path is the app's 404.
    const slash = await gw.fetch('/v1/chat/completions/', { method: 'POST', key, json: chat });
    expect(slash.status).toBe(200);
    const neighbour = await gw.fetch('/v1/chat/completionsx', { method: 'POST', key, json: chat });
    expect(neighbour.status).toBe(404);
  });

  it('keeps the connection after refusing a small body it did not read', async () => {
    const socket = rawSocket(Number(new URL(gw.url).port));
    const body = JSON.stringify(chat);
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-wrong\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await vi.waitFor(() => expect(socket.received()).toContain('HTTP/1.1 401'));
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    await vi.waitFor(() => expect(socket.received()).toContain('HTTP/1.1 200'));
    expect(socket.received()).not.toMatch(/connection: close/i);
    socket.destroy();
  });

  it('closes the connection after refusing a chunked body it did not read', async () => {
    const socket = rawSocket(Number(new URL(gw.url).port));
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-wrong\r\n` +
        `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"mod\r\n`,
    );
    await vi.waitFor(() => expect(socket.received()).toContain('HTTP/1.1 401'));
    expect(socket.received()).toMatch(/connection: close/i);
    await socket.closed;
  });

  it('writes one access-log line and counts the request under its route', async () => {
    const res = await gw.fetch('/v1/chat/completions', { method: 'POST', key, json: chat });
    const rid = res.headers.get('x-request-id');
    await res.arrayBuffer();
    await vi.waitFor(() =>
      expect(gw.logs.find((l) => l.msg === 'request' && l.request_id === rid)).toMatchObject({
        level: 'info',
        method: 'POST',
        route: '/v1/chat/completions',
        path: '/v1/chat/completions',
        status: 200,
        key_id: keyId,
      }),
    );
    const metrics = await (await gw.fetch('/metrics')).text();
    expect(metrics).toMatch(
      /modelgate_http_requests_total\{method="POST",route="\/v1\/chat\/completions",status="200"\} [1-9]/,
    );
    expect(metrics).toMatch(
      /modelgate_http_requests_total\{method="POST",route="\/v1\/chat\/completions",status="401"\} [1-9]/,
    );
  });

  it('adds the messages version header to a messages answer', async () => {
    const res = await gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      json: { model: 'claude-haiku-4-5', max_tokens: 8, messages: chat.messages },
      headers: { 'anthropic-version': '2026-01-01' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('vendor-version')).toBe('2023-06-01');
  });
});
