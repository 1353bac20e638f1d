// watchVideoTask / waitForVideoTask against a real gateway, and against a loopback stand-in of the
// task route for the failures a gateway does not produce on demand (429 with Retry-After, 503).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createClient,
  NotFoundError,
  RateLimitError,
  UpstreamError,
  type VideoTask,
} from '@modelgate/core';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { type VideoTaskEvent, waitForVideoTask, watchVideoTask } from '../src/index.js';

const gateway = inject('gateway');
const client = createClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
const body = { model: 'kling-v3', prompt: 'A red kite over a grey sea', duration: 5 } as const;

describe('waitForVideoTask against a real gateway', () => {
  it('follows a new task to `completed`, reporting progress on the way', async () => {
    const { task_id } = await client.video.generations.create(body);
    const seen: VideoTask[] = [];
    const task = await waitForVideoTask(client, task_id, {
      intervalMs: 50,
      onProgress: (t) => seen.push(t),
    });
    expect(task.status).toBe('completed');
    expect(task.video?.url.startsWith(`${gateway.cdnUrl}/videos/`)).toBe(true);
    expect(seen.at(-1)).toEqual(task);
    expect(seen.length).toBeGreaterThan(1);
    const progress = seen.map((t) => t.progress);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress); // never goes back
  });

  it('resumes from a stored task id, even one that is already final', async () => {
    const { task_id } = await client.video.generations.create(body);
    await waitForVideoTask(client, task_id, { intervalMs: 50 });
    const events: VideoTaskEvent[] = [];
    for await (const event of watchVideoTask(client, task_id, { intervalMs: 50 }))
      events.push(event);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'task', task: { task_id, status: 'completed' } });
  });

  it('stops when the signal aborts, rejecting with its reason; the task keeps running', async () => {
    const { task_id } = await client.video.generations.create(body);
    const controller = new AbortController();
    const reason = new Error('left the page');
    const waiting = waitForVideoTask(client, task_id, {
      intervalMs: 50,
      signal: controller.signal,
      onProgress: () => controller.abort(reason),
    });
    await expect(waiting).rejects.toBe(reason);
    const task = await waitForVideoTask(client, task_id, { intervalMs: 50 });
    expect(task.status).toBe('completed');
  });

  it('rejects an unknown task with a NotFoundError (not retried)', async () => {
    const events: VideoTaskEvent[] = [];
    const waiting = (async () => {
      for await (const event of watchVideoTask(client, 'vtask_does_not_exist')) events.push(event);
    })();
    await expect(waiting).rejects.toBeInstanceOf(NotFoundError);
    expect(events).toEqual([]);
  });
});

/** A loopback stand-in for the task route, answering each read as the script says. */
async function startTaskServer(
  script: Array<{ status: number; headers?: Record<string, string>; task?: Partial<VideoTask> }>,
) {
  const hits: number[] = [];
  const server = createServer((_req, res) => {
    hits.push(performance.now());
    const step = script[Math.min(hits.length - 1, script.length - 1)]!;
    res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
    if (step.status >= 400) {
      const type = step.status === 429 ? 'rate_limit_error' : 'overloaded_error';
      res.end(JSON.stringify({ error: { message: 'busy', type, code: null, param: null } }));
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    client: createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: 'sk-test' }),
    hits,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('watchVideoTask retries', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('waits as long as a 429 Retry-After asks, backs off after a 503, then finishes', async () => {
    const server = await startTaskServer([
      { status: 200 },
      { status: 429, headers: { 'retry-after-ms': '300' } },
      { status: 503 },
      { status: 200, task: { status: 'failed', progress: 40 } },
    ]);
    close = server.close;
    const events: VideoTaskEvent[] = [];
    const watcher = watchVideoTask(server.client, 'vtask_scripted', { intervalMs: 20 });
    let next = await watcher.next();
    while (!next.done) {
      events.push(next.value);
      next = await watcher.next();
    }
    expect(next.value.status).toBe('failed');
    expect(events.map((e) => e.type)).toEqual(['task', 'retry', 'retry', 'task']);
    const [, rateLimited, overloaded] = events;
    expect(rateLimited).toMatchObject({ type: 'retry', delayMs: 300 });
    expect(rateLimited?.type === 'retry' && rateLimited.error).toBeInstanceOf(RateLimitError);
    expect(overloaded?.type === 'retry' && overloaded.error).toBeInstanceOf(UpstreamError);
    // After a server error: the interval plus a jittered backoff.
    expect(overloaded?.type === 'retry' && overloaded.delayMs).toBeGreaterThanOrEqual(20);
    // The read after the 429 came no sooner than the server asked.
    expect(server.hits[2]! - server.hits[1]!).toBeGreaterThanOrEqual(290);
    expect(server.hits).toHaveLength(4);
  });
});
