/** The engine's loop: claim rounds, and each claimed task taken one step further. */
import { sleep } from '@modelgate/core/retry';
import type { VideoTaskRow } from '../task-object.js';
import { claimDueTasks, keepClaimAlive } from './claims.js';
import { pollTask } from './poll.js';
import type { StepContext } from './step.js';
import { submitTask } from './submit.js';

export interface SchedulerSettings {
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
export async function processTask(step: StepContext, row: VideoTaskRow): Promise<void> {
  const adapter = step.deps.adapterFor(row.provider);
  const stopHeartbeat = keepClaimAlive(step.claimant, row.id);
  await step.limits.acquireSlot(row.provider);
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
    step.limits.releaseSlot(row.provider);
  }
}

/**
 * The engine's loop: claims due tasks in rounds, about twice per poll interval (with jitter), and
 * processes each claimed task in the background, at most `maxInFlight` at once.
 */
export class TaskScheduler {
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private claiming: Promise<number> | null = null;

  constructor(
    private readonly step: StepContext,
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
    const { claimant, limits, observer } = this.step;
    const free = this.settings.maxInFlight - this.inFlight.size;
    if (free <= 0) return 0;
    const now = Date.now();
    const rows = await claimDueTasks(claimant, {
      now,
      limit: free,
      skipProviders: limits.blockedProviders(now),
      skipTaskIds: [...this.inFlight.keys()],
    });
    for (const row of rows) {
      observer.claimed(row.id, claimant.instanceId);
      const work = processTask(this.step, row).finally(() => this.inFlight.delete(row.id));
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
