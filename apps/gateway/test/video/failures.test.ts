import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Json,
  startVideoGateway,
  usedUnits,
  type VideoTestGateway,
  waitFinal,
} from '../support/video-gateway.js';

describe('video task failures (pglite)', () => {
  let gw: VideoTestGateway;
  let key: string;
  let keyId: number;

  beforeAll(async () => {
    gw = await startVideoGateway({ processingMs: 100 });
    ({ key, id: keyId } = await gw.createKey({ quota: 1_000_000_000 }));
  });
  afterAll(() => gw?.close());

  const submit = async (body: Json) => {
    const res = await gw.fetch('/v1/video/generations', { method: 'POST', key, json: body });
    expect(res.status).toBe(200);
    return ((await res.json()) as Json).task_id as string;
  };

  it('a provider failure marks the task failed with the reason and refunds it', async () => {
    const before = await usedUnits(gw, keyId);
    gw.sim.faults.add({
      kind: 'task-fail',
      message: 'content policy violation',
      count: 1,
      match: { path: '/kling' },
    });
    const id = await submit({ model: 'kling-v3', prompt: 'x' });
    const task = await waitFinal(gw, key, id);
    expect(task.status).toBe('failed');
    expect(task.video).toBeNull();
    expect(task.error.code).toEqual(expect.any(String));
    expect(task.error.message).toContain('kling');
    expect(task.error.message).toContain('content policy violation');
    expect(await usedUnits(gw, keyId)).toBe(before);
  });

  it('a result that cannot be downloaded fails the task and refunds it', async () => {
    const before = await usedUnits(gw, keyId);
    gw.sim.faults.add({ kind: 'result-404', count: 1, match: { path: '/byteplus' } });
    const task = await waitFinal(gw, key, await submit({ model: 'seedance-2', prompt: 'x' }));
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('result_unavailable');
    expect(await usedUnits(gw, keyId)).toBe(before);
  });

  it('a 429 on submit backs off and submits again; the task completes once', async () => {
    const route = 'POST /minimax/v1/video_generation';
    const hits = gw.sim.stats().routes[route] ?? 0;
    gw.sim.faults.add({
      kind: 'status',
      status: 429,
      retryAfter: 0,
      count: 1,
      match: { path: '/minimax/v1/video_generation' },
    });
    const task = await waitFinal(gw, key, await submit({ model: 'hailuo-2-3', prompt: 'x' }));
    expect(task.status).toBe('completed');
    expect((gw.sim.stats().routes[route] ?? 0) - hits).toBe(2);
  });

  it('a 400 on submit fails the task with the provider message', async () => {
    gw.sim.faults.add({
      kind: 'status',
      status: 400,
      message: 'bad seed',
      count: 1,
      match: { path: '/vidu' },
    });
    const task = await waitFinal(gw, key, await submit({ model: 'vidu-q2', prompt: 'x' }));
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('upstream_rejected');
    expect(task.error.message).toContain('vidu answered 400');
  });

  it('a task interrupted mid-submit is failed and refunded, never submitted twice', async () => {
    const engine = gw.services.video.engine;
    await engine.stop();
    try {
      const before = await usedUnits(gw, keyId);
      const hits = gw.sim.stats().routes['POST /runway/v1/image_to_video'] ?? 0;
      const id = await submit({
        model: 'runway-gen4-turbo',
        prompt: 'x',
        image_url: 'https://example.com/a.png',
      });
      expect(await usedUnits(gw, keyId)).toBeGreaterThan(before);
      // What a crash between "about to submit" and "recorded the upstream id" leaves behind.
      await gw.services.db
        .updateTable('video_tasks')
        .set({ submit_started_at_ms: Date.now() })
        .where('id', '=', id)
        .execute();
      await engine.runOnce();
      const task = (await (await gw.fetch(`/v1/video/generations/${id}`, { key })).json()) as Json;
      expect(task.status).toBe('failed');
      expect(task.error.code).toBe('submit_interrupted');
      expect(await usedUnits(gw, keyId)).toBe(before);
      expect(gw.sim.stats().routes['POST /runway/v1/image_to_video'] ?? 0).toBe(hits);
    } finally {
      engine.start();
    }
  });
});

describe('video task deadline (pglite)', () => {
  let gw: VideoTestGateway;
  afterAll(() => gw?.close());

  it('fails a task that outlives its deadline as timeout, after cancelling upstream, and refunds', async () => {
    gw = await startVideoGateway({
      processingMs: 60_000,
      env: { MODELGATE_VIDEO_DEADLINE_MS: '400' },
    });
    const { key, id: keyId } = await gw.createKey({ quota: 1_000_000_000 });
    const res = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'seedance-2', prompt: 'x' },
    });
    const { task_id } = (await res.json()) as Json;
    const task = await waitFinal(gw, key, task_id, 10_000);
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('timeout');
    expect(await usedUnits(gw, keyId)).toBe(0);
    expect(gw.sim.stats().routes['DELETE /byteplus/api/v3/contents/generations/tasks/{id}']).toBe(
      1,
    );
  });
});
