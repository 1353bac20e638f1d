/** GCRA buckets in this process: the store without Redis, and the fallback while Redis is away. */
import { addCost, type BucketCost, fits, type LimitStore, PERIOD_MS, withCosts } from './gcra.js';

/**
 * In-process buckets (one TAT per bucket). A take is synchronous, so it is atomic; full buckets
 * (TAT in the past) are swept once per period so idle keys cost no memory.
 *
 * @example
 * const store = createMemoryStore();
 * await store.take([{ bucket: 'rl:1:rpm', limit: 60, cost: 1 }], Date.now()); // { allowed: true, … }
 */
export function createMemoryStore(): LimitStore {
  const tats = new Map<string, number>();
  let lastSweep = Number.NEGATIVE_INFINITY;

  const sweep = (now: number) => {
    if (now - lastSweep < PERIOD_MS) return;
    lastSweep = now;
    for (const [bucket, tat] of tats) if (tat <= now) tats.delete(bucket);
  };
  const backlog = (bucket: string, now: number) => Math.max(0, (tats.get(bucket) ?? now) - now);
  const write = (bucket: string, backlogMs: number, now: number) => {
    if (backlogMs > 0) tats.set(bucket, now + backlogMs);
    else tats.delete(bucket);
  };

  const adjust = async (costs: readonly BucketCost[], now: number) => {
    for (const c of costs) write(c.bucket, addCost(backlog(c.bucket, now), c.limit, c.cost), now);
  };

  return {
    async take(costs, now) {
      sweep(now);
      const before = costs.map((c) => backlog(c.bucket, now));
      const after = costs.map((c, i) => addCost(before[i]!, c.limit, c.cost));
      const allowed = after.every(fits);
      if (allowed) for (const [i, c] of costs.entries()) write(c.bucket, after[i]!, now);
      return {
        allowed,
        backlogsMs: allowed ? after : before,
        adjust: (next, at) => adjust(withCosts(costs, next), at),
      };
    },
    async close() {
      tats.clear();
    },
  };
}
