// useVideoTask: submit a video generation and/or follow a task until it is final.
import {
  asModelgateError,
  type CreateVideoGenerationRequest,
  type ModelgateClient,
  type ModelgateError,
  type VideoCreateOptions,
  type VideoTask,
  type VideoTaskStatus,
} from '@modelgate/core';
import { isFinalStatus, watchVideoTask } from '@modelgate/stream';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ClientSource, useClientSource } from './client.js';

/** Options of {@link useVideoTask}: a client source plus what to follow. */
export type UseVideoTaskOptions = ClientSource & {
  /**
   * A task to follow (e.g. one whose id you stored). `null`/absent: follow nothing until `submit`.
   * Changing it switches to the new task; `submit` switches too, until this prop changes again.
   */
  taskId?: string | null;
  /** Pause between two reads of the task while it runs. Default 2000 ms (± 20 % jitter). */
  pollIntervalMs?: number;
  /** Called once when the followed task reaches `completed`, `failed` or `cancelled`. */
  onFinish?: (task: VideoTask) => void;
  /** Called when submitting, polling or cancelling fails for good; the same error is in `error`. */
  onError?: (error: ModelgateError) => void;
};

/** What {@link useVideoTask} returns. */
export interface UseVideoTaskResult {
  /** The task being followed, or null. */
  taskId: string | null;
  /** Its latest state from `GET /v1/video/generations/{task_id}`, or null before the first read. */
  task: VideoTask | null;
  /** `task.status`, `pending` between submission and the first read, null when idle. */
  status: VideoTaskStatus | null;
  /** Percent done, 0–100. */
  progress: number;
  /** The finished video's URL on the gateway's CDN (does not expire), once `completed`. */
  videoUrl: string | null;
  /**
   * The latest failure: of `submit` or `cancel`, a poll that will be retried (429, 5xx, network;
   * cleared by the next successful read) or one that stopped polling (404, 401, …). A task that
   * ends as `failed` is not an error here: read `task.error`.
   */
  error: ModelgateError | undefined;
  /** True once the status is `completed`, `failed` or `cancelled`: polling has stopped. */
  isFinal: boolean;
  /** True while `submit` waits for the gateway to accept the task. */
  isSubmitting: boolean;
  /**
   * Submits a task (`POST /v1/video/generations`) and follows it. Resolves with its id, or null
   * when the submission failed (see `error`). A retried submission never creates a second task.
   */
  submit: (
    body: CreateVideoGenerationRequest,
    options?: VideoCreateOptions,
  ) => Promise<string | null>;
  /** Cancels the followed task (`POST …/cancel`); resolves with the cancelled task, or null. */
  cancel: () => Promise<VideoTask | null>;
  /** Stops following any task and clears the state (a running task keeps running on the gateway). */
  reset: () => void;
}

/**
 * Follows a video generation task with `@modelgate/stream`'s `watchVideoTask`: reads it every
 * `pollIntervalMs` until it is `completed`, `failed` or `cancelled`, waiting as long as the
 * gateway's `Retry-After` asks after a 429 and backing off (with jitter) after server or network
 * errors. Polling stops on unmount.
 *
 * Two ways in, one hook: pass the `taskId` of an existing task, or call `submit(body)`, which
 * creates the task and follows it.
 *
 * @example
 * ```tsx
 * import { useVideoTask } from '@modelgate/react';
 *
 * function Video({ client }: { client: ModelgateClient }) {
 *   const { submit, status, progress, videoUrl, error, isSubmitting, cancel, isFinal } =
 *     useVideoTask({ client, pollIntervalMs: 2000 });
 *   return (
 *     <div>
 *       <button disabled={isSubmitting} onClick={() => submit({ model: 'kling-v3', prompt: 'A red kite' })}>
 *         Generate
 *       </button>
 *       {status && !isFinal && <progress max={100} value={progress} />}
 *       {status && !isFinal && <button onClick={cancel}>Cancel</button>}
 *       {videoUrl && <video src={videoUrl} controls />}
 *       {error && <p role="alert">{error.code ?? error.message}</p>}
 *     </div>
 *   );
 * }
 * ```
 */
export function useVideoTask(options: UseVideoTaskOptions): UseVideoTaskResult {
  const client = useClientSource(options);
  const pollIntervalMs = options.pollIntervalMs ?? 2000;

  const [task, setTask] = useState<VideoTask | null>(null);
  const [error, setError] = useState<ModelgateError | undefined>(undefined);
  const [isSubmitting, setIsSubmitting] = useState(false);

  // The followed id: the prop, until submit() picks another; a changed prop wins again.
  const propTaskId = options.taskId ?? null;
  const [followed, setFollowed] = useState<string | null>(propTaskId);
  const [lastPropTaskId, setLastPropTaskId] = useState<string | null>(propTaskId);
  if (propTaskId !== lastPropTaskId) {
    setLastPropTaskId(propTaskId);
    setFollowed(propTaskId);
    setError(undefined);
  }

  const optionsRef = useRef(options);
  optionsRef.current = options;
  const clientRef = useRef<ModelgateClient>(client);
  clientRef.current = client;
  const followedRef = useRef(followed);
  followedRef.current = followed;
  const mountedRef = useRef(false);
  const submitRef = useRef<AbortController | undefined>(undefined);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      submitRef.current?.abort();
    };
  }, []);

  useEffect(() => {
    if (!followed) return;
    const controller = new AbortController();
    void follow(client, followed, pollIntervalMs, controller.signal, {
      onTask(next) {
        setTask(next);
        setError(undefined);
        if (isFinalStatus(next.status)) optionsRef.current.onFinish?.(next);
      },
      onRetry: setError,
      onFailure(failure) {
        setError(failure);
        optionsRef.current.onError?.(failure);
      },
    });
    return () => controller.abort();
  }, [client, followed, pollIntervalMs]);

  const submit = useCallback<UseVideoTaskResult['submit']>(async (body, callOptions) => {
    submitRef.current?.abort();
    const controller = new AbortController();
    submitRef.current = controller;
    setIsSubmitting(true);
    setError(undefined);
    try {
      const created = await clientRef.current.video.generations.create(body, {
        ...callOptions,
        signal: callOptions?.signal
          ? AbortSignal.any([callOptions.signal, controller.signal])
          : controller.signal,
      });
      if (controller.signal.aborted) return null;
      setTask(null);
      setFollowed(created.task_id);
      return created.task_id;
    } catch (caught) {
      if (controller.signal.aborted || !mountedRef.current) return null;
      const failure = asModelgateError(caught);
      setError(failure);
      optionsRef.current.onError?.(failure);
      return null;
    } finally {
      if (submitRef.current === controller) {
        submitRef.current = undefined;
        if (mountedRef.current) setIsSubmitting(false);
      }
    }
  }, []);

  const cancel = useCallback<UseVideoTaskResult['cancel']>(async () => {
    const taskId = followedRef.current;
    if (!taskId) return null;
    try {
      const cancelled = await clientRef.current.video.generations.cancel(taskId);
      if (mountedRef.current && followedRef.current === taskId) setTask(cancelled);
      return cancelled;
    } catch (caught) {
      if (!mountedRef.current || followedRef.current !== taskId) return null;
      const failure = asModelgateError(caught);
      setError(failure);
      optionsRef.current.onError?.(failure);
      return null;
    }
  }, []);

  const reset = useCallback(() => {
    submitRef.current?.abort();
    submitRef.current = undefined;
    setIsSubmitting(false);
    setFollowed(null);
    setTask(null);
    setError(undefined);
  }, []);

  // A task read for a previously followed id is never shown for the current one.
  const current = task && task.task_id === followed ? task : null;
  const status = current?.status ?? (followed ? 'pending' : null);
  return {
    taskId: followed,
    task: current,
    status,
    progress: current?.progress ?? 0,
    videoUrl: current?.status === 'completed' ? (current.video?.url ?? null) : null,
    error,
    isFinal: isFinalStatus(status),
    isSubmitting,
    submit,
    cancel,
    reset,
  };
}

interface FollowHandlers {
  onTask(task: VideoTask): void;
  onRetry(error: ModelgateError): void;
  onFailure(error: ModelgateError): void;
}

/** Runs `watchVideoTask` until the task is final, the signal aborts or a read fails for good. */
async function follow(
  client: ModelgateClient,
  taskId: string,
  intervalMs: number,
  signal: AbortSignal,
  handlers: FollowHandlers,
): Promise<void> {
  try {
    for await (const event of watchVideoTask(client, taskId, { intervalMs, signal })) {
      if (signal.aborted) return;
      if (event.type === 'task') handlers.onTask(event.task);
      else handlers.onRetry(event.error);
    }
  } catch (caught) {
    if (!signal.aborted) handlers.onFailure(asModelgateError(caught));
  }
}
