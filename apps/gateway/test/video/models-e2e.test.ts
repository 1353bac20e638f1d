// Each of the nine models end to end against the in-process simulator: text-to-video and, where the
// model takes one, image-to-video with an uploaded image; the MP4 downloads from our CDN.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_MODELS } from '../../src/video/models.js';
import { eachDatabase } from '../support/index.js';
import {
  type Json,
  PNG_1X1,
  startVideoGateway,
  upload,
  usedUnits,
  type VideoTestGateway,
  waitFinal,
} from '../support/video-gateway.js';

describe.each(eachDatabase())('nine video models on $name', (database) => {
  let gw: VideoTestGateway;
  let key: string;
  let keyId: number;
  let imageUrl: string;

  beforeAll(async () => {
    gw = await startVideoGateway({ database });
    ({ key, id: keyId } = await gw.createKey({ quota: 1_000_000_000 }));
    const res = await upload(gw, key, PNG_1X1, 'frame.png');
    imageUrl = ((await res.json()) as { url: string }).url;
  });
  afterAll(() => gw?.close());

  async function runToCompletion(body: Record<string, unknown>) {
    const submitted = await gw.fetch('/v1/video/generations', { method: 'POST', key, json: body });
    const created = (await submitted.json()) as Json;
    expect(submitted.status, JSON.stringify(created)).toBe(200);
    expect(created).toMatchObject({ status: 'pending' });
    expect(created.task_id).toMatch(/^vt_/);
    const task = await waitFinal(gw, key, created.task_id);
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    expect(task).toMatchObject({
      object: 'video.task',
      model: body.model,
      progress: 100,
      error: null,
    });
    expect(task.video.url).toBe(`${gw.cdnUrl}/videos/${created.task_id}.mp4`);
    expect(task.video.mime_type).toBe('video/mp4');
    expect(task.video.duration).toBeGreaterThan(0);
    expect(task.video.width).toBeGreaterThan(0);
    expect(task.video.height).toBeGreaterThan(0);
    const mp4 = await fetch(task.video.url);
    expect(mp4.status).toBe(200);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    const bytes = Buffer.from(await mp4.arrayBuffer());
    expect(bytes.toString('latin1', 4, 8)).toBe('ftyp');
    expect(mp4.headers.get('content-length')).toBe(String(bytes.length));
    expect(mp4.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Players seek with ranges; the ETag is the content hash.
    const etag = mp4.headers.get('etag')!;
    const range = await fetch(task.video.url, { headers: { range: 'bytes=4-7' } });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe(`bytes 4-7/${bytes.length}`);
    expect(await range.text()).toBe('ftyp');
    expect((await fetch(task.video.url, { headers: { 'if-none-match': etag } })).status).toBe(304);
    return task;
  }

  for (const spec of Object.values(VIDEO_MODELS)) {
    if (spec.imageInput !== 'required') {
      it(`${spec.id}: text to video`, async () => {
        const before = await usedUnits(gw, keyId);
        const task = await runToCompletion({
          model: spec.id,
          prompt: 'A paper boat on a rainy street',
        });
        // Settled to the seconds produced, never more than reserved.
        const charged = (await usedUnits(gw, keyId)) - before;
        const reserved = spec.unitsPerSecond[spec.defaultResolution]! * spec.defaultDuration;
        expect(charged).toBeGreaterThan(0);
        expect(charged).toBeLessThanOrEqual(reserved);
        expect(charged).toBe(
          Math.min(
            reserved,
            Math.ceil(spec.unitsPerSecond[spec.defaultResolution]! * task.video.duration),
          ),
        );
      });
    }
    if (spec.imageInput !== 'none') {
      it(`${spec.id}: image to video from an uploaded file`, async () => {
        const body: Record<string, unknown> = {
          model: spec.id,
          prompt: 'Slow push-in',
          image_url: imageUrl,
        };
        if (spec.lastFrame) body.last_frame_url = imageUrl;
        await runToCompletion(body);
      });
    }
  }
});
