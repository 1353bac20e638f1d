/** Rate limits (in memory, or shared through Redis) and the quota lease an idle key keeps. */
import { z } from 'zod';
import { variable } from './section.js';

export interface LimitsSettings {
  /** REDIS_URL or null (→ in-memory rate limits). */
  redisUrl: string | null;
  /** Prefix for Redis keys (MODELGATE_REDIS_PREFIX, default "modelgate"). */
  redisPrefix: string;
  /**
   * MODELGATE_REDIS_TIMEOUT_MS, default 250: longest a rate-limit check waits for Redis before this
   * instance answers it from memory (limits/fallback-store.ts).
   */
  redisTimeoutMs: number;
  /**
   * MODELGATE_LEASE_IDLE_MS, default 5000: how long an idle key keeps this instance's quota lease
   * (billing.ts). 0 returns it as soon as the key is idle (exact `used` in the database at all
   * times, one database round trip per request for a key used in spaced requests).
   */
  leaseIdleMs: number;
}

export const limitsVariables = {
  REDIS_URL: variable.url(['redis:', 'rediss:']),
  MODELGATE_REDIS_PREFIX: variable.text(),
  MODELGATE_REDIS_TIMEOUT_MS: variable.int({ min: 1 }),
  MODELGATE_LEASE_IDLE_MS: variable.int(),
};

export const limitsSection = z.object({ env: z.object(limitsVariables) }).transform(
  ({ env }): LimitsSettings => ({
    redisUrl: env.REDIS_URL ?? null,
    redisPrefix: env.MODELGATE_REDIS_PREFIX ?? 'modelgate',
    redisTimeoutMs: env.MODELGATE_REDIS_TIMEOUT_MS ?? 250,
    leaseIdleMs: env.MODELGATE_LEASE_IDLE_MS ?? 5_000,
  }),
);
