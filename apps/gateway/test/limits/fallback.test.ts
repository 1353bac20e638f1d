/**
 * Redis unreachable, failing or hanging: limits fall back to this instance's memory (never to no
 * limit), say so once in the log and in a metric, and go back to Redis when it answers again.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createFallbackStore,
  FALLBACK_GAUGE,
  LOCAL_CHECKS_COUNTER,
} from '../../src/limits/fallback-store.js';
import { createRateLimiter, type RateLimiter } from '../../src/limits/limiter.js';
import { createMemoryStore } from '../../src/limits/memory-store.js';
import { createRedisStore } from '../../src/limits/redis-store.js';
import { createMetrics, type Metrics } from '../../src/observability/metrics.js';
import {
  attempts,
  closedPortRedisUrl,
  collectingLogger,
  limitedKey,
  metricValue,
} from './support.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

const FALLBACK_MSG = 'rate limits: Redis unreachable; enforcing per-instance limits from memory';
const RECOVERY_MSG = 'rate limits: Redis reachable again; limits are shared across instances again';

interface Setup {
  limiter: RateLimiter;
  metrics: Metrics;
  lines: Record<string, unknown>[];
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** Wired as the gateway wires it: connect (bounded wait), then serve through the fallback. */
async function sharedLimiter(url: string, timeoutMs = 250): Promise<Setup> {
  const { log, lines } = collectingLogger();
  const metrics = createMetrics();
  const shared = createRedisStore(url, { timeoutMs });
  await shared.connected();
  const store = createFallbackStore({
    shared,
    local: createMemoryStore(),
    log,
    metrics,
    probeIntervalMs: 20,
  });
  const limiter = createRateLimiter({
    store,
    prefix: `mgtest_${randomBytes(6).toString('hex')}`,
  });
  cleanups.push(() => limiter.close());
  return { limiter, metrics, lines };
}

const messages = (lines: Record<string, unknown>[], msg: string) =>
  lines.filter((l) => l.msg === msg);
const gauge = (s: Setup) => metricValue(s.metrics.render(), FALLBACK_GAUGE);

describe('rate limits with Redis unreachable', () => {
  it('enforce the limit per instance, log once, and raise the fallback metric', async () => {
    const s = await sharedLimiter(await closedPortRedisUrl());
    const key = limitedKey({ rpm: 3 });
    expect(await attempts(5, () => s.limiter.check(key))).toEqual([true, true, true, false, false]);
    expect(messages(s.lines, FALLBACK_MSG)).toHaveLength(1);
    expect(messages(s.lines, FALLBACK_MSG)[0]).toMatchObject({ level: 'warn' });
    expect(gauge(s)).toBe(1);
    expect(metricValue(s.metrics.render(), LOCAL_CHECKS_COUNTER)).toBe(5);
  });

  it('reserve tpm per instance too', async () => {
    const s = await sharedLimiter(await closedPortRedisUrl());
    const key = limitedKey({ tpm: 100 });
    expect((await s.limiter.reserveTokens(key, 80)).decision.allowed).toBe(true);
    expect((await s.limiter.reserveTokens(key, 80)).decision).toMatchObject({
      allowed: false,
      reason: 'tokens',
    });
  });
});

describe.runIf(process.env.REDIS_URL)('rate limits when Redis goes away mid-way', () => {
  const target = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const proxy = async (): Promise<TcpProxy> => {
    const p = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    cleanups.push(() => p.close());
    return p;
  };

  it('fall back when the connection drops and share again once Redis is back', async () => {
    const p = await proxy();
    const s = await sharedLimiter(p.url);
    const key = limitedKey({ rpm: 3 });
    const other = limitedKey({ rpm: 1_000 });
    expect((await s.limiter.check(other)).allowed).toBe(true);
    expect(gauge(s)).toBe(0);
    expect(await attempts(2, () => s.limiter.check(key))).toEqual([true, true]); // in Redis

    await p.cut();
    // This instance's memory knows nothing of the 2 taken in Redis: a full local budget of 3.
    expect(await attempts(4, () => s.limiter.check(key))).toEqual([true, true, true, false]);
    expect(gauge(s)).toBe(1);
    expect(messages(s.lines, FALLBACK_MSG)).toHaveLength(1);

    await p.restore();
    await vi.waitFor(
      async () => {
        await s.limiter.check(other); // each check may start a recovery ping
        expect(gauge(s)).toBe(0);
      },
      { timeout: 10_000, interval: 25 },
    );
    expect(messages(s.lines, RECOVERY_MSG)).toHaveLength(1);
    expect(messages(s.lines, FALLBACK_MSG)).toHaveLength(1);
    // Back on the shared bucket, which still holds the 2 taken before the outage.
    expect(await attempts(2, () => s.limiter.check(key))).toEqual([true, false]);
  });

  it('send the whole script with EVAL when Redis answers NOSCRIPT, without falling back', async () => {
    const p = await proxy();
    const s = await sharedLimiter(p.url);
    const key = limitedKey({ rpm: 2 });
    expect((await s.limiter.check(key)).allowed).toBe(true);
    // As after a Redis restart or SCRIPT FLUSH, without flushing the scripts others use.
    let refused = false;
    p.answerOnce((chunk) => {
      if (!chunk.toString('latin1').toLowerCase().includes('evalsha')) return null;
      refused = true;
      return '-NOSCRIPT No matching script. Please use EVAL.\r\n';
    });
    expect(await attempts(2, () => s.limiter.check(key))).toEqual([true, false]);
    expect(refused).toBe(true);
    expect(gauge(s)).toBe(0);
    expect(messages(s.lines, FALLBACK_MSG)).toHaveLength(0);
  });

  it('fall back, without hanging the request, when Redis stops answering', async () => {
    const p = await proxy();
    const s = await sharedLimiter(p.url, 100);
    const key = limitedKey({ rpm: 2 });
    expect((await s.limiter.check(key)).allowed).toBe(true);
    expect(gauge(s)).toBe(0);

    p.stall();
    // The command times out (100 ms) and the check is answered from memory.
    expect(await attempts(3, () => s.limiter.check(key))).toEqual([true, true, false]);
    expect(gauge(s)).toBe(1);
    expect(messages(s.lines, FALLBACK_MSG)[0]?.err).toMatch(/timed out/i);
  });
});
