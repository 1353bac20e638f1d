import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_MODELS } from '../../src/video/models.js';
import { eachDatabase } from '../support/index.js';
import {
  type Json,
  startVideoGateway,
  usedUnits,
  type VideoTestGateway,
  waitFinal,
} from '../support/video-gateway.js';

describe.each(eachDatabase())('video API on $name', (database) => {
  let gw: VideoTestGateway;
  let key: string;
  let keyId: number;

  beforeAll(async () => {
    // Slow enough upstream that cancel and listing see unfinished tasks.
    gw = await startVideoGateway({ database, processingMs: 1500 });
    ({ key, id: keyId } = await gw.createKey({ quota: 1_000_000_000 }));
  });
  afterAll(() => gw?.close());

  const submit = (body: Json, k = key, headers: Record<string, string> = {}) =>
    gw.fetch('/v1/video/generations', { method: 'POST', key: k, json: body, headers });

  it('refuses what a model does not support with a 400 naming the field', async () => {
    const cases: [Json, string][] = [
      [{ model: 'kling-v3', prompt: 'x', duration: 20 }, 'duration'],
      [{ model: 'hailuo-2-3', prompt: 'x', resolution: '720p' }, 'resolution'],
      [{ model: 'veo-3-1', prompt: 'x', aspect_ratio: '1:1' }, 'aspect_ratio'],
      [{ model: 'runway-gen4-turbo', prompt: 'x' }, 'image_url'],
      [{ model: 'wan-2-6', prompt: 'x', image_url: 'ftp://example.com/a.png' }, 'image_url'],
      [{ model: 'luma-ray-2', prompt: 'x', seed: 3 }, 'seed'],
      [{ model: 'vidu-q2', prompt: 'x', colour: 'red' }, 'colour'],
      [{ model: 'seedance-2' }, 'prompt'],
      [
        {
          model: 'kling-v3',
          prompt: 'x',
          image_url: `${'http://'}localhost:1/files/file-nope.png`,
        },
        'image_url',
      ],
    ];
    for (const [body, param] of cases) {
      const res = await submit(body);
      const err = ((await res.json()) as Json).error;
      expect([res.status, err.param, err.type], JSON.stringify(body)).toEqual([
        400,
        param,
        'invalid_request_error',
      ]);
    }
    const kling = await submit({ model: 'kling-v3', prompt: 'x', duration: 20 });
    expect(((await kling.json()) as Json).error.message).toContain(
      '3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15',
    );
    const unknown = await submit({ model: 'sora-2', prompt: 'x' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as Json).error).toMatchObject({
      code: 'model_not_found',
      param: 'model',
    });
  });

  it('answers 402 when the balance does not cover duration × price, reserving nothing', async () => {
    const spec = VIDEO_MODELS['kling-v3']!;
    const poor = await gw.createKey({ quota: spec.unitsPerSecond['720p']! * 5 - 1 });
    const res = await submit({ model: 'kling-v3', prompt: 'x', duration: 5 }, poor.key);
    expect(res.status).toBe(402);
    expect(((await res.json()) as Json).error.type).toBe('insufficient_quota');
    expect(await usedUnits(gw, poor.id)).toBe(0);
  });

  it('returns the same task for the same Idempotency-Key and body, 409 for another body', async () => {
    const body = { model: 'seedance-2', prompt: 'idempotent', duration: 4, metadata: { job: '7' } };
    const headers = { 'idempotency-key': 'job-7' };
    const first = (await (await submit(body, key, headers)).json()) as Json;
    const before = await usedUnits(gw, keyId);
    const again = await submit({ ...body }, key, headers);
    expect(again.status).toBe(200);
    expect(((await again.json()) as Json).task_id).toBe(first.task_id);
    expect(await usedUnits(gw, keyId)).toBe(before);
    const other = await submit({ ...body, duration: 5 }, key, headers);
    expect(other.status).toBe(409);
    expect(((await other.json()) as Json).error).toMatchObject({
      type: 'conflict',
      code: 'idempotency_key_reused',
    });
    // Concurrent first submissions with one key create one task.
    const racing = await Promise.all(
      [1, 2, 3, 4].map(() =>
        submit({ model: 'wan-2-6', prompt: 'race' }, key, { 'idempotency-key': 'race-1' }),
      ),
    );
    const ids = await Promise.all(racing.map(async (r) => ((await r.json()) as Json).task_id));
    expect(new Set(ids).size).toBe(1);
    const task = await waitFinal(gw, key, first.task_id);
    expect(task.metadata).toEqual({ job: '7' });
  });

  it('cancels an unfinished task with a refund and a callback row; a final task is a 409', async () => {
    const before = await usedUnits(gw, keyId);
    const res = await submit({
      model: 'luma-ray-2',
      prompt: 'cancel me',
      callback_url: 'http://127.0.0.1:9/hook',
    });
    const { task_id } = (await res.json()) as Json;
    expect(await usedUnits(gw, keyId)).toBeGreaterThan(before);
    // Let the engine submit it upstream, so the cancel reaches the provider too.
    for (let i = 0; i < 100; i++) {
      const t = (await (
        await gw.fetch(`/v1/video/generations/${task_id}`, { key })
      ).json()) as Json;
      if (t.status === 'in_progress') break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const cancelled = await gw.fetch(`/v1/video/generations/${task_id}/cancel`, {
      method: 'POST',
      key,
    });
    expect(cancelled.status).toBe(200);
    const task = (await cancelled.json()) as Json;
    expect(task).toMatchObject({ task_id, status: 'cancelled', video: null });
    expect(task.completed_at).toEqual(expect.any(Number));
    expect(await usedUnits(gw, keyId)).toBe(before);
    const again = await gw.fetch(`/v1/video/generations/${task_id}/cancel`, {
      method: 'POST',
      key,
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as Json).error.code).toBe('task_already_final');
    const deliveries = await gw.services.db
      .selectFrom('callback_deliveries' as never)
      .selectAll()
      .where('task_id' as never, '=', task_id as never)
      .execute();
    expect(deliveries).toHaveLength(1);
    expect((deliveries[0] as Json).event_type).toBe('video.task.cancelled');
    // The upstream cancel is best effort after the commit; give it a moment.
    for (
      let i = 0;
      i < 50 && !gw.sim.stats().routes['DELETE /luma/dream-machine/v1/generations/{id}'];
      i++
    ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(gw.sim.stats().routes['DELETE /luma/dream-machine/v1/generations/{id}']).toBeGreaterThan(
      0,
    );
  });

  it("hides other keys' tasks and paginates the key's own, newest first", async () => {
    const mine = await gw.createKey();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await submit({ model: 'vidu-q2', prompt: `n${i}`, duration: 1 }, mine.key);
      ids.push(((await r.json()) as Json).task_id);
    }
    expect((await gw.fetch(`/v1/video/generations/${ids[0]}`, { key })).status).toBe(404);
    expect(
      (await gw.fetch(`/v1/video/generations/${ids[0]}/cancel`, { key, method: 'POST' })).status,
    ).toBe(404);
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const q: string = `/v1/video/generations?limit=2${after ? `&after=${after}` : ''}`;
      const list = (await (await gw.fetch(q, { key: mine.key })).json()) as Json;
      expect(list.object).toBe('list');
      seen.push(...list.data.map((t: Json) => t.task_id));
      if (!list.has_more) {
        expect(list.next_cursor).toBeNull();
        break;
      }
      after = list.next_cursor;
    }
    expect(seen).toEqual([...ids].reverse());
    await gw.fetch(`/v1/video/generations/${ids[2]}/cancel`, { key: mine.key, method: 'POST' });
    const cancelled = (await (
      await gw.fetch('/v1/video/generations?status=cancelled', { key: mine.key })
    ).json()) as Json;
    expect(cancelled.data.map((t: Json) => t.task_id)).toEqual([ids[2]]);
    expect((await gw.fetch('/v1/video/generations?limit=0', { key: mine.key })).status).toBe(400);
  });

  it('lists every video model with its capabilities at GET /v1/models', async () => {
    const res = await gw.fetch('/v1/models', { key });
    const list = (await res.json()) as Json;
    const video = list.data.filter((m: Json) => m.type === 'video');
    expect(video.map((m: Json) => m.id).sort()).toEqual(Object.keys(VIDEO_MODELS).sort());
    expect(video.find((m: Json) => m.id === 'runway-gen4-turbo').video).toMatchObject({
      image_input: 'required',
      resolutions: ['720p'],
    });
  });
});
