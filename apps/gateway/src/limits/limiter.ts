/**
 * Per-key rate limits (rpm = requests per minute, tpm = tokens per minute).
 *
 * Algorithm: fixed one-minute windows aligned to the clock (window = floor(now / 60 s)). Each request
 * counts 1 against rpm; tpm is checked before a request (a key already at its token budget is refused)
 * and text routes add the tokens they used afterwards (`recordTokens`). A fixed window may let up to
 * twice the limit through across a window boundary; that is the documented trade for O(1) state and a
 * single atomic Redis round trip. Counters live in memory, or in Redis when REDIS_URL is set so that
 * several gateway instances share them.
 */
import type { AuthKey } from '../keys/keys.js';

export const WINDOW_MS = 60_000;

/** Storage for window counters. */
export interface CounterStore {
  /** Add `by` (may be 0) to `bucket`, which expires after `ttlMs`; returns the new value. */
  incr(bucket: string, by: number, ttlMs: number): Promise<number>;
  close(): Promise<void>;
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Seconds until the current window resets (rounded up, ≥ 1: the Retry-After value). */
  resetSeconds: number;
  /** Milliseconds until the current window resets. */
  resetMs: number;
}

/**
 * An OpenAI-style duration for x-ratelimit-reset-*: `250ms`, `8.64s`, `1m0s`.
 *
 * @example formatResetDuration(60_000); // '1m0s'
 */
export function formatResetDuration(ms: number): string {
  const v = Math.max(0, Math.round(ms));
  if (v < 1000) return `${v}ms`;
  if (v < 60_000) return `${Number((v / 1000).toFixed(3))}s`;
  const minutes = Math.floor(v / 60_000);
  const seconds = Number(((v % 60_000) / 1000).toFixed(3));
  return `${minutes}m${seconds}s`;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Which limit refused the request. */
  reason: 'requests' | 'tokens' | null;
  retryAfterSeconds: number;
  requests: RateLimitState | null;
  tokens: RateLimitState | null;
}

export interface RateLimiter {
  /** Count one request for `key` and decide. Keys without rpm/tpm are always allowed (no state). */
  check(key: AuthKey): Promise<RateLimitDecision>;
  /**
   * Add tokens a request used to the key's tpm window (no-op for keys without tpm).
   * @example await services.limiter.recordTokens(key, usage.total_tokens);
   */
  recordTokens(key: AuthKey, tokens: number): Promise<void>;
  close(): Promise<void>;
}

/** In-process counters; expired windows are swept lazily. */
export function createMemoryStore(now: () => number = Date.now): CounterStore {
  const counters = new Map<string, { value: number; expires: number }>();
  let lastSweep = now();
  return {
    async incr(bucket, by, ttlMs) {
      const t = now();
      if (t - lastSweep > WINDOW_MS) {
        for (const [k, v] of counters) if (v.expires <= t) counters.delete(k);
        lastSweep = t;
      }
      let c = counters.get(bucket);
      if (!c || c.expires <= t) {
        c = { value: 0, expires: t + ttlMs };
        counters.set(bucket, c);
      }
      c.value += by;
      return c.value;
    },
    async close() {
      counters.clear();
    },
  };
}

export interface LimiterOptions {
  store: CounterStore;
  /** Prefix for bucket names (Redis keys); lets tests and deployments share one Redis. */
  prefix?: string;
  now?: () => number;
}

export function createRateLimiter(options: LimiterOptions): RateLimiter {
  const { store } = options;
  const prefix = options.prefix ?? 'modelgate';
  const now = options.now ?? Date.now;

  const windowOf = (t: number) => Math.floor(t / WINDOW_MS);
  const bucket = (kind: 'r' | 't', keyId: number, w: number) =>
    `${prefix}:rl:${keyId}:${kind}:${w}`;

  return {
    async check(key) {
      const t = now();
      const w = windowOf(t);
      const resetMs = (w + 1) * WINDOW_MS - t;
      const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
      // TTL a bit past the window end so a slow clock on another instance still finds the counter.
      const ttl = (w + 1) * WINDOW_MS - t + 5_000;
      let requests: RateLimitState | null = null;
      let tokens: RateLimitState | null = null;
      let reason: RateLimitDecision['reason'] = null;

      if (key.rpm !== null && key.rpm !== undefined) {
        const count = await store.incr(bucket('r', key.id, w), 1, ttl);
        requests = {
          limit: key.rpm,
          remaining: Math.max(0, key.rpm - count),
          resetSeconds,
          resetMs,
        };
        if (count > key.rpm) reason = 'requests';
      }
      if (key.tpm !== null && key.tpm !== undefined) {
        const used = await store.incr(bucket('t', key.id, w), 0, ttl);
        tokens = { limit: key.tpm, remaining: Math.max(0, key.tpm - used), resetSeconds, resetMs };
        if (reason === null && used >= key.tpm) reason = 'tokens';
      }
      return {
        allowed: reason === null,
        reason,
        retryAfterSeconds: resetSeconds,
        requests,
        tokens,
      };
    },

    async recordTokens(key, tokens) {
      if (key.tpm === null || key.tpm === undefined || !(tokens > 0)) return;
      const t = now();
      const w = windowOf(t);
      await store.incr(bucket('t', key.id, w), Math.ceil(tokens), (w + 1) * WINDOW_MS - t + 5_000);
    },

    close: () => store.close(),
  };
}
