/**
 * The video engine's settings: how often it polls, how long it holds a task, how many tasks and
 * provider calls at once, and upstream model ids. From MODELGATE_VIDEO_* or the YAML `video:`
 * section; a variable wins over the file.
 */
import { z } from 'zod';
import { type Env, readSection, variable, yamlSection } from './section.js';

export interface VideoSettings {
  /** Delay between polls of one task, and between claim rounds (ms). Default 5000. */
  pollIntervalMs: number;
  /** How long an instance holds a claimed task before another may take it (ms). Default 120000. */
  leaseMs: number;
  /** Overrides every model's deadline (ms); undefined = each model's own. */
  deadlineMs: number | undefined;
  /** Tasks processed at once by this instance. Default 32. */
  maxInFlight: number;
  /** Tasks processed at once per provider by this instance. Default 8. */
  providerConcurrency: number;
  /** Upstream model id per gateway model, e.g. `seedance-2: doubao-seedance-2-0-260128`. */
  upstreamModels: Record<string, string>;
}

export const videoVariables = {
  MODELGATE_VIDEO_POLL_INTERVAL_MS: variable.int({ min: 1 }),
  MODELGATE_VIDEO_LEASE_MS: variable.int({ min: 1 }),
  MODELGATE_VIDEO_DEADLINE_MS: variable.int({ min: 1 }),
  MODELGATE_VIDEO_MAX_IN_FLIGHT: variable.int({ min: 1 }),
  MODELGATE_VIDEO_PROVIDER_CONCURRENCY: variable.int({ min: 1 }),
};

/** The YAML `video:` section (all optional). */
const videoFile = z
  .object({
    poll_interval_ms: z.number().int().min(1).optional(),
    lease_ms: z.number().int().min(100).optional(),
    deadline_ms: z.number().int().min(1).optional(),
    max_in_flight: z.number().int().min(1).optional(),
    provider_concurrency: z.number().int().min(1).optional(),
    upstream_models: z.record(z.string(), z.string().min(1)).optional(),
  })
  .strict();

export const videoSection = z
  .object({ env: z.object(videoVariables), file: yamlSection(videoFile) })
  .transform(({ env, file = {} }): VideoSettings => {
    return {
      pollIntervalMs: env.MODELGATE_VIDEO_POLL_INTERVAL_MS ?? file.poll_interval_ms ?? 5000,
      leaseMs: env.MODELGATE_VIDEO_LEASE_MS ?? file.lease_ms ?? 120_000,
      deadlineMs: env.MODELGATE_VIDEO_DEADLINE_MS ?? file.deadline_ms,
      maxInFlight: env.MODELGATE_VIDEO_MAX_IN_FLIGHT ?? file.max_in_flight ?? 32,
      providerConcurrency:
        env.MODELGATE_VIDEO_PROVIDER_CONCURRENCY ?? file.provider_concurrency ?? 8,
      upstreamModels: file.upstream_models ?? {},
    };
  });

/**
 * The video section from an environment and the YAML `video:` value.
 *
 * @example
 * readVideoSettings({ MODELGATE_VIDEO_POLL_INTERVAL_MS: '250' }, { lease_ms: 5000 });
 * // { pollIntervalMs: 250, leaseMs: 5000, maxInFlight: 32, providerConcurrency: 8, … }
 */
export function readVideoSettings(env: Env, file: unknown): VideoSettings {
  return readSection('video', videoSection, { env, file });
}
