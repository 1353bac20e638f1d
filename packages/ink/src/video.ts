// Follows a video task until it finishes: the gateway polls the provider, we poll the gateway.
// The one poller of the package (the chat screen and `video --wait` both use it). A failed poll is
// retried by the client itself (connection errors, 429 and 5xx, with backoff and Retry-After), so
// the loop only needs a fixed interval between answers.
import type { ModelgateClient, VideoTask } from '@modelgate/core';

const FINISHED: ReadonlySet<VideoTask['status']> = new Set(['completed', 'failed', 'cancelled']);

/** True once a task can no longer change. */
export function isFinished(task: Pick<VideoTask, 'status'>): boolean {
  return FINISHED.has(task.status);
}

export interface WatchOptions {
  /** Between two polls. Default 1000 ms. */
  intervalMs?: number;
  /** Stops watching (rejects with the abort reason); the task itself keeps running. */
  signal?: AbortSignal;
  /** Called with every poll's answer, the last one included. */
  onUpdate?: (task: VideoTask) => void;
}

/**
 * Polls `GET /v1/video/generations/{id}` until the task is completed, failed or cancelled.
 *
 * @example
 * ```ts
 * const { task_id } = await client.video.generations.create({ model: 'vidu-q2', prompt: 'a red fox' });
 * const task = await watchVideoTask(client, task_id, { onUpdate: (t) => console.log(t.progress) });
 * console.log(task.video?.url);
 * ```
 */
export async function watchVideoTask(
  client: ModelgateClient,
  taskId: string,
  options: WatchOptions = {},
): Promise<VideoTask> {
  const intervalMs = options.intervalMs ?? 1000;
  for (;;) {
    const task = await client.video.generations.retrieve(taskId, { signal: options.signal });
    options.onUpdate?.(task);
    if (isFinished(task)) return task;
    await delay(intervalMs, options.signal);
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
