/**
 * The deliverer's settings: the callbacks section of the configuration (`config/callbacks.ts`),
 * plus what is fixed in code (jitter, the claim's lease, how much of an answer is read).
 */
import type { Config } from '../config/config.js';

export interface DeliverySettings {
  /** Waits before each retry, in ms: attempt n+1 is due `retryScheduleMs[n-1]` (± jitter) after attempt n. */
  retryScheduleMs: number[];
  /** Fraction of each wait added or removed at random (0.2 → ±20 %), so retries of many deliveries spread out. */
  jitter: number;
  /** Whole-attempt deadline. */
  timeoutMs: number;
  /** How long a claim lasts: an instance that dies mid-attempt hands the row back after this. */
  leaseMs: number;
  /** How often an idle deliverer looks for due rows. */
  pollIntervalMs: number;
  /** Attempts in flight per instance. */
  concurrency: number;
  /** Bytes of a receiver's answer read before hanging up. */
  maxResponseBytes: number;
}

/** The deliverer's settings from the configuration's callbacks section. */
export function deliverySettingsFrom(config: Pick<Config, 'callbacks'>): DeliverySettings {
  const { retryScheduleMs, timeoutMs, pollIntervalMs, concurrency } = config.callbacks;
  return {
    retryScheduleMs,
    jitter: 0.2,
    timeoutMs,
    leaseMs: Math.max(timeoutMs * 3, 30_000),
    pollIntervalMs: Math.max(10, pollIntervalMs),
    concurrency,
    maxResponseBytes: 4096,
  };
}

/** The wait before the next attempt after `attemptsSoFar` failed ones, or null when none is left. */
export function nextDelayMs(
  settings: Pick<DeliverySettings, 'retryScheduleMs' | 'jitter'>,
  attemptsSoFar: number,
  random: () => number = Math.random,
): number | null {
  const base = settings.retryScheduleMs[attemptsSoFar - 1];
  if (base === undefined) return null;
  const spread = base * settings.jitter;
  return Math.max(0, Math.round(base - spread + random() * 2 * spread));
}
