/** Rate limits through HTTP: rpm, tpm reserved before the upstream call, Redis and its fallback. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FALLBACK_GAUGE, LOCAL_CHECKS_COUNTER } from '../../src/limits/fallback-store.js';
import { formatResetDuration } from '../../src/limits/limiter.js';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { closedPortRedisUrl, metricValue } from './support.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

const path = '/v1/dashboard/billing/credit_grants';
const MODEL = 'gpt-4o-mini';

interface ErrorBody {
  error: { type: string; code: string; param: string | null; message: string };
}

const chat = (gw: TestGateway, key: string, maxTokens: number) =>
  gw.fetch('/v1/chat/completions', {
    method: 'POST',
    key,
    json: {
      model: MODEL,
      messages: [{ role: 'user', content: 'Say hello' }],
      max_tokens: maxTokens,
    },
  });

describe('rate limits (memory)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  it('counts requests per key, answers 429 with Retry-After past rpm, and sends x-ratelimit-*', async () => {
    const { key } = await gw.createKey({ rpm: 3 });
    const other = await gw.createKey({ rpm: 3 });
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await gw.fetch(path, { key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('x-ratelimit-limit-requests')).toBe('3');
        expect(last.headers.get('x-ratelimit-remaining-requests')).toBe('2');
        // Until the bucket is full again: one request's share of the minute.
        expect(last.headers.get('x-ratelimit-reset-requests')).toMatch(/^(19\.\d+|20)s$/);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    // The next request fits once one unit (20 s at 3 rpm) has dripped back.
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(19);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(last!.headers.get('x-ratelimit-remaining-requests')).toBe('0');
    const body = (await last!.json()) as ErrorBody;
    expect(body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_requests' });
    // Another key has its own budget.
    expect((await gw.fetch(path, { key: other.key })).status).toBe(200);
  });

  it('sends no rate-limit headers to keys without limits', async () => {
    const { key } = await gw.createKey();
    const res = await gw.fetch(path, { key });
    expect(res.headers.get('x-ratelimit-limit-requests')).toBeNull();
  });

  it('formats reset durations the OpenAI way', () => {
    expect(formatResetDuration(250)).toBe('250ms');
    expect(formatResetDuration(8_640)).toBe('8.64s');
    expect(formatResetDuration(1_000)).toBe('1s');
    expect(formatResetDuration(60_000)).toBe('1m0s');
  });

  it('refuses a request whose max_tokens alone exceeds the tpm before any upstream call', async () => {
    const { key, id } = await gw.createKey({ tpm: 100 });
    const upstreamCalls = gw.simulator!.stats().total;
    const res = await chat(gw, key, 500);
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(res.headers.get('x-ratelimit-limit-tokens')).toBe('100');
    expect(res.headers.get('x-ratelimit-remaining-tokens')).toBe('100');
    const body = (await res.json()) as ErrorBody;
    expect(body.error).toMatchObject({
      type: 'rate_limit_error',
      code: 'rate_limit_tokens',
      param: 'max_tokens',
    });
    expect(gw.simulator!.stats().total).toBe(upstreamCalls);
    // Nothing was reserved from the quota either.
    const row = await gw.services.db
      .selectFrom('api_keys')
      .select('used')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(row.used)).toBe(0);
  });

  it('reserves prompt + max_tokens up front and gives back the unused part after the response', async () => {
    const { key } = await gw.createKey({ tpm: 300 });
    const first = await chat(gw, key, 200);
    expect(first.status).toBe(200);
    const { usage } = (await first.json()) as { usage: { total_tokens: number } };
    expect(usage.total_tokens).toBeLessThan(100);
    // The header counts the whole reservation, not what the response turned out to use.
    const heldRemaining = Number(first.headers.get('x-ratelimit-remaining-tokens'));
    expect(heldRemaining).toBeLessThan(100);

    // A second request of the same size fits only once the first settled to its actual tokens.
    const settledKey = await gw.services.keys.authenticate(key);
    await vi.waitFor(
      async () => {
        const { tokens } = await gw.services.limiter.check(settledKey);
        expect(tokens!.remaining).toBeGreaterThanOrEqual(300 - usage.total_tokens);
      },
      { timeout: 5_000, interval: 10 },
    );
    const upstreamCalls = gw.simulator!.stats().total;
    expect((await chat(gw, key, 200)).status).toBe(200);
    expect(gw.simulator!.stats().total).toBe(upstreamCalls + 1);
  });
});

describe('rate limits with REDIS_URL unreachable', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      simulator: false,
      env: { REDIS_URL: await closedPortRedisUrl() },
    });
  });
  afterAll(() => gw?.close());

  it('still enforces rpm per instance, and says so in the log and the metrics', async () => {
    const { key } = await gw.createKey({ rpm: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await gw.fetch(path, { key })).status);
    expect(statuses).toEqual([200, 200, 429]);

    const metrics = await (await gw.fetch('/metrics')).text();
    expect(metricValue(metrics, FALLBACK_GAUGE)).toBe(1);
    expect(metricValue(metrics, LOCAL_CHECKS_COUNTER)).toBe(3);
    const warnings = gw.logs.filter((l) => String(l.msg).includes('Redis unreachable'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 'warn', component: 'ratelimit' });
  });
});

describe.runIf(process.env.REDIS_URL)('rate limits shared through Redis', () => {
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    // A unique prefix per run keeps parallel runs on the same Redis apart.
    const prefix = `mgtest_${randomBytes(6).toString('hex')}`;
    const env = { REDIS_URL: process.env.REDIS_URL, MODELGATE_REDIS_PREFIX: prefix };
    [a, b] = await Promise.all([
      startTestGateway({ simulator: false, env }),
      startTestGateway({ simulator: false, env }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
  });

  it('holds one rpm budget across two gateway instances', async () => {
    // Each instance has its own fresh database: register the same secret in both (fresh → same id).
    const secret = `sk-${randomBytes(36).toString('base64url').replace(/[-_]/g, 'x').slice(0, 48)}`;
    const ka = await a.services.keys.create({ name: 'shared', quota: 1_000_000, rpm: 4, secret });
    const kb = await b.services.keys.create({ name: 'shared', quota: 1_000_000, rpm: 4, secret });
    expect(ka.record.id).toBe(kb.record.id);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const gw = i % 2 === 0 ? a : b;
      statuses.push((await gw.fetch(path, { key: secret })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    const metrics = await (await a.fetch('/metrics')).text();
    expect(metricValue(metrics, FALLBACK_GAUGE)).toBe(0);
  });
});

describe.runIf(process.env.REDIS_URL)('rate limits when Redis goes away under a gateway', () => {
  let proxy: TcpProxy;
  let gw: TestGateway;
  beforeAll(async () => {
    const target = new URL(process.env.REDIS_URL ?? '');
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    gw = await startTestGateway({
      simulator: false,
      env: {
        REDIS_URL: proxy.url,
        MODELGATE_REDIS_PREFIX: `mgtest_${randomBytes(6).toString('hex')}`,
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await proxy?.close();
  });

  it('keeps limiting, per instance, once the connection drops', async () => {
    const { key } = await gw.createKey({ rpm: 3 });
    const status = async () => (await gw.fetch(path, { key })).status;
    expect([await status(), await status()]).toEqual([200, 200]);
    let metrics = await (await gw.fetch('/metrics')).text();
    expect(metricValue(metrics, FALLBACK_GAUGE)).toBe(0);

    await proxy.cut();
    // This instance's own bucket starts full: 3 more, then 429.
    const after: number[] = [];
    for (let i = 0; i < 4; i++) after.push(await status());
    expect(after).toEqual([200, 200, 200, 429]);
    metrics = await (await gw.fetch('/metrics')).text();
    expect(metricValue(metrics, FALLBACK_GAUGE)).toBe(1);
    expect(gw.logs.filter((l) => String(l.msg).includes('Redis unreachable'))).toHaveLength(1);
  });
});
