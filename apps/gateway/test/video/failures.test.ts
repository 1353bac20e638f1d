import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signKlingJwt } from '../../../provider-sim/src/index.js';
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

  /** What a crash between "about to submit" and "recorded the upstream id" leaves behind. */
  const interruptSubmit = (id: string) =>
    gw.services.db
      .updateTable('video_tasks')
      .set({ submit_started_at_ms: Date.now() })
      .where('id', '=', id)
      .execute();
  const upstreamIdOf = async (id: string) =>
    (
      await gw.services.db
        .selectFrom('video_tasks')
        .select('upstream_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).upstream_id;

  /** One settlement for the task, and the key's usage grew by exactly that. */
  async function expectChargedOnce(id: string, usedBefore: number) {
    const entries = await gw.services.db
      .selectFrom('usage')
      .select('units')
      .where('ref', '=', id)
      .execute();
    expect(entries).toHaveLength(1);
    const charged = Number(entries[0]!.units);
    expect(charged).toBeGreaterThan(0);
    expect(await usedUnits(gw, keyId)).toBe(usedBefore + charged);
  }

  it('an interrupted submit without an upstream lookup is sent again and completes, charged once', async () => {
    const engine = gw.services.video.engine;
    await engine.stop();
    const route = 'POST /runway/v1/image_to_video';
    try {
      const hits = gw.sim.stats().routes[route] ?? 0;
      const before = await usedUnits(gw, keyId);
      const id = await submit({
        model: 'runway-gen4-turbo',
        prompt: 'x',
        duration: 5,
        image_url: 'https://example.com/a.png',
      });
      await interruptSubmit(id);
      await engine.runOnce();
      expect(await upstreamIdOf(id)).not.toBeNull();
      expect((gw.sim.stats().routes[route] ?? 0) - hits).toBe(1);
      engine.start();
      const task = await waitFinal(gw, key, id);
      expect(task.status).toBe('completed');
      await expectChargedOnce(id, before);
    } finally {
      engine.start();
    }
  });

  it('an interrupted Kling submit is found by its external_task_id, not sent again', async () => {
    const engine = gw.services.video.engine;
    await engine.stop();
    const route = 'POST /kling/v1/videos/text2video';
    try {
      const before = await usedUnits(gw, keyId);
      const id = await submit({ model: 'kling-v3', prompt: 'x', duration: 5 });
      // The interrupted submit reached Kling (it carries our task id as external_task_id).
      const landed = await fetch(`${gw.sim.url}/kling/v1/videos/text2video`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${signKlingJwt('sim-access-key', 'sim-secret-key')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ model_name: 'kling-v3', prompt: 'x', external_task_id: id }),
      });
      const upstream = ((await landed.json()) as Json).data.task_id as string;
      await interruptSubmit(id);
      const hits = gw.sim.stats().routes[route] ?? 0;
      expect(hits).toBeGreaterThan(0);
      await engine.runOnce();
      expect(await upstreamIdOf(id)).toBe(`text2video/${upstream}`);
      expect(gw.sim.stats().routes[route] ?? 0).toBe(hits);
      engine.start();
      expect((await waitFinal(gw, key, id)).status).toBe('completed');
      await expectChargedOnce(id, before);
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
