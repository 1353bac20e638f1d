/** The engine's face: builds the loop, the step context and the per-provider limits of one instance. */
import { hostname } from 'node:os';
import { randomBase62 } from '../../db/ids.js';
import { ProviderLimits } from './provider-limits.js';
import { TaskScheduler } from './scheduler.js';
import { createStepContext } from './step.js';
import type { EngineObserver, TaskEngine, TaskEngineDeps, TaskEngineOptions } from './types.js';

/**
 * One observer that reports to every observer in the list, including those added later.
 * The engine reports "claimed" after the claim commits and "released" before the release is
 * written, so a reported holding interval always lies inside the real one.
 */
function fanOutObservers(observers: readonly EngineObserver[]): Required<EngineObserver> {
  return {
    claimed: (id, by) => {
      for (const o of observers) o.claimed?.(id, by);
    },
    released: (id, by) => {
      for (const o of observers) o.released?.(id, by);
    },
    finished: (id, status, by) => {
      for (const o of observers) o.finished?.(id, status, by);
    },
    upstreamError: (provider, reason) => {
      for (const o of observers) o.upstreamError?.(provider, reason);
    },
  };
}

/**
 * The video task engine. Tasks are rows; every instance runs one engine over the same database.
 *
 * - Claim: `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING *` sets
 *   `claimed_by` and `lease_until_ms`, so two instances never take the same row and a crashed
 *   instance's claims lapse when the lease ends (`claims.ts`).
 * - Submit happens here: `submit_started_at_ms` is set by CAS before the upstream call and
 *   `upstream_id` recorded by CAS after it. A row claimed with the first and not the second (the
 *   instance died or lost its lease in between) is resumed: found upstream by our reference where
 *   the provider has a lookup (`findSubmitted`), sent again otherwise (see README, "What a crash
 *   costs"). Refusals that prove the provider did not take it (429, 503, connection refused)
 *   clear the marker of a first attempt and retry later (`submit.ts`).
 * - Per-provider back-off after 429/503 and a per-provider concurrency cap (`provider-limits.ts`).
 * - Every final status goes through `finishTask` (CAS + settle/refund + callback in one transaction).
 *
 * @example
 * const engine = createTaskEngine(deps, { pollIntervalMs: 2000 });
 * engine.start();
 * // … on shutdown
 * await engine.stop();
 */
export function createTaskEngine(
  deps: TaskEngineDeps,
  options: TaskEngineOptions = {},
): TaskEngine {
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  const instanceId = options.instanceId ?? `${hostname()}-${process.pid}-${randomBase62(6)}`;
  const claimant = { db: deps.db, instanceId, leaseMs: options.leaseMs ?? 120_000 };
  const limits = new ProviderLimits(pollIntervalMs, options.providerConcurrency ?? 8);
  const observers: EngineObserver[] = deps.observer ? [deps.observer] : [];
  const observer = fanOutObservers(observers);
  const step = createStepContext(deps, claimant, pollIntervalMs, limits, observer);
  const scheduler = new TaskScheduler(step, {
    maxInFlight: options.maxInFlight ?? 32,
    stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
  });
  return {
    instanceId,
    start: () => scheduler.start(),
    stop: () => scheduler.stop(),
    wake: () => scheduler.wake(),
    runOnce: () => scheduler.runOnce(),
    addObserver(o) {
      observers.push(o);
    },
  };
}
