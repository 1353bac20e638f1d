import { sleep } from '@modelgate/core/retry';
import { claimDueTasks } from './claims.js';
import { processTask } from './process.js';
import type { StepContext } from './step.js';
import type { TaskEngine } from './types.js';

export interface SchedulerSettings {
  /** Tasks processed at once by this instance. */
  maxInFlight: number;
  /** How long stop() waits for in-flight steps (ms). */
  stopTimeoutMs: number;
}

/** The engine's loop: start, stop, wake and single rounds (everything but its identity). */
export type TaskScheduler = Pick<TaskEngine, 'start' | 'stop' | 'wake' | 'runOnce'>;

/**
 * Claims due tasks in rounds, about twice per poll interval (with jitter), and processes each
 * claimed task in the background, at most `maxInFlight` at once.
 */
export function createScheduler(step: StepContext, settings: SchedulerSettings): TaskScheduler {
  const { claimant, limits, observer, pollIntervalMs } = step;
  const { maxInFlight, stopTimeoutMs } = settings;
  const log = step.deps.log;
  const inFlight = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let claiming: Promise<number> | null = null;

  async function claim(): Promise<number> {
    const free = maxInFlight - inFlight.size;
    if (free <= 0) return 0;
    const now = Date.now();
    const rows = await claimDueTasks(claimant, {
      now,
      limit: free,
      skipProviders: limits.blockedProviders(now),
      skipTaskIds: [...inFlight.keys()],
    });
    for (const row of rows) {
      observer.claimed(row.id, claimant.instanceId);
      const work = processTask(step, row).finally(() => inFlight.delete(row.id));
      inFlight.set(row.id, work);
    }
    return rows.length;
  }

  async function runOnce(): Promise<number> {
    const claimed = await claim();
    await Promise.all([...inFlight.values()]);
    return claimed;
  }

  function schedule(delay: number): void {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timer.unref?.();
  }

  function tick(): void {
    timer = null;
    if (!running || claiming) return;
    claiming = claim()
      .catch((error) => {
        log?.error('claiming video tasks failed', { err: (error as Error).message });
        return 0;
      })
      .finally(() => {
        claiming = null;
        // Jitter keeps instances from claiming in lockstep.
        schedule(Math.max(5, pollIntervalMs / 2) * (0.75 + Math.random() * 0.5));
      });
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await claiming;
      // Wait for in-flight steps, but not for ever (a long download): whatever is cut short keeps
      // its claim only until the lease ends, then another instance (or the next start) takes it.
      // The race handles the sleep's rejection when `waited` ends it after the steps settled.
      const waited = new AbortController();
      await Promise.race([
        Promise.allSettled([...inFlight.values()]),
        sleep(stopTimeoutMs, waited.signal),
      ]);
      waited.abort();
    },
    wake() {
      if (running && !claiming) schedule(0);
    },
    runOnce,
  };
}
