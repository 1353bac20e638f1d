/**
 * The limiter's algorithm on a clock the test moves, in memory and (with REDIS_URL) through the
 * Redis script: both must give the same answers.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { LimitStore } from '../../src/limits/gcra.js';
import { createRateLimiter, type RateLimiter } from '../../src/limits/limiter.js';
import { createMemoryStore } from '../../src/limits/memory-store.js';
import { createRedisStore } from '../../src/limits/redis-store.js';
import { attempts, count, limitedKey } from './support.js';

const stores: Array<[string, () => Promise<LimitStore>]> = [
  ['memory', async () => createMemoryStore()],
];
if (process.env.REDIS_URL) {
  const url = process.env.REDIS_URL;
  stores.push([
    'redis',
    async () => {
      const store = createRedisStore(url);
      expect(await store.connected()).toBe(true);
      return store;
    },
  ]);
}

describe.each(stores)('rate limiter (%s)', (_name, makeStore) => {
  const opened: RateLimiter[] = [];
  // A clock far from 0 and from any real minute edge; each limiter gets a unique Redis prefix.
  let t = Date.now();
  const limiter = async () => {
    const l = createRateLimiter({
      store: await makeStore(),
      prefix: `mgtest_${randomBytes(6).toString('hex')}`,
      now: () => t,
    });
    opened.push(l);
    return l;
  };
  afterAll(() => Promise.all(opened.map((l) => l.close())));

  it('lets no double burst through around a minute boundary', async () => {
    const l = await limiter();
    const key = limitedKey({ rpm: 60 });
    // 60 requests in the last second of a clock minute, 60 more in the first second of the next.
    t = Math.floor(t / 60_000) * 60_000 + 59_000;
    expect(count(await attempts(60, () => l.check(key)))).toBe(60);
    t += 2_000;
    // A fixed window would reset here and admit 60 again; one unit drips back per second.
    expect(await attempts(60, () => l.check(key))).toEqual([true, true, ...Array(58).fill(false)]);
  });

  it('reports remaining, reset and Retry-After from the bucket', async () => {
    const l = await limiter();
    const key = limitedKey({ rpm: 3 });
    const first = await l.check(key);
    expect(first).toMatchObject({
      allowed: true,
      requests: { limit: 3, remaining: 2, resetMs: 20_000 },
    });
    await l.check(key);
    await l.check(key);
    const refused = await l.check(key);
    expect(refused).toMatchObject({ allowed: false, reason: 'requests', retryAfterSeconds: 20 });
    expect(refused.requests).toMatchObject({ remaining: 0, resetMs: 60_000 });
    t += 20_000;
    expect((await l.check(key)).allowed).toBe(true);
    expect((await l.check(key)).allowed).toBe(false);
  });

  it('holds limits whose unit is not a whole number of ms (7 rpm)', async () => {
    const l = await limiter();
    const key = limitedKey({ rpm: 7 });
    expect(count(await attempts(8, () => l.check(key)))).toBe(7);
  });

  it('reserves tpm up front and gives back the unused part when it settles', async () => {
    const l = await limiter();
    const key = limitedKey({ tpm: 1_000 });
    const first = await l.reserveTokens(key, 800);
    expect(first.decision).toMatchObject({ allowed: true, tokens: { remaining: 200 } });
    const second = await l.reserveTokens(key, 300);
    expect(second.decision).toMatchObject({ allowed: false, reason: 'tokens' });
    // 300 tokens need 100 more to drip back: 6 s at 1000 tokens per minute.
    expect(second.decision.retryAfterSeconds).toBe(6);

    await first.settle(150); // used 150 of the 800 held
    await first.settle(800); // settles once
    const third = await l.reserveTokens(key, 300);
    expect(third.decision).toMatchObject({ allowed: true, tokens: { remaining: 550 } });
    await third.release();
    expect((await l.reserveTokens(key, 850)).decision.allowed).toBe(true);
  });

  it('charges a request that used more than it reserved', async () => {
    const l = await limiter();
    const key = limitedKey({ tpm: 1_000 });
    const hold = await l.reserveTokens(key, 100);
    await hold.settle(1_100);
    // Overdrawn: even the per-request check refuses until the excess has dripped back (6 s).
    const check = await l.check(key);
    expect(check).toMatchObject({ allowed: false, reason: 'tokens', retryAfterSeconds: 6 });
    t += 6_000;
    expect((await l.check(key)).allowed).toBe(true);
  });

  it('refuses a reservation larger than the whole tpm, and charges nothing for it', async () => {
    const l = await limiter();
    const key = limitedKey({ tpm: 1_000 });
    const hold = await l.reserveTokens(key, 1_001);
    expect(hold.decision).toMatchObject({
      allowed: false,
      reason: 'tokens_over_limit',
      requestedTokens: 1_001,
      retryAfterSeconds: 60,
      tokens: { remaining: 1_000 },
    });
  });

  it('charges rpm and tpm together or not at all', async () => {
    const l = await limiter();
    const key = limitedKey({ rpm: 2, tpm: 100 });
    await (await l.reserveTokens(key, 100)).settle(200); // overdrawn by 100
    expect((await l.check(key)).reason).toBe('tokens');
    // The refused checks took no request units.
    t += 60_000;
    expect(await attempts(3, () => l.check(key))).toEqual([true, true, false]);
  });
});

describe.runIf(process.env.REDIS_URL)('two limiters on one Redis', () => {
  const opened: RateLimiter[] = [];
  afterAll(() => Promise.all(opened.map((l) => l.close())));
  const t = Date.now();
  const pair = async () => {
    const prefix = `mgtest_${randomBytes(6).toString('hex')}`;
    const make = async () => {
      const store = createRedisStore(process.env.REDIS_URL ?? '');
      expect(await store.connected()).toBe(true);
      const l = createRateLimiter({ store, prefix, now: () => t });
      opened.push(l);
      return l;
    };
    return Promise.all([make(), make()]);
  };

  it('share one rpm bucket', async () => {
    const [a, b] = await pair();
    const key = limitedKey({ rpm: 4 });
    const allowed = await attempts(6, (i) => (i % 2 === 0 ? a : b).check(key));
    expect(allowed).toEqual([true, true, true, true, false, false]);
  });

  it('see each other’s token reservations and settlements', async () => {
    const [a, b] = await pair();
    const key = limitedKey({ tpm: 1_000 });
    const held = await a.reserveTokens(key, 900);
    expect((await b.reserveTokens(key, 200)).decision.allowed).toBe(false);
    await held.settle(100);
    expect((await b.reserveTokens(key, 800)).decision).toMatchObject({
      allowed: true,
      tokens: { remaining: 100 },
    });
  });
});
