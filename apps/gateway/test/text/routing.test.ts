import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/providers/text/types.js';
import { CircuitBreaker } from '../../src/routing/circuit-breaker.js';
import { pickWeighted, Router, RoutingError } from '../../src/routing/router.js';

const a = { id: 'a', weight: 3 };
const b = { id: 'b', weight: 1 };
const c = { id: 'c', weight: 0 };

/** A deterministic "random" sequence. */
function sequence(...values: number[]) {
  let i = 0;
  return () => values[i++ % values.length]!;
}

describe('pickWeighted', () => {
  it('picks in proportion to weight and skips excluded and zero-weight deployments', () => {
    expect(pickWeighted([a, b], new Set(), () => 0.7)?.id).toBe('a'); // 0.7*4=2.8 < 3
    expect(pickWeighted([a, b], new Set(), () => 0.8)?.id).toBe('b'); // 3.2 ≥ 3
    expect(pickWeighted([a, b, c], new Set(['a']), () => 0.99)?.id).toBe('b');
    expect(pickWeighted([a, b], new Set(['a', 'b']))).toBeNull();
    const counts = { a: 0, b: 0 };
    let x = 0;
    for (let i = 0; i < 1000; i++)
      counts[pickWeighted([a, b], new Set(), () => (x = (x + 0.6180339) % 1))!.id as 'a' | 'b']++;
    expect(counts.a).toBeGreaterThan(700);
    expect(counts.a).toBeLessThan(800);
  });
});

const serverError = () => new UpstreamError('status', 'boom', 500);
const rateLimited = (s: number) => new UpstreamError('status', 'slow down', 429, s);
const timeout = () => new UpstreamError('timeout', 'timed out');

describe('Router', () => {
  it('fails over to another deployment on a retryable error, never the same one', async () => {
    const router = new Router({ random: sequence(0) });
    const calls: string[] = [];
    const result = await router.run([a, b], async (d) => {
      calls.push(d.id);
      if (d.id === 'a') throw serverError();
      return 'ok from b';
    });
    expect(result).toBe('ok from b');
    expect(calls).toEqual(['a', 'b']);
  });

  it('does not fail over on a non-retryable upstream error', async () => {
    const router = new Router({ random: sequence(0) });
    const calls: string[] = [];
    await expect(
      router.run([a, b], async (d) => {
        calls.push(d.id);
        throw new UpstreamError('status', 'bad request', 400);
      }),
    ).rejects.toMatchObject({ status: 400 });
    expect(calls).toEqual(['a']);
  });

  it('answers 429 with the shortest Retry-After when every deployment was rate limited', async () => {
    const router = new Router();
    const error = await router
      .run([a, b], async (d) => {
        throw rateLimited(d.id === 'a' ? 7 : 3);
      })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RoutingError);
    expect(error).toMatchObject({ status: 429, type: 'rate_limit_error', retryAfterSeconds: 3 });
  });

  it('answers 504 when all timed out, 502 for a mix', async () => {
    const router = new Router();
    await expect(
      router.run([a, b], async () => {
        throw timeout();
      }),
    ).rejects.toMatchObject({ status: 504, type: 'upstream_timeout' });
    let n = 0;
    await expect(
      router.run([a, b], async () => {
        throw n++ === 0 ? timeout() : serverError();
      }),
    ).rejects.toMatchObject({ status: 502, type: 'upstream_error' });
  });

  it('cools a repeatedly failing deployment down, then lets one trial through', async () => {
    let now = 0;
    const breaker = new CircuitBreaker({
      failureThreshold: 2,
      windowMs: 1000,
      cooldownMs: 5000,
      now: () => now,
    });
    const router = new Router({ breaker, random: sequence(0) });
    const calls: string[] = [];
    const attempt = async (d: { id: string }) => {
      calls.push(d.id);
      if (d.id === 'a') throw serverError();
      return d.id;
    };
    await router.run([a, b], attempt);
    await router.run([a, b], attempt); // second failure of a within the window → open
    calls.length = 0;
    expect(await router.run([a, b], attempt)).toBe('b');
    expect(calls).toEqual(['b']); // a skipped while cooling down
    await expect(router.run([a], attempt)).rejects.toMatchObject({
      status: 503,
      type: 'overloaded_error',
      retryAfterSeconds: 5,
    });
    now = 5000;
    expect(breaker.tryAcquire('a')).toBe(true); // the single trial
    expect(breaker.tryAcquire('a')).toBe(false); // concurrent requests wait for it
    breaker.recordSuccess('a');
    expect(breaker.tryAcquire('a')).toBe(true);
  });

  it('re-opens the circuit when the trial fails', () => {
    let now = 0;
    const breaker = new CircuitBreaker({
      failureThreshold: 1,
      windowMs: 1000,
      cooldownMs: 100,
      now: () => now,
    });
    breaker.recordFailure('x');
    expect(breaker.isAvailable('x')).toBe(false);
    now = 100;
    expect(breaker.tryAcquire('x')).toBe(true);
    breaker.recordFailure('x');
    expect(breaker.isAvailable('x')).toBe(false);
    expect(breaker.msUntilAvailable('x')).toBe(100);
  });
});
