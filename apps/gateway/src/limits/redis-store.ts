/**
 * GCRA buckets in Redis, shared by every gateway instance: one Lua script runs each take (rpm and
 * tpm together) or settlement atomically, in one round trip. Commands fail fast instead of waiting:
 * no offline queue, a bounded command timeout, and no re-sending after a reconnect (a take sent
 * twice would charge twice). The caller (fallback-store.ts) serves from memory when this throws.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { type BucketCost, EPSILON_MS, type LimitStore, PERIOD_MS, withCosts } from './gcra.js';

/**
 * The gcra.ts arithmetic over several buckets at once. KEYS: the buckets. ARGV: now (ms), mode
 * ('take': charge all or none; 'adjust': charge unconditionally, costs may be negative), period,
 * epsilon, then a limit and a cost per bucket. Returns {allowed, backlog ms per bucket…}; backlogs
 * are strings because Redis truncates Lua numbers to integers. A bucket holds its TAT and expires
 * a second after it is full again (a missing bucket is a full one).
 */
export const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local take = ARGV[2] == 'take'
local period = tonumber(ARGV[3])
local epsilon = tonumber(ARGV[4])
local before, after = {}, {}
local allowed = 1
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[3 + 2 * i])
  local cost = tonumber(ARGV[4 + 2 * i])
  local tat = tonumber(redis.call('GET', key)) or now
  before[i] = math.max(0, tat - now)
  after[i] = math.max(0, before[i] + cost * period / limit)
  if after[i] > period + epsilon then allowed = 0 end
end
local result = after
if take and allowed == 0 then
  result = before
else
  allowed = 1
  for i, key in ipairs(KEYS) do
    if after[i] > 0 then
      redis.call('SET', key, string.format('%.3f', now + after[i]), 'PX', math.ceil(after[i]) + 1000)
    else
      redis.call('DEL', key)
    end
  end
end
local reply = {allowed}
for i = 1, #KEYS do reply[i + 1] = string.format('%.3f', result[i]) end
return reply`;

const SCRIPT_SHA = createHash('sha1').update(GCRA_SCRIPT).digest('hex');

export interface RedisStoreOptions {
  /** Longest a command may take before it fails (default 250 ms, MODELGATE_REDIS_TIMEOUT_MS). */
  timeoutMs?: number;
}

export interface RedisLimitStore extends LimitStore {
  /** Waits, at most the connect timeout, for the first connection; false when it failed. */
  connected(): Promise<boolean>;
}

const DEFAULT_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 1_000;

/**
 * @example
 * const store = createRedisStore('redis://127.0.0.1:6379');
 * await store.take([{ bucket: 'modelgate:rl:1:rpm', limit: 60, cost: 1 }], Date.now());
 */
export function createRedisStore(url: string, options: RedisStoreOptions = {}): RedisLimitStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    commandTimeout: timeoutMs,
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  });
  // Failures surface on the command that needs Redis (and are logged by the fallback); the
  // connection's own error events would otherwise crash the process.
  redis.on('error', () => {});

  const run = async (mode: 'take' | 'adjust', costs: readonly BucketCost[], now: number) => {
    const keys = costs.map((c) => c.bucket);
    const args = [now, mode, PERIOD_MS, EPSILON_MS, ...costs.flatMap((c) => [c.limit, c.cost])];
    let reply: unknown;
    try {
      reply = await redis.evalsha(SCRIPT_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      // A Redis restart or SCRIPT FLUSH forgot the script: send it whole once, which caches it again.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      reply = await redis.eval(GCRA_SCRIPT, keys.length, ...keys, ...args);
    }
    return parseReply(reply, costs.length);
  };

  const adjust = async (costs: readonly BucketCost[], now: number) => {
    await run('adjust', costs, now);
  };

  return {
    async take(costs, now) {
      const { allowed, backlogsMs } = await run('take', costs, now);
      return {
        allowed,
        backlogsMs,
        adjust: (next, at) => adjust(withCosts(costs, next), at),
      };
    },
    connected: () => firstConnection(redis),
    async close() {
      if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
      else redis.disconnect();
    },
  };
}

function parseReply(reply: unknown, buckets: number): { allowed: boolean; backlogsMs: number[] } {
  if (!Array.isArray(reply) || reply.length !== buckets + 1) {
    throw new Error('unexpected reply from the rate-limit script');
  }
  return { allowed: reply[0] === 1, backlogsMs: reply.slice(1).map(Number) };
}

function firstConnection(redis: Redis): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      resolve(ok);
    };
    const onReady = () => done(true);
    const onError = () => done(false);
    const timer = setTimeout(() => done(false), CONNECT_TIMEOUT_MS);
    redis.once('ready', onReady);
    redis.once('error', onError);
  });
}
