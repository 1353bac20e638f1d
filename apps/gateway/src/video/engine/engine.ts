/**
 * The video task engine of one instance: its loop of claim rounds, each claimed task taken one step
 * further while it holds a slot of its provider (this instance's per-provider limits and back-off).
 */
import { hostname } from 'node:os';
import { sleep } from '@modelgate/core/retry';
import { randomBase62 } from '../../db/ids.js';
import type { VideoTaskRow } from '../tables.js';
import { pollTask } from './poll.js';
import {
  claimDueTasks,
  createStepContext,
  type EngineObserver,
  fanOutObservers,
  keepClaimAlive,
  type ProviderBackoff,
  type StepContext,
  type TaskEngineDeps,
} from './step.js';
import { submitTask } from './submit.js';

export interface TaskEngineOptions {
  /** Delay between polls of one task, and between claim rounds (ms). Default 5000. */
  pollIntervalMs?: number;
  /** How long a claim holds before another instance may take the task (ms). Default 120000. */
  leaseMs?: number;
  /** Tasks processed at once by this instance. Default 32. */
  maxInFlight?: number;
  /** Tasks processed at once per provider by this instance. Default 8. */
  providerConcurrency?: number;
  /** Identifies this instance in `claimed_by`. Default host-pid-random. */
  instanceId?: string;
  /** How long stop() waits for in-flight steps (ms). Default 10000. */
  stopTimeoutMs?: number;
}

export interface TaskEngine {
  readonly instanceId: string;
  start(): void;
  /** Stops claiming and waits for in-flight work (leases lapse for whatever is cut short). */
  stop(): Promise<void>;
  /** Claim now instead of at the next tick (after a submit). */
  wake(): void;
  /** One claim round; resolves when the claimed tasks are processed (tests). */
  runOnce(): Promise<number>;
  /** Adds an observer (metrics, tests recording claims). */
  addObserver(observer: EngineObserver): void;
}

/** The longest a provider is backed off after 429/503 (ms). */
const MAX_PROVIDER_BACKOFF_MS = 60_000;

/**
 * This instance's limits per provider: a back-off after 429/503 and a cap on the tasks in
 * progress at once. A claim round skips the providers that are blocked, and a step waits for a
 * slot (a round may take more rows of one provider than there are free slots).
 */
class ProviderLimits implements ProviderBackoff {
  private readonly inProgress = new Map<string, number>();
  /** provider → {until (ms), strikes} after 429/503. */
  private readonly backoff = new Map<string, { until: number; strikes: number }>();
  private readonly slotWaiters = new Map<string, (() => void)[]>();

  constructor(
    private readonly pollIntervalMs: number,
    private readonly concurrency: number,
  ) {}

  /** The providers a claim round should leave alone now (backing off, or every slot taken). */
  blockedProviders(now: number): string[] {
    return [...new Set([...this.backoff.keys(), ...this.inProgress.keys()])].filter((p) =>
      this.isBlocked(p, now),
    );
  }

  private isBlocked(provider: string, now: number): boolean {
    const b = this.backoff.get(provider);
    return (
      (b !== undefined && b.until > now) || (this.inProgress.get(provider) ?? 0) >= this.concurrency
    );
  }

  /** Backs the provider off after a refusal; returns the delay before the task's next try (ms). */
  noteThrottle(provider: string, retryAfterMs?: number): number {
    const prev = this.backoff.get(provider);
    const strikes = (prev?.strikes ?? 0) + 1;
    const delay = Math.min(
      MAX_PROVIDER_BACKOFF_MS,
      retryAfterMs ?? this.pollIntervalMs * 2 ** Math.min(strikes, 8),
    );
    this.backoff.set(provider, { until: Date.now() + delay, strikes });
    return delay;
  }

  noteSuccess(provider: string): void {
    this.backoff.delete(provider);
  }

  /** Waits for a concurrency slot of the provider and takes it. */
  async acquireSlot(provider: string): Promise<void> {
    while ((this.inProgress.get(provider) ?? 0) >= this.concurrency) {
      await new Promise<void>((resolve) => {
        const queue = this.slotWaiters.get(provider) ?? [];
        queue.push(resolve);
        this.slotWaiters.set(provider, queue);
      });
    }
    this.inProgress.set(provider, (this.inProgress.get(provider) ?? 0) + 1);
  }

  releaseSlot(provider: string): void {
    this.inProgress.set(provider, Math.max(0, (this.inProgress.get(provider) ?? 1) - 1));
    this.slotWaiters.get(provider)?.shift()?.();
  }
}

interface SchedulerSettings {
  /** Tasks processed at once by this instance. */
  maxInFlight: number;
  /** How long stop() waits for in-flight steps (ms). */
  stopTimeoutMs: number;
}

/**
 * Takes one claimed task a step further (submit when pending, poll when in progress), holding a
 * concurrency slot of its provider and keeping the claim alive meanwhile. A step that throws
 * releases the claim for a later retry.
 */
async function processTask(
  step: StepContext,
  limits: ProviderLimits,
  row: VideoTaskRow,
): Promise<void> {
  const adapter = step.deps.adapterFor(row.provider);
  const stopHeartbeat = keepClaimAlive(step.claimant, row.id);
  await limits.acquireSlot(row.provider);
  try {
    if (!adapter) {
      await step.finish(row, ['pending', 'in_progress'], {
        status: 'failed',
        code: 'provider_not_configured',
        message: `No provider is configured for ${row.model}.`,
      });
      return;
    }
    if (row.status === 'pending') {
      // Not even a resumed submit is worth sending once the deadline has passed.
      if (Date.now() >= Number(row.deadline_at_ms) && row.upstream_id === null) {
        await step.finish(row, ['pending'], {
          status: 'failed',
          code: 'timeout',
          message: `${row.model}: the task could not be submitted before its deadline; refunded.`,
        });
        return;
      }
      await submitTask(step, row, adapter);
    } else {
      await pollTask(step, row, adapter);
    }
  } catch (error) {
    step.deps.log?.error('video task step failed', {
      task_id: row.id,
      err: (error as Error).message,
    });
    // Leave the claim to lapse if even the release fails (database down).
    await step.release(row.id, step.pollIntervalMs * 2).catch(() => {});
  } finally {
    stopHeartbeat();
    limits.releaseSlot(row.provider);
  }
}

/**
 * The engine's loop: claims due tasks in rounds, about twice per poll interval (with jitter), and
 * processes each claimed task in the background, at most `maxInFlight` at once.
 */
class TaskScheduler {
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private claiming: Promise<number> | null = null;

  constructor(
    private readonly step: StepContext,
    private readonly limits: ProviderLimits,
    private readonly settings: SchedulerSettings,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.claiming;
    // Wait for in-flight steps, but not for ever (a long download): whatever is cut short keeps
    // its claim only until the lease ends, then another instance (or the next start) takes it.
    // The race handles the sleep's rejection when `waited` ends it after the steps settled.
    const waited = new AbortController();
    await Promise.race([
      Promise.allSettled([...this.inFlight.values()]),
      sleep(this.settings.stopTimeoutMs, waited.signal),
    ]);
    waited.abort();
  }

  wake(): void {
    if (this.running && !this.claiming) this.schedule(0);
  }

  /** One claim round; resolves when the claimed tasks are processed. */
  async runOnce(): Promise<number> {
    const claimed = await this.claim();
    await Promise.all([...this.inFlight.values()]);
    return claimed;
  }

  private async claim(): Promise<number> {
    const { claimant, observer } = this.step;
    const free = this.settings.maxInFlight - this.inFlight.size;
    if (free <= 0) return 0;
    const now = Date.now();
    const rows = await claimDueTasks(claimant, {
      now,
      limit: free,
      skipProviders: this.limits.blockedProviders(now),
      skipTaskIds: [...this.inFlight.keys()],
    });
    for (const row of rows) {
      observer.claimed(row.id, claimant.instanceId);
      const work = processTask(this.step, this.limits, row).finally(() =>
        this.inFlight.delete(row.id),
      );
      this.inFlight.set(row.id, work);
    }
    return rows.length;
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), delay);
    this.timer.unref?.();
  }

  private tick(): void {
    this.timer = null;
    if (!this.running || this.claiming) return;
    this.claiming = this.claim()
      .catch((error) => {
        this.step.deps.log?.error('claiming video tasks failed', { err: (error as Error).message });
        return 0;
      })
      .finally(() => {
        this.claiming = null;
        // Jitter keeps instances from claiming in lockstep.
        this.schedule(Math.max(5, this.step.pollIntervalMs / 2) * (0.75 + Math.random() * 0.5));
      });
  }
}

/**
 * The video task engine. Tasks are rows; every instance runs one engine over the same database:
 * claims (`claimDueTasks`) keep two instances off one row and lapse with a crashed instance, a
 * submit cut short by a crash is resumed (`submitTask`), a provider that refuses with 429/503 is
 * backed off, and every final status goes through `finishTask` (CAS + settle/refund + callback in
 * one transaction).
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
  const scheduler = new TaskScheduler(step, limits, {
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
