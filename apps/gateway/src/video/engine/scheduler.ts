import { sleep } from '@modelgate/core/retry';
import { claimDueTasks } from './claims.js';
import { processTask } from './process.js';
import type { StepContext } from './step.js';

export interface SchedulerSettings {
  /** Tasks processed at once by this instance. */
  maxInFlight: number;
  /** How long stop() waits for in-flight steps (ms). */
  stopTimeoutMs: number;
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
