import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryStore,
  createRateLimiter,
  formatResetDuration,
} from '../src/limits/limiter.js';
import { startTestGateway, type TestGateway } from './helpers/index.js';

const path = '/v1/dashboard/billing/credit_grants';

/** Run fn again if a minute boundary (a new fixed window) fell inside it: no flaky counts. */
async function withinOneWindow(fn: () => Promise<void>): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const before = Math.floor(Date.now() / 60_000);
    try {
      await fn();
      return;
    } catch (err) {
      if (attempt > 0 || Math.floor(Date.now() / 60_000) === before) throw err;
    }
  }
}

describe('rate limits (memory)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ simulator: false });
  });
  afterAll(() => gw?.close());

  it('counts requests per key, answers 429 with Retry-After past rpm, and sends x-ratelimit-*', () =>
    withinOneWindow(async () => {
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
          expect(last.headers.get('x-ratelimit-reset-requests')).toMatch(
            /^(\d+ms|\d+(\.\d+)?s|1m0s)$/,
          );
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const retryAfter = Number(last!.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const body = (await last!.json()) as { error: { type: string; code: string } };
      expect(body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limit_requests' });
      // Another key has its own budget.
      expect((await gw.fetch(path, { key: other.key })).status).toBe(200);
    }));

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

  it('refuses a key that used its tpm budget until the window resets', async () => {
    let now = 120_000;
    const limiter = createRateLimiter({ store: createMemoryStore(() => now), now: () => now });
    const key = {
      id: 7,
      name: 't',
      role: 'user' as const,
      models: null,
      rpm: null,
      tpm: 100,
      expiresAt: null,
    };
    expect((await limiter.check(key)).allowed).toBe(true);
    await limiter.recordTokens(key, 60);
    const mid = await limiter.check(key);
    expect(mid).toMatchObject({ allowed: true, tokens: { limit: 100, remaining: 40 } });
    await limiter.recordTokens(key, 50);
    const over = await limiter.check(key);
    expect(over).toMatchObject({ allowed: false, reason: 'tokens' });
    now += 60_000;
    expect((await limiter.check(key)).allowed).toBe(true);
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

  it('holds one rpm budget across two gateway instances', () =>
    withinOneWindow(async () => {
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
    }));
});
