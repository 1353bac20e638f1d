/**
 * Delivery settings: the defaults of docs/design.md#callbacks, overridable from the YAML `callbacks:` section or env.
 *
 *   callbacks:
 *     retry_schedule: [5s, 5m, 30m, 2h, 5h, 10h, 10h]   # waits between attempts; 8 attempts in all
 *     timeout: 10s
 *     poll_interval: 1s
 *     concurrency: 8
 *
 * Env: MODELGATE_CALLBACK_RETRY_SCHEDULE="5s,5m,30m", MODELGATE_CALLBACK_TIMEOUT="10s",
 * MODELGATE_CALLBACK_POLL_INTERVAL="1s". Durations take ms, s, m, h (a bare number is ms).
 */
import { z } from 'zod';
import { type Config, ConfigError } from '../config/config.js';

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
  /** MODELGATE_CALLBACK_ALLOW_PRIVATE=1. */
  allowPrivate: boolean;
}

export const DEFAULT_RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** "250ms", "5s", "30m", "2h", or a bare number of ms. */
export function parseDuration(value: string | number, where: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return Math.round(value);
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(String(value));
  if (!match)
    throw new ConfigError(`${where}: "${value}" is not a duration (e.g. 500ms, 5s, 30m, 2h)`);
  return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!);
}

const duration = z.union([z.string(), z.number()]);
const fileSection = z
  .object({
    retry_schedule: z.array(duration).min(0).max(50).optional(),
    timeout: duration.optional(),
    poll_interval: duration.optional(),
    concurrency: z.number().int().min(1).max(256).optional(),
  })
  .strict()
  .optional();

/** Reads the settings from the config (YAML section, then env overrides). */
export function deliverySettingsFrom(config: Config): DeliverySettings {
  const parsed = fileSection.safeParse(config.file.callbacks ?? undefined);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`MODELGATE_CONFIG: callbacks.${issue.path.join('.')}: ${issue.message}`);
  }
  const file = parsed.data ?? {};
  const env = config.env;
  const retryScheduleMs = env.MODELGATE_CALLBACK_RETRY_SCHEDULE
    ? env.MODELGATE_CALLBACK_RETRY_SCHEDULE.split(',')
        .filter((part) => part.trim() !== '')
        .map((part) => parseDuration(part, 'MODELGATE_CALLBACK_RETRY_SCHEDULE'))
    : (file.retry_schedule?.map((d, i) => parseDuration(d, `callbacks.retry_schedule.${i}`)) ??
      DEFAULT_RETRY_SCHEDULE_MS);
  const timeoutMs = env.MODELGATE_CALLBACK_TIMEOUT
    ? parseDuration(env.MODELGATE_CALLBACK_TIMEOUT, 'MODELGATE_CALLBACK_TIMEOUT')
    : file.timeout !== undefined
      ? parseDuration(file.timeout, 'callbacks.timeout')
      : 10_000;
  const pollIntervalMs = env.MODELGATE_CALLBACK_POLL_INTERVAL
    ? parseDuration(env.MODELGATE_CALLBACK_POLL_INTERVAL, 'MODELGATE_CALLBACK_POLL_INTERVAL')
    : file.poll_interval !== undefined
      ? parseDuration(file.poll_interval, 'callbacks.poll_interval')
      : 1_000;
  return {
    retryScheduleMs,
    jitter: 0.2,
    timeoutMs,
    leaseMs: Math.max(timeoutMs * 3, 30_000),
    pollIntervalMs: Math.max(10, pollIntervalMs),
    concurrency: file.concurrency ?? 8,
    maxResponseBytes: 4096,
    allowPrivate: config.callbackAllowPrivate,
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
