// Polling a video task until it is final, outside React so the loop is easy to follow.
import {
  type ModelgateClient,
  type ModelgateError,
  RateLimitError,
  type VideoTask,
  type VideoTaskStatus,
} from '@modelgate/core';
import { isTransient, toModelgateError } from './errors.js';
import { sleep } from './sleep.js';

const FINAL_STATUSES: ReadonlySet<VideoTaskStatus> = new Set(['completed', 'failed', 'cancelled']);
/** Longest wait between polls after repeated failures (unless the server asks for longer). */
const MAX_BACKOFF_MS = 30_000;

/** `completed`, `failed` and `cancelled` never change again. */
export function isFinalStatus(status: VideoTaskStatus | null | undefined): boolean {
  return status != null && FINAL_STATUSES.has(status);
}

export interface PollVideoTaskOptions {
  intervalMs: number;
  signal: AbortSignal;
  /** Every task state read, the final one included. */
  onTask: (task: VideoTask) => void;
  /** A failure the loop will retry after a pause (429, 5xx, no response). */
  onRetry: (error: ModelgateError) => void;
}

/**
 * Reads the task every `intervalMs` until its status is final and resolves with it. 429, 5xx and
 * connection failures are retried after the server's `Retry-After`, else with exponential backoff;
 * any other failure (404, 401, …) rejects. Aborting rejects with the signal's reason.
 */
export async function pollVideoTask(
  client: ModelgateClient,
  taskId: string,
  { intervalMs, signal, onTask, onRetry }: PollVideoTaskOptions,
): Promise<VideoTask> {
  let failures = 0;
  for (;;) {
    let delay = intervalMs;
    try {
      // The client's own retries would hide the 429 and its wait inside one call; we pace here.
      const task = await client.video.generations.retrieve(taskId, { signal, maxRetries: 0 });
      failures = 0;
      onTask(task);
      if (isFinalStatus(task.status)) return task;
    } catch (caught) {
      if (signal.aborted) throw signal.reason;
      const error = toModelgateError(caught);
      if (!isTransient(error)) throw error;
      failures += 1;
      delay = retryDelayMs(error, intervalMs, failures);
      onRetry(error);
    }
    await sleep(delay, signal);
  }
}

function retryDelayMs(error: ModelgateError, intervalMs: number, failures: number): number {
  const backoff = Math.min(MAX_BACKOFF_MS, intervalMs * 2 ** failures);
  if (error instanceof RateLimitError && error.retryAfterMs !== undefined) {
    return Math.max(intervalMs, error.retryAfterMs);
  }
  return backoff;
}
