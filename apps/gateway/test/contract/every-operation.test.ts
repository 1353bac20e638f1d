/**
 * Cross-cutting contract for EVERY operation in spec/openapi.yaml: 401 (missing, unknown, expired
 * key), 429 on an rpm-limited key (Retry-After + x-ratelimit-*), x-request-id everywhere, and the
 * browser preflight/expose headers. The table must list exactly the spec's operations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { SAMPLES, type Sample } from './samples.js';
import {
  declaredHeaders,
  declaredStatuses,
  expectError,
  type Operation,
  oversizedJson,
  postAlone,
  specOperations,
} from './support.js';

const OPS = Object.keys(SAMPLES);

describe('contract tables', () => {
  it('cover exactly the operations of spec/openapi.yaml', () => {
    expect(OPS.sort()).toEqual(specOperations());
  });

  it('read the documented headers through $refs (so the header checks have teeth)', () => {
    const ok = declaredHeaders('GET /v1/models', 200);
    expect(ok.get('x-request-id')?.required).toBe(true);
    expect([...ok.keys()]).toContain('x-ratelimit-remaining-requests');
    expect(declaredHeaders('POST /v1/messages', 429).get('retry-after')?.required).toBe(true);
    expect(declaredStatuses('POST /v1/token')).not.toContain(404);
  });
});

describe.each(eachDatabase())('every operation on $name', (database) => {
  let gw: TestGateway;
  let expired: string;
  beforeAll(async () => {
    gw = await startTestGateway({ database });
    ({ key: expired } = await gw.createKey({ expiresAt: Math.floor(Date.now() / 1000) - 60 }));
  });
  afterAll(() => gw?.close());

  const send = (s: Sample, headers: Record<string, string>) =>
    gw.fetch(s.path, { method: s.method, json: s.json, headers });

  const credentials: [string, (op: Operation) => Record<string, string>, string][] = [
    ['missing', () => ({}), 'invalid_api_key'],
    ['unknown', () => ({ authorization: `Bearer sk-${'A'.repeat(48)}` }), 'invalid_api_key'],
    ['expired', () => ({ authorization: `Bearer ${expired}` }), 'expired_api_key'],
  ];

  it.each(OPS)('%s: 401 for a missing, unknown or expired key', async (op) => {
    for (const [, headers, code] of credentials) {
      const res = await send(SAMPLES[op]!, headers(op));
      await expectError(res, op, {
        status: 401,
        code: op === 'POST /v1/messages' ? undefined : code,
      });
    }
  });

  it('POST /v1/messages: takes the key from x-api-key (401 for an unknown one)', async () => {
    const s = SAMPLES['POST /v1/messages']!;
    const res = await send(s, {
      'x-api-key': `sk-${'B'.repeat(48)}`,
      'anthropic-version': '2023-06-01',
    });
    await expectError(res, 'POST /v1/messages', { status: 401 });
  });

  it.each(OPS)('%s: 429 with Retry-After and x-ratelimit-* beyond the key rpm', async (op) => {
    const sample = SAMPLES[op]!;
    const { key } = await gw.createKey({ rpm: 1, role: sample.admin ? 'admin' : 'user' });
    const headers = { authorization: `Bearer ${key}` };
    const first = await send(sample, headers);
    expect(first.headers.get('x-ratelimit-limit-requests')).toBe('1');
    expect(first.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    await first.arrayBuffer();
    const res = await send(sample, headers);
    const err = await expectError(res, op, { status: 429, limited: true });
    if (!op.startsWith('POST /v1/messages')) expect(err.code).toBe('rate_limit_requests');
  });

  it.each(OPS.filter((op) => op.startsWith('POST ')))(
    '%s: 413 for a body over 1 MiB, whatever the route does with bodies',
    async (op) => {
      const sample = SAMPLES[op]!;
      const { key } = await gw.createKey({ role: sample.admin ? 'admin' : 'user' });
      const res = await postAlone(
        `${gw.url}${sample.path}`,
        oversizedJson((sample.json as Record<string, unknown>) ?? {}),
        { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      );
      await expectError(res, op, { status: 413 });
    },
  );

  describe('CORS for browser clients', () => {
    const origin = 'https://app.example';
    const preflight = (path: string, headers: string) =>
      fetch(`${gw.url}${path}`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': headers,
        },
      });
    const allowed = (res: Response) =>
      (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);

    it.each([
      ['/v1/chat/completions', 'authorization,content-type'],
      ['/v1/messages', 'x-api-key,anthropic-version,vendor-version,content-type'],
      // What the vendors' own SDKs add when run in a browser.
      [
        '/v1/chat/completions',
        'authorization,content-type,x-stainless-os,x-stainless-lang,x-stainless-retry-count',
      ],
      ['/v1/messages', 'x-api-key,anthropic-version,anthropic-dangerous-direct-browser-access'],
      ['/v1/video/generations', 'authorization,content-type,idempotency-key'],
    ])('preflight of POST %s with %s succeeds', async (path, headers) => {
      const res = await preflight(path, headers);
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get('access-control-allow-origin')).toMatch(
        /^(\*|https:\/\/app\.example)$/,
      );
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      const list = allowed(res);
      for (const h of headers.split(',')) expect(list, h).toContain(h);
      expect(res.headers.get('x-request-id')).toBeTruthy();
    });

    it('exposes x-request-id, x-ratelimit-* and Retry-After on answers and on errors', async () => {
      const { key } = await gw.createKey({ rpm: 1 });
      const headers = { origin, authorization: `Bearer ${key}` };
      const ok = await gw.fetch('/v1/models', { headers });
      const limited = await gw.fetch('/v1/models', { headers });
      const denied = await gw.fetch('/v1/models', { headers: { origin } });
      const { key: streamer } = await gw.createKey({ rpm: 10 });
      const stream = await gw.fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { origin, authorization: `Bearer ${streamer}` },
        json: { ...(SAMPLES['POST /v1/chat/completions']!.json as object), stream: true },
      });
      const statuses = [ok.status, limited.status, denied.status, stream.status];
      expect(statuses).toEqual([200, 429, 401, 200]);
      for (const res of [ok, limited, denied, stream]) {
        expect(res.headers.get('access-control-allow-origin')).toMatch(
          /^(\*|https:\/\/app\.example)$/,
        );
        const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase();
        for (const h of [
          'x-request-id',
          'retry-after',
          'x-ratelimit-limit-requests',
          'x-ratelimit-remaining-requests',
          'x-ratelimit-reset-requests',
          'x-modelgate-overhead-ms',
        ]) {
          expect(exposed.split(/\s*,\s*/), `${res.status}: ${h}`).toContain(h);
        }
        await res.arrayBuffer();
      }
    });
  });
});
