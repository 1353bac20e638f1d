import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

/**
 * POST an over-limit body from a child process through node:http, so we control chunking (fetch always
 * sends a length) and the server's early 413 is not starved by the client sharing its event loop.
 */
const RAW_CLIENT = `
const { request } = require('node:http');
const [url, key, mode] = process.argv.slice(1);
const headers = { authorization: 'Bearer ' + key, 'content-type': 'application/json' };
const chunk = Buffer.alloc(64 * 1024, 'a');
const chunks = Array.from({ length: 17 }, () => chunk);
if (mode === 'length') headers['content-length'] = String(17 * chunk.length);
else headers['transfer-encoding'] = 'chunked';
let done = false;
const req = request(url, { method: 'POST', headers }, (res) => {
  let body = '';
  res.on('data', (d) => (body += d));
  res.on('end', () => { done = true; console.log(JSON.stringify({ status: res.statusCode, rid: res.headers['x-request-id'], body })); });
});
req.on('error', (e) => setTimeout(() => done || console.log(JSON.stringify({ error: e.message })), 200));
for (const c of chunks) req.write(c);
req.end();
`;

function rawPost(url: string, key: string, mode: 'length' | 'chunked') {
  return new Promise<{ status: number; rid?: string; body: string; error?: string }>(
    (resolve, reject) => {
      execFile(process.execPath, ['-e', RAW_CLIENT, url, key, mode], (err, stdout) =>
        err ? reject(err) : resolve(JSON.parse(stdout.trim().split('\n')[0]!)),
      );
    },
  );
}

describe('HTTP edge', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      simulator: false,
      routes: [
        (app) => {
          app.get('/v1/test/crash', () => {
            throw new Error('kaboom');
          });
          app.post('/v1/messages/test-echo', async (c) => c.json(await c.req.json()));
        },
      ],
    });
  });
  afterAll(() => gw?.close());

  it('echoes a sane incoming request id and mints one otherwise', async () => {
    const mine = await gw.fetch('/healthz', { headers: { 'x-request-id': 'trace-abc.123' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-abc.123');
    const insane = await gw.fetch('/healthz', {
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(insane.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
    const none = await gw.fetch('/nope');
    expect(none.status).toBe(404);
    expect(none.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('renders the OpenAI error shape, and the vendor shape under /v1/messages', async () => {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: {
        message: expect.any(String),
        type: 'authentication_error',
        code: 'invalid_api_key',
        param: null,
      },
    });
    const msg = await gw.fetch('/v1/messages', { method: 'POST', json: {} });
    expect(msg.status).toBe(401);
    expect(await msg.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: expect.any(String) },
    });
  });

  it('accepts x-api-key on /v1/messages only', async () => {
    const { key } = await gw.createKey();
    const onMessages = await gw.fetch('/v1/messages/test-echo', {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(onMessages.status).toBe(200);
    const elsewhere = await gw.fetch('/v1/dashboard/billing/credit_grants', {
      headers: { 'x-api-key': key },
    });
    expect(elsewhere.status).toBe(401);
  });

  it('answers malformed JSON with 400 invalid_json and other content types with 415', async () => {
    const bad = await gw.fetch('/v1/token', {
      method: 'POST',
      key: gw.adminKey,
      headers: { 'content-type': 'application/json' },
      body: '{"name": "x", ',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
    const text = await gw.fetch('/v1/token', {
      method: 'POST',
      key: gw.adminKey,
      headers: { 'content-type': 'text/plain' },
      body: '{"name":"x","quota":1}',
    });
    expect(text.status).toBe(415);
    expect(((await text.json()) as { error: { type: string } }).error.type).toBe(
      'unsupported_media_type',
    );
  });

  it('refuses JSON bodies over 1 MiB with 413, by length and while reading a chunked body', async () => {
    for (const mode of ['length', 'chunked'] as const) {
      const res = await rawPost(`${gw.url}/v1/token`, gw.adminKey, mode);
      expect(res.status, mode).toBe(413);
      expect(JSON.parse(res.body).error.type).toBe('request_too_large');
      expect(res.rid).toMatch(/^req_/);
    }
  });

  it('turns an unhandled error into 500 api_error with the request id, and keeps serving', async () => {
    const { key } = await gw.createKey();
    const res = await gw.fetch('/v1/test/crash', { key });
    expect(res.status).toBe(500);
    const rid = res.headers.get('x-request-id')!;
    const body = (await res.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe('api_error');
    expect(body.error.message).toContain(rid);
    expect(body.error.message).not.toContain('kaboom');
    const logged = gw.logs.find((l) => l.msg === 'unhandled error' && l.request_id === rid);
    expect(logged?.err).toMatchObject({ message: 'kaboom' });
    expect((await gw.fetch('/healthz')).status).toBe(200);
  });

  it('logs one JSON line per request with the agreed fields', async () => {
    const { key, id } = await gw.createKey();
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
    const rid = res.headers.get('x-request-id');
    const line = gw.logs.find((l) => l.msg === 'request' && l.request_id === rid);
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/v1/dashboard/billing/credit_grants',
      status: 200,
      key_id: id,
    });
    expect(typeof line?.duration_ms).toBe('number');
    expect(typeof line?.time).toBe('string');
  });

  it('answers HEAD / (agents probe the base URL) with 200 and no body, without a key', async () => {
    const head = await gw.fetch('/', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const get = await gw.fetch('/');
    expect(get.status).toBe(200);
    expect(await get.json()).toEqual({
      service: 'modelgate',
      status: 'ok',
      docs: '/docs',
      openapi: '/openapi.yaml',
    });
    expect((await gw.fetch('/', { method: 'POST' })).status).toBe(405);
  });

  it('serves health, readiness and Prometheus metrics', async () => {
    expect(await (await gw.fetch('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await gw.fetch('/readyz');
    expect(ready.status).toBe(200);
    const metrics = await (await gw.fetch('/metrics')).text();
    expect(metrics).toContain('# TYPE modelgate_http_requests_total counter');
    expect(metrics).toMatch(
      /modelgate_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/,
    );
    expect(metrics).toContain(
      'modelgate_http_request_duration_seconds_bucket{route="/healthz",le="+Inf"}',
    );
    expect(metrics).toContain('# TYPE modelgate_upstream_errors_total counter');
    expect(metrics).toContain('# TYPE modelgate_quota_units_charged_total counter');
  });

  it('serves the OpenAPI document and a reference page that loads nothing from elsewhere', async () => {
    const spec = await gw.fetch('/openapi.yaml');
    expect(spec.status).toBe(200);
    const text = await spec.text();
    expect(text).toMatch(/^openapi: 3\./m);
    const docs = await gw.fetch('/docs');
    expect(docs.headers.get('content-type')).toContain('text/html');
    const html = await docs.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]);
    expect(sources).toEqual(['/docs/scalar.js']);
    expect(html).toContain('"url":"/openapi.yaml"');
  });

  it('serves the renderer bundle compressed, with a validator', async () => {
    const res = await gw.fetch('/docs/scalar.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect((await res.text()).length).toBeGreaterThan(1_000_000);
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"scalar-\d+\.\d+\.\d+"$/);
    const again = await gw.fetch('/docs/scalar.js', { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
  });
});

describe('CORS', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      simulator: false,
      env: { MODELGATE_CORS_ORIGINS: 'https://app.example.com' },
    });
  });
  afterAll(() => gw?.close());

  it('answers preflights without a key and exposes the gateway headers', async () => {
    const pre = await gw.fetch('/v1/chat/completions', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
    const { key } = await gw.createKey();
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', {
      key,
      headers: { origin: 'https://app.example.com' },
    });
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id');
    const other = await gw.fetch('/v1/dashboard/billing/credit_grants', {
      key,
      headers: { origin: 'https://evil.example.com' },
    });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
