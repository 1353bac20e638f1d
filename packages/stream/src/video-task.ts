// Following a video task until it is final, with core's retry rules: the gateway polls the
// provider, this polls the gateway.
import {
  asModelgateError,
  backoffMs,
  isRetryableError,
  type ModelgateClient,
  type ModelgateError,
  RateLimitError,
  sleep,
  type VideoTask,
  type VideoTaskStatus,
} from '@modelgate/core';

const FINAL_STATUSES: ReadonlySet<VideoTaskStatus> = new Set(['completed', 'failed', 'cancelled']);
/** Each pause between reads is the interval ± this fraction, so many watchers do not poll in step. */
const INTERVAL_JITTER = 0.2;

/** `completed`, `failed` and `cancelled` never change again. */
export function isFinalStatus(status: VideoTaskStatus | null | undefined): boolean {
  return status != null && FINAL_STATUSES.has(status);
}

/** What a watcher reports: each read of the task, or a failed read it will retry. */
export type VideoTaskEvent =
  | { type: 'task'; task: VideoTask }
  | { type: 'retry'; error: ModelgateError; delayMs: number };

export interface WatchVideoTaskOptions {
  /** Pause between two reads of a running task. Default 2000 ms (± 20 % jitter). */
  intervalMs?: number | undefined;
  /** Stops watching (the iteration rejects with the signal's reason); the task keeps running. */
  signal?: AbortSignal | undefined;
}

/**
 * Reads `GET /v1/video/generations/{task_id}` until the task is `completed`, `failed` or
 * `cancelled`, yielding every read (`task` events, the final one last) and every failed read it
 * will retry (`retry` events). Resumes from nothing but the id, so a stored id picks a task up
 * after a reload or a restart.
 *
 * Retries follow core's rules: connection errors, timeouts, 408, 429 and 5xx are retried — after
 * the server's `Retry-After` when it sends one, else after the interval plus core's exponential
 * backoff with full jitter; any other failure (404, 401, …) rejects.
 *
 * @example
 * ```ts
 * for await (const event of watchVideoTask(client, taskId, { signal })) {
 *   if (event.type === 'task') console.log(event.task.status, event.task.progress);
 *   else console.log('retrying in', event.delayMs, 'ms:', event.error.code);
 * }
 * ```
 */
export async function* watchVideoTask(
  client: ModelgateClient,
  taskId: string,
  options: WatchVideoTaskOptions = {},
): AsyncGenerator<VideoTaskEvent, VideoTask> {
  const intervalMs = options.intervalMs ?? 2000;
  const { signal } = options;
  let failures = 0;
  for (;;) {
    let delayMs: number;
    try {
      // No retries inside the call: a 429 and its wait are this loop's business.
      const task = await client.video.generations.retrieve(taskId, { signal, maxRetries: 0 });
      failures = 0;
      yield { type: 'task', task };
      if (isFinalStatus(task.status)) return task;
      delayMs = jittered(intervalMs);
    } catch (caught) {
      if (signal?.aborted) throw signal.reason;
      const error = asModelgateError(caught);
      if (!isRetryableError(error)) throw error;
      delayMs = retryDelayMs(error, intervalMs, failures);
      failures += 1;
      yield { type: 'retry', error, delayMs };
    }
    await sleep(delayMs, signal);
  }
}

export interface WaitForVideoTaskOptions extends WatchVideoTaskOptions {
  /** Every read of the task, the final one included. */
  onProgress?: ((task: VideoTask) => void) | undefined;
  /** A failed read that will be retried after `delayMs`. */
  onRetry?: ((error: ModelgateError, delayMs: number) => void) | undefined;
}

/**
 * Resolves with the task once it is final ({@link watchVideoTask} with callbacks).
 *
 * @example
 * ```ts
 * const { task_id } = await client.video.generations.create({ model: 'kling-v3', prompt: 'A red kite' });
 * const task = await waitForVideoTask(client, task_id, { onProgress: (t) => console.log(t.progress) });
 * console.log(task.status, task.video?.url);
 * ```
 */
export async function waitForVideoTask(
  client: ModelgateClient,
  taskId: string,
  options: WaitForVideoTaskOptions = {},
): Promise<VideoTask> {
  const watcher = watchVideoTask(client, taskId, options);
  for (;;) {
    const next = await watcher.next();
    if (next.done) return next.value;
    const event = next.value;
    if (event.type === 'task') options.onProgress?.(event.task);
    else options.onRetry?.(event.error, event.delayMs);
  }
}

function jittered(intervalMs: number): number {
  return intervalMs * (1 - INTERVAL_JITTER + 2 * INTERVAL_JITTER * Math.random());
}

/** The server's hint after a 429 when it gave one; otherwise core's backoff. */
function retryDelayMs(error: ModelgateError, intervalMs: number, failures: number): number {
  if (error instanceof RateLimitError && error.retryAfterMs !== undefined) {
    return Math.max(intervalMs, error.retryAfterMs);
  }
  return intervalMs + backoffMs(failures);
}
