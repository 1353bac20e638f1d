/**
 * What a demo-mode video shows, decoded by a real H.264 decoder (Debian's Chromium): a video that
 * starts from an uploaded image starts from that image (its first frame is the image's pixels),
 * and every video has something that moves (a band across the middle slides to the right, so
 * the picture one second in differs from the first). A frame of each is kept in test-results/.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createRaster, rasterToPng } from '@modelgate/provider-sim';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fill } from '../images/pictures.js';
import { startTestGateway, type TestGateway } from '../support/index.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = resolve(import.meta.dirname, '../../test-results');

if (!existsSync(CHROMIUM)) {
  console.warn(`!! video first-frame test SKIPPED: no Chromium at ${CHROMIUM}`);
}

type Pixel = [number, number, number];

/** The picture of the video at `seconds`, as RGB at the given points (fractions of the size). */
async function frameAt(
  page: Page,
  mp4: Buffer,
  seconds: number,
  points: [number, number][],
  shot: string,
): Promise<Pixel[]> {
  const { pixels, png } = await page.evaluate(
    async ({ b64, seconds, points }) => {
      const video = document.createElement('video');
      video.muted = true;
      video.src = `data:video/mp4;base64,${b64}`;
      await new Promise((done, fail) => {
        video.onloadeddata = done;
        video.onerror = () => fail(new Error(`decode error ${video.error?.code}`));
      });
      video.currentTime = seconds;
      await new Promise((done) => {
        video.onseeked = done;
      });
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(video, 0, 0);
      const at = ([fx, fy]: [number, number]) => [
        ...context
          .getImageData(Math.floor(fx * canvas.width), Math.floor(fy * canvas.height), 1, 1)
          .data.slice(0, 3),
      ];
      return { pixels: points.map(at), png: canvas.toDataURL('image/png') };
    },
    { b64: mp4.toString('base64'), seconds, points },
  );
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(resolve(SHOTS, shot), Buffer.from(png.split(',')[1]!, 'base64'));
  return pixels as Pixel[];
}

// Studio-swing YUV 4:2:0 and back costs a few levels per channel.
const close = (a: readonly number[], b: readonly number[], tolerance = 16) =>
  a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

describe.skipIf(!existsSync(CHROMIUM))('demo videos in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    gw = await startTestGateway({ simulator: { video: { processingMs: 300 } } });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  async function finishedVideo(key: string, json: Record<string, unknown>): Promise<Buffer> {
    const submit = await gw.fetch('/v1/video/generations', { method: 'POST', key, json });
    expect(submit.status, await submit.clone().text()).toBe(200);
    const { task_id } = (await submit.json()) as { task_id: string };
    for (let i = 0; i < 100; i++) {
      const task = (await (await gw.fetch(`/v1/video/generations/${task_id}`, { key })).json()) as {
        status: string;
        video: { url: string } | null;
      };
      if (task.status === 'completed') {
        return Buffer.from(await (await fetch(task.video!.url)).arrayBuffer());
      }
      expect(task.status).not.toBe('failed');
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the video did not finish');
  }

  it('a video made from an uploaded image starts from that image, then moves', async () => {
    const { key } = await gw.createKey({ quota: 100_000_000 });
    // 1280x720: orange left half, a blue right half with a white square in it.
    const image = createRaster(1280, 720, [240, 140, 20, 255]);
    fill(image, { x: 640, y: 0, w: 640, h: 720 }, [30, 60, 200, 255]);
    fill(image, { x: 840, y: 200, w: 240, h: 320 }, [255, 255, 255, 255]);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(rasterToPng(image, true))]), 'start.png');
    form.append('purpose', 'image');
    const file = (await (
      await gw.fetch('/v1/files', { method: 'POST', key, body: form })
    ).json()) as {
      url: string;
    };
    const mp4 = await finishedVideo(key, {
      model: 'runway-gen4-turbo',
      prompt: 'the square drifts',
      image_url: file.url,
      duration: 2,
    });
    const points: [number, number][] = [
      [0.25, 0.2],
      [0.75, 0.15],
      [0.7, 0.4],
      [0.25, 0.8],
      [0.55, 0.48],
    ];
    const first = await frameAt(page, mp4, 0, points, 'video-from-image-first.png');
    expect(close(first[0]!, [240, 140, 20]), `orange: ${first[0]}`).toBe(true);
    expect(close(first[1]!, [30, 60, 200]), `blue: ${first[1]}`).toBe(true);
    expect(close(first[2]!, [255, 255, 255]), `white: ${first[2]}`).toBe(true);
    expect(close(first[3]!, [240, 140, 20]), `orange: ${first[3]}`).toBe(true);
    // The middle band slides right 4 px a frame: a second in, the orange half reaches past the middle.
    expect(close(first[4]!, [30, 60, 200]), `blue at the middle: ${first[4]}`).toBe(true);
    const later = await frameAt(page, mp4, 1, points, 'video-from-image-1s.png');
    expect(close(later[4]!, [240, 140, 20]), `orange slid in: ${later[4]}`).toBe(true);
    // Outside the band, the picture stays.
    expect(close(later[1]!, [30, 60, 200])).toBe(true);
  });

  it('a video from a prompt alone shows a square that moves', async () => {
    const { key } = await gw.createKey({ quota: 100_000_000 });
    const mp4 = await finishedVideo(key, { model: 'kling-v3', prompt: 'a square', duration: 3 });
    const points: [number, number][] = [
      [0.01, 0.5],
      [0.08, 0.5],
      [0.5, 0.1],
    ];
    const first = await frameAt(page, mp4, 0, points, 'video-from-prompt-first.png');
    const later = await frameAt(page, mp4, 1, points, 'video-from-prompt-1s.png');
    expect(Math.min(...first[0]!), `the square at the left: ${first[0]}`).toBeGreaterThan(200);
    expect(Math.max(...later[0]!), `gone from there a second later: ${later[0]}`).toBeLessThan(160);
    expect(Math.min(...later[1]!), `and 96 px further right: ${later[1]}`).toBeGreaterThan(200);
    expect(close(first[2]!, later[2]!, 2)).toBe(true);
  });
});
