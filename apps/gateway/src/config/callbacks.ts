/**
 * Callback delivery: the waits between attempts, an attempt's deadline, how often the deliverer
 * looks for due rows and how many it sends at once, and whether callbacks (and image edits' input
 * URLs) may reach private addresses. From MODELGATE_CALLBACK_* or the YAML `callbacks:` section; a
 * variable wins over the file. Durations take ms, s, m, h (a bare number is ms).
 *
 *   callbacks:
 *     retry_schedule: [5s, 5m, 30m, 2h, 5h, 10h, 10h]   # waits between attempts; 8 attempts in all
 *     timeout: 10s
 *     poll_interval: 1s
 *     concurrency: 8
 */
import { z } from 'zod';
import { type Env, readSection, variable, yamlDuration, yamlSection } from './section.js';

export interface CallbackSettings {
  /** Waits before each retry, in ms: attempt n+1 is due `retryScheduleMs[n-1]` (± jitter) after attempt n. */
  retryScheduleMs: number[];
  /** Whole-attempt deadline (ms). */
  timeoutMs: number;
  /** How often an idle deliverer looks for due rows (ms). */
  pollIntervalMs: number;
  /** Attempts in flight per instance. */
  concurrency: number;
  /**
   * MODELGATE_CALLBACK_ALLOW_PRIVATE: loopback and private addresses (and, for image edits' input
   * URLs, plain http) allowed. Development and tests only. The one place this switch is read.
   */
  allowPrivate: boolean;
}

/** The documented schedule (docs/design.md#callbacks): 8 attempts over about 33 hours. */
export const DEFAULT_RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];

export const callbackVariables = {
  MODELGATE_CALLBACK_RETRY_SCHEDULE: variable.durations(),
  MODELGATE_CALLBACK_TIMEOUT: variable.duration(),
  MODELGATE_CALLBACK_POLL_INTERVAL: variable.duration(),
  MODELGATE_CALLBACK_ALLOW_PRIVATE: variable.flag(),
};

/** The YAML `callbacks:` section (all optional). */
const callbackFile = z
  .object({
    retry_schedule: z.array(yamlDuration).max(50).optional(),
    timeout: yamlDuration.optional(),
    poll_interval: yamlDuration.optional(),
    concurrency: z.number().int().min(1).max(256).optional(),
  })
  .strict();

export const callbackSection = z
  .object({ env: z.object(callbackVariables), file: yamlSection(callbackFile) })
  .transform(
    ({ env, file = {} }): CallbackSettings => ({
      retryScheduleMs:
        env.MODELGATE_CALLBACK_RETRY_SCHEDULE ?? file.retry_schedule ?? DEFAULT_RETRY_SCHEDULE_MS,
      timeoutMs: env.MODELGATE_CALLBACK_TIMEOUT ?? file.timeout ?? 10_000,
      pollIntervalMs: env.MODELGATE_CALLBACK_POLL_INTERVAL ?? file.poll_interval ?? 1_000,
      concurrency: file.concurrency ?? 8,
      allowPrivate: env.MODELGATE_CALLBACK_ALLOW_PRIVATE ?? false,
    }),
  );

/**
 * The callbacks section from an environment and the YAML `callbacks:` value.
 *
 * @example
 * readCallbackSettings({ MODELGATE_CALLBACK_TIMEOUT: '1.5s' }, undefined).timeoutMs; // 1500
 */
export function readCallbackSettings(env: Env, file: unknown): CallbackSettings {
  return readSection('callbacks', callbackSection, { env, file });
}
