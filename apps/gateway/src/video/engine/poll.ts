/** The poll step: an in-progress task asked after, and finished when its provider is done. */
import { type PollResult, ProviderError, type VideoAdapter } from '../providers/types.js';
import type { VideoTaskRow } from '../tables.js';
import type { StoredVideo } from './finish.js';
import { type StepContext, TaskInputError, upstreamErrorReason } from './step.js';

/**
 * The poll step of a claimed in-progress task: past its deadline it is cancelled upstream and
 * failed; otherwise the provider is asked, and the task finished (its video stored), failed, or
 * released with its progress until the next poll.
 */
export async function pollTask(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
): Promise<void> {
  const upstreamId = row.upstream_id!;
  if (Date.now() >= Number(row.deadline_at_ms)) {
    await step.cancelUpstream(adapter, upstreamId, row.id);
    await step.finish(row, ['in_progress'], {
      status: 'failed',
      code: 'timeout',
      message: `${row.model} did not finish before the deadline; the task was cancelled upstream and refunded.`,
    });
    return;
  }
  let result: PollResult;
  try {
    result = await adapter.poll(upstreamId);
    step.limits.noteSuccess(adapter.provider);
  } catch (error) {
    return onPollError(step, row, adapter, error);
  }
  if (result.state === 'failed') {
    step.observer.upstreamError(adapter.provider, 'task_failed');
    await step.finish(row, ['in_progress'], {
      status: 'failed',
      code: result.error?.code ?? 'upstream_failed',
      message: result.error?.message ?? `${adapter.provider}: generation failed`,
    });
    return;
  }
  if (result.state === 'completed' && result.resultUrl) return complete(step, row, adapter, result);
  const progress = Math.max(0, Math.min(99, Math.round(result.progress ?? Number(row.progress))));
  return step.release(row.id, step.pollIntervalMs, {
    progress,
    ...(progress !== Number(row.progress) ? { updated_at: Math.floor(Date.now() / 1000) } : {}),
  });
}

/**
 * A definite refusal (4xx, or a business error in a 200 body such as MiniMax's base_resp) fails
 * the task; transport trouble and 5xx are retried until the deadline.
 */
async function onPollError(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
  error: unknown,
): Promise<void> {
  step.observer.upstreamError(adapter.provider, upstreamErrorReason(error));
  if (
    error instanceof ProviderError &&
    !error.retryable &&
    (error.status === 200 || (error.status >= 400 && error.status < 500 && error.status !== 408))
  ) {
    await step.finish(row, ['in_progress'], {
      status: 'failed',
      code: 'upstream_error',
      message: error.message,
    });
    return;
  }
  const delay =
    error instanceof ProviderError && error.retryable
      ? step.limits.noteThrottle(adapter.provider, error.retryAfterMs)
      : step.pollIntervalMs * 2;
  step.deps.log?.warn('poll failed; will retry', {
    task_id: row.id,
    provider: adapter.provider,
    err: (error as Error).message,
  });
  return step.release(row.id, delay);
}

/** Stores the finished video and completes the task (a download that fails may be retried). */
async function complete(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
  result: PollResult,
): Promise<void> {
  let video: StoredVideo;
  try {
    video = await step.deps.storeResult(row, adapter, result);
  } catch (error) {
    return onStoreError(step, row, adapter, error);
  }
  await step.finish(row, ['in_progress'], { status: 'completed', video });
}

async function onStoreError(
  step: StepContext,
  row: VideoTaskRow,
  adapter: VideoAdapter,
  error: unknown,
): Promise<void> {
  step.observer.upstreamError(adapter.provider, 'download_failed');
  if (error instanceof TaskInputError) {
    await step.finish(row, ['in_progress'], {
      status: 'failed',
      code: error.code,
      message: error.message,
    });
    return;
  }
  if (error instanceof ProviderError && !error.retryable) {
    await step.finish(row, ['in_progress'], {
      status: 'failed',
      code: 'result_unavailable',
      message: `${error.message} (the finished video could not be downloaded)`,
    });
    return;
  }
  step.deps.log?.warn('result download failed; will retry', {
    task_id: row.id,
    err: (error as Error).message,
  });
  return step.release(row.id, step.pollIntervalMs * 2);
}
