import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, ModelgateError, RateLimitError, type VideoTask } from '@modelgate/core';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { useVideoTask } from '../src/index.js';
import { answerCors } from './cors.js';

const gateway = inject('gateway');
const client = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
const body = { model: 'kling-v3', prompt: 'A red kite over a grey sea', duration: 5 } as const;

describe('useVideoTask against a real gateway', () => {
  it('submit() creates a task and follows it to `completed` with a CDN video URL', async () => {
    const onFinish = vi.fn();
    const { result } = renderHook(() =>
      useVideoTask({ baseUrl: gateway.url, apiKey: gateway.apiKey, pollIntervalMs: 50, onFinish }),
    );
    expect(result.current.status).toBeNull();
    let taskId: string | null = null;
    await act(async () => {
      taskId = await result.current.submit(body);
    });
    expect(taskId).toMatch(/\S/);
    expect(result.current.taskId).toBe(taskId);
    expect(result.current.isFinal).toBe(false);

    await waitFor(() => expect(result.current.isFinal).toBe(true), { timeout: 15_000 });
    expect(result.current.status).toBe('completed');
    expect(result.current.progress).toBe(100);
    expect(result.current.error).toBeUndefined();
    const url = result.current.videoUrl;
    expect(url?.startsWith(`${gateway.cdnUrl}/videos/`)).toBe(true);
    expect(result.current.task?.video?.duration).toBe(5);
    expect(onFinish).toHaveBeenCalledTimes(1);
    expect(onFinish.mock.calls[0]![0].status).toBe('completed');

    // The URL serves a real MP4 (read outside the page: a <video> needs no CORS, fetch would).
    const video = await readOutsidePage(url!);
    expect(video.status).toBe(200);
    expect(video.contentType).toContain('video/mp4');
    expect(video.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('follows an existing task given as taskId, and switches when the prop changes', async () => {
    const first = await client.video.generations.create(body);
    const { result, rerender } = renderHook(
      ({ taskId }: { taskId: string | null }) =>
        useVideoTask({ client, taskId, pollIntervalMs: 50 }),
      { initialProps: { taskId: first.task_id as string | null } },
    );
    expect(result.current.status).toBe('pending');
    await waitFor(() => expect(result.current.status).toBe('completed'), { timeout: 15_000 });
    expect(result.current.task?.task_id).toBe(first.task_id);

    rerender({ taskId: null });
    expect(result.current.task).toBeNull();
    expect(result.current.status).toBeNull();
  });

  it('cancel() cancels the running task', async () => {
    const { result } = renderHook(() => useVideoTask({ client, pollIntervalMs: 50 }));
    await act(async () => {
      await result.current.submit({ ...body, model: 'wan-2-6' });
    });
    let cancelled: VideoTask | null = null;
    await act(async () => {
      cancelled = await result.current.cancel();
    });
    expect(cancelled).not.toBeNull();
    expect(result.current.status).toBe('cancelled');
    expect(result.current.isFinal).toBe(true);
    expect(result.current.videoUrl).toBeNull();
  });

  it('reports a submission the gateway refuses as error.status / error.code', async () => {
    const { result } = renderHook(() => useVideoTask({ client }));
    let taskId: string | null = 'unset';
    await act(async () => {
      // kling-v3 makes 3 to 15 seconds of video.
      taskId = await result.current.submit({ ...body, duration: 99 });
    });
    expect(taskId).toBeNull();
    expect(result.current.error).toBeInstanceOf(ModelgateError);
    expect(result.current.error?.status).toBe(400);
    expect(result.current.error?.param).toBe('duration');
    expect(result.current.status).toBeNull();
  });

  it('stops polling an unknown task with a 404 error', async () => {
    const { result } = renderHook(() =>
      useVideoTask({ client, taskId: 'vtask_does_not_exist', pollIntervalMs: 50 }),
    );
    await waitFor(() => expect(result.current.error?.status).toBe(404), { timeout: 10_000 });
    expect(result.current.isFinal).toBe(false);
  });
});

/** A loopback stand-in for the task route: 429s first, then the task as the server's script says. */
function startTaskServer(
  script: Array<{ status: number; headers?: Record<string, string>; task?: Partial<VideoTask> }>,
) {
  const hits: number[] = [];
  const server: Server = createServer((req, res) => {
    if (answerCors(req, res)) return;
    hits.push(performance.now());
    const step = script[Math.min(hits.length - 1, script.length - 1)]!;
    res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
    if (step.status === 429) {
      res.end(
        JSON.stringify({
          error: {
            message: 'Too many requests',
            type: 'rate_limit_error',
            code: 'rate_limit_requests',
            param: null,
          },
        }),
      );
      return;
    }
    res.end(
      JSON.stringify({
        task_id: 'vtask_scripted',
        object: 'video.task',
        model: 'kling-v3',
        status: 'in_progress',
        progress: 10,
        created_at: 1,
        updated_at: 1,
        completed_at: null,
        video: null,
        error: null,
        ...step.task,
      }),
    );
  });
  return new Promise<{ url: string; hits: number[]; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        hits,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe('useVideoTask polling', () => {
  let stopServer: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stopServer?.();
    stopServer = undefined;
  });

  it('waits as long as a 429 Retry-After asks, then carries on to the final status', async () => {
    const server = await startTaskServer([
      { status: 200 },
      { status: 429, headers: { 'retry-after-ms': '300' } },
      { status: 200, task: { progress: 60 } },
      {
        status: 200,
        task: {
          status: 'completed',
          progress: 100,
          completed_at: 2,
          video: {
            url: 'http://cdn.test/videos/vtask_scripted.mp4',
            duration: 5,
            width: 1280,
            height: 720,
            mime_type: 'video/mp4',
          },
        },
      },
    ]);
    stopServer = server.close;
    const errors: Array<ModelgateError | undefined> = [];
    const { result } = renderHook(() => {
      const state = useVideoTask({
        baseUrl: server.url,
        apiKey: 'sk-test',
        taskId: 'vtask_scripted',
        pollIntervalMs: 20,
      });
      errors.push(state.error);
      return state;
    });
    await waitFor(() => expect(result.current.status).toBe('completed'), { timeout: 10_000 });
    expect(result.current.videoUrl).toBe('http://cdn.test/videos/vtask_scripted.mp4');
    expect(server.hits).toHaveLength(4);
    // The 429 was shown while waiting, then cleared by the next good read.
    expect(errors.some((e) => e instanceof RateLimitError && e.status === 429)).toBe(true);
    expect(result.current.error).toBeUndefined();
    // The poll after the 429 came no sooner than the server asked (the interval alone is 20 ms).
    expect(server.hits[2]! - server.hits[1]!).toBeGreaterThanOrEqual(290);
  });

  it('stops polling on unmount', async () => {
    const server = await startTaskServer([{ status: 200 }]);
    stopServer = server.close;
    const { unmount } = renderHook(() =>
      useVideoTask({ baseUrl: server.url, taskId: 'vtask_scripted', pollIntervalMs: 20 }),
    );
    await waitFor(() => expect(server.hits.length).toBeGreaterThanOrEqual(2));
    unmount();
    const count = server.hits.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    // At most one request that was already on its way when the component went away.
    expect(server.hits.length).toBeLessThanOrEqual(count + 1);
  });
});

/** GET with Node's own HTTP client, not the page's fetch. */
function readOutsidePage(url: string) {
  return new Promise<{ status: number; contentType: string; body: Buffer }>((resolve, reject) => {
    get(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks),
        }),
      );
    }).on('error', reject);
  });
}
