/** What a step on a claimed task works with: releasing it, finishing it, cancelling it upstream. */
import { ProviderError, type VideoAdapter } from '../providers/types.js';
import type { VideoTaskRow } from '../task-object.js';
import { type Claimant, releaseClaim } from './claims.js';
import { type FinalOutcome, finishTask } from './finish.js';
import type { ProviderLimits } from './provider-limits.js';
import type { EngineObserver, TaskEngineDeps } from './types.js';

/** What a step on a claimed task (submit, poll) works with. */
export interface StepContext {
  readonly deps: TaskEngineDeps;
  readonly claimant: Claimant;
  /** Delay before the next look at a task that is still running (ms). */
  readonly pollIntervalMs: number;
  readonly limits: ProviderLimits;
  readonly observer: Required<EngineObserver>;
  /** Releases the claim and schedules the next look at the task. */
  release(taskId: string, delayMs: number, extra?: Record<string, unknown>): Promise<void>;
  /**
   * Moves the task to its final status through `finishTask`; when the row has moved on meanwhile,
   * only releases the claim. Returns the finished row, or null.
   */
  finish(
    row: VideoTaskRow,
    from: ('pending' | 'in_progress')[],
    outcome: FinalOutcome,
  ): Promise<VideoTaskRow | null>;
  /** Cancels the upstream task where the provider can; a failure is only logged. */
  cancelUpstream(adapter: VideoAdapter, upstreamId: string, taskId: string): Promise<void>;
}

/** The `reason` label of an upstream error. */
export function upstreamErrorReason(error: unknown): string {
  if (error instanceof ProviderError)
    return error.status === 0 ? error.code : `http_${error.status}`;
  return 'error';
}

/** Builds the step context over the engine's dependencies and this instance's claims. */
export function createStepContext(
  deps: TaskEngineDeps,
  claimant: Claimant,
  pollIntervalMs: number,
  limits: ProviderLimits,
  observer: Required<EngineObserver>,
): StepContext {
  const { instanceId } = claimant;
  const { log } = deps;

  async function release(taskId: string, delayMs: number, extra?: Record<string, unknown>) {
    observer.released(taskId, instanceId);
    await releaseClaim(claimant, taskId, delayMs, extra);
  }

  async function finish(
    row: VideoTaskRow,
    from: ('pending' | 'in_progress')[],
    outcome: FinalOutcome,
  ) {
    observer.released(row.id, instanceId);
    const done = await finishTask(deps, row.id, from, outcome);
    if (done) {
      observer.finished(row.id, outcome.status, instanceId);
      log?.info('video task finished', {
        task_id: row.id,
        status: outcome.status,
        model: row.model,
      });
    } else {
      await release(row.id, pollIntervalMs);
    }
    return done;
  }

  async function cancelUpstream(adapter: VideoAdapter, upstreamId: string, taskId: string) {
    if (!adapter.cancel) return;
    try {
      await adapter.cancel(upstreamId);
    } catch (error) {
      log?.warn('upstream cancel failed', { task_id: taskId, err: (error as Error).message });
    }
  }

  return { deps, claimant, pollIntervalMs, limits, observer, release, finish, cancelUpstream };
}
