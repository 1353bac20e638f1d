/** Window counters in Redis: one Lua script = one atomic round trip per check, shared by all instances. */
import { Redis } from 'ioredis';
import type { CounterStore } from './limiter.js';

// INCRBY then set the expiry only when the key is new, atomically.
const INCR_SCRIPT = `
local v = redis.call('INCRBY', KEYS[1], ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return v`;

/**
 * @example
 * const store = createRedisStore('redis://127.0.0.1:6379');
 * await store.incr('modelgate:rl:1:r:29000000', 1, 65_000); // → 1
 */
export function createRedisStore(url: string): CounterStore {
  const redis = new Redis(url, {
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  // Connection errors surface on the command that needs Redis; keep them from crashing the process.
  redis.on('error', () => {});
  redis.defineCommand('mgIncr', { numberOfKeys: 1, lua: INCR_SCRIPT });
  return {
    async incr(bucket, by, ttlMs) {
      const v = await (
        redis as unknown as { mgIncr(k: string, by: number, ttl: number): Promise<number> }
      ).mgIncr(bucket, by, Math.max(1, Math.ceil(ttlMs)));
      return Number(v);
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
