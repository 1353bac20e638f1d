/**
 * Shared limits that degrade to per-instance limits, never to none. While Redis answers, every
 * take goes there. The first failure (unreachable, error, timeout) switches this instance to its
 * in-memory buckets, logs once, and raises the `modelgate_ratelimit_fallback` gauge; a background
 * probe (at most one per probe interval, never on a request's path) switches back, logs once, and
 * lowers it. With n instances a key may then get up to n × its limit in total: bounded, and visible.
 */
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { BucketCost, LimitStore, TakeOutcome } from './gcra.js';

export const FALLBACK_GAUGE = 'modelgate_ratelimit_fallback';
export const LOCAL_CHECKS_COUNTER = 'modelgate_ratelimit_local_checks_total';

export interface FallbackStoreOptions {
  shared: LimitStore;
  local: LimitStore;
  log: Logger;
  metrics: Metrics;
  /** Least time between two recovery probes while serving locally (default 1000 ms). */
  probeIntervalMs?: number;
}

/**
 * @example
 * const store = createFallbackStore({ shared: createRedisStore(url), local: createMemoryStore(), log, metrics });
 * await store.take([{ bucket: 'modelgate:rl:1:rpm', limit: 60, cost: 1 }], Date.now());
 */
export function createFallbackStore(options: FallbackStoreOptions): LimitStore {
  const { shared, local, log } = options;
  const probeIntervalMs = options.probeIntervalMs ?? 1_000;
  const gauge = options.metrics.gauge(
    FALLBACK_GAUGE,
    '1 while Redis is unreachable and rate limits are enforced per instance, else 0.',
  );
  const localChecks = options.metrics.counter(
    LOCAL_CHECKS_COUNTER,
    'Rate-limit checks served from per-instance memory because Redis was unreachable.',
  );
  gauge.set(undefined, 0);

  let usingLocal = false;
  let lastProbe = 0;
  let probing = false;
  let closed = false;

  const enterFallback = (err: unknown) => {
    if (usingLocal || closed) return;
    usingLocal = true;
    lastProbe = performance.now();
    gauge.set(undefined, 1);
    log.warn('rate limits: Redis unreachable; enforcing per-instance limits from memory', {
      err: err instanceof Error ? err.message : String(err),
    });
  };
  const leaveFallback = () => {
    if (!usingLocal || closed) return;
    usingLocal = false;
    gauge.set(undefined, 0);
    log.info('rate limits: Redis reachable again; limits are shared across instances again');
  };
  const probe = () => {
    const t = performance.now();
    if (probing || t - lastProbe < probeIntervalMs) return;
    probing = true;
    lastProbe = t;
    // A take of no buckets runs the script itself: Redis is back only when checks would work
    // (a bare PING would also succeed on a server that refuses the script: the state would flap).
    shared
      .take([], Date.now())
      .then(leaveFallback, () => {})
      .finally(() => {
        probing = false;
      });
  };

  // A settlement whose store became unreachable is dropped: a lost refund only makes the key
  // wait longer, a lost extra charge is bounded by what that one request overran its reservation.
  const guarded = (outcome: TakeOutcome): TakeOutcome => ({
    ...outcome,
    adjust: (costs, now) => outcome.adjust(costs, now).catch(enterFallback),
  });

  const takeLocally = async (costs: readonly BucketCost[], now: number) => {
    localChecks.inc();
    return local.take(costs, now);
  };

  return {
    async take(costs, now) {
      if (usingLocal) {
        probe();
        return takeLocally(costs, now);
      }
      try {
        return guarded(await shared.take(costs, now));
      } catch (err) {
        enterFallback(err);
        return takeLocally(costs, now);
      }
    },
    async close() {
      closed = true;
      await Promise.all([shared.close(), local.close()]);
    },
  };
}
