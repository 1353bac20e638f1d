// Video tasks submitted from the chat screen: each one is followed until it finishes by
// @modelgate/stream's watcher (backoff, Retry-After and jitter live there).
import type { CreateVideoGenerationRequest, ModelgateClient, VideoTask } from '@modelgate/core';
import { waitForVideoTask } from '@modelgate/stream';
import { useCallback, useEffect, useRef, useState } from 'react';
import { describeError, type ErrorInfo } from '../errors.js';

/** A task still running, as the progress area shows it. */
export interface ActiveVideo {
  /** Local id (the task id is unknown until the submission answers). */
  key: number;
  model: string;
  prompt: string;
  /** The last poll's answer; `null` while submitting. */
  task: VideoTask | null;
}

export type VideoOutcome =
  | { kind: 'finished'; prompt: string; task: VideoTask }
  | { kind: 'failed'; prompt: string; model: string; error: ErrorInfo };

export interface VideoTaskControls {
  active: ActiveVideo[];
  /** Submits and follows a task; resolves when it finished (or the request failed), never rejects. */
  submit(model: string, prompt: string): Promise<VideoOutcome>;
}

/**
 * @example
 * ```tsx
 * const videos = useVideoTasks(client, 1000);
 * const outcome = await videos.submit('vidu-q2', 'a red fox in the snow');
 * ```
 */
export function useVideoTasks(client: ModelgateClient, pollMs = 1000): VideoTaskControls {
  const [active, setActive] = useState<ActiveVideo[]>([]);
  const nextKey = useRef(0);
  const controller = useRef(new AbortController());

  // Unmounting stops the polling (the tasks keep running on the gateway).
  useEffect(() => {
    const current = controller.current;
    return () => current.abort();
  }, []);

  const submit = useCallback(
    async (model: string, prompt: string): Promise<VideoOutcome> => {
      const key = nextKey.current++;
      const signal = controller.current.signal;
      const update = (task: VideoTask | null) =>
        setActive((list) => list.map((v) => (v.key === key ? { ...v, task } : v)));
      setActive((list) => [...list, { key, model, prompt, task: null }]);
      try {
        const created = await client.video.generations.create(
          { model: model as CreateVideoGenerationRequest['model'], prompt },
          { signal },
        );
        const task = await waitForVideoTask(client, created.task_id, {
          intervalMs: pollMs,
          signal,
          onProgress: update,
        });
        return { kind: 'finished', prompt, task };
      } catch (error) {
        return { kind: 'failed', prompt, model, error: describeError(error) };
      } finally {
        setActive((list) => list.filter((v) => v.key !== key));
      }
    },
    [client, pollMs],
  );

  return { active, submit };
}
