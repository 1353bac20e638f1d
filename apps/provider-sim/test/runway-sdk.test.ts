// Runway's official Node SDK (`@runwayml/sdk` 4.20.1), unchanged, against the simulator: its types
// declare `estimatedCost` required on the create answer and on pending and running tasks, and
// `cost` on ended ones; the SDK's own waitForTaskOutput polls the task to its output.
import RunwayML from '@runwayml/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRaster, rasterToPng, type Simulator, startSimulator } from '../src/index.js';

describe('@runwayml/sdk 4.20 against the simulator', () => {
  let sim: Simulator;
  let slow: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ video: { processingMs: 200 } });
    slow = await startSimulator({ video: { processingMs: 60_000 } });
  });
  afterAll(async () => {
    await sim.close();
    await slow.close();
  });

  const promptImage = `data:image/png;base64,${rasterToPng(createRaster(64, 36, [200, 40, 40, 255]), true).toString('base64')}`;
  const client = (s: Simulator) =>
    new RunwayML({ apiKey: 'key_sim', baseURL: `${s.url}/runway`, maxRetries: 0 });

  it('create answers the estimate; the task carries it while it runs, its cost once done', async () => {
    const created = await client(slow).imageToVideo.create({
      model: 'gen4_turbo',
      promptImage,
      promptText: 'a red field',
      ratio: '1280:720',
      duration: 5,
    });
    expect(created.estimatedCost).toEqual({ credits: 25 });
    const task = await client(slow).tasks.retrieve(created.id);
    expect(task.status).toBe('PENDING');
    if (task.status === 'PENDING') expect(task.estimatedCost.credits).toBe(25);
    await client(slow).tasks.delete(created.id);
    const cancelled = await client(slow).tasks.retrieve(created.id);
    expect(cancelled.status).toBe('CANCELLED');
    if (cancelled.status === 'CANCELLED') expect(cancelled.cost.credits).toBe(0);
  });

  it('waitForTaskOutput polls to the finished video', async () => {
    const done = await client(sim)
      .imageToVideo.create({
        model: 'gen4_turbo',
        promptImage,
        promptText: 'a red field',
        ratio: '1280:720',
        duration: 2,
      })
      .waitForTaskOutput({ timeout: 30_000 });
    expect(done.status).toBe('SUCCEEDED');
    expect(done.cost.credits).toBe(10);
    const video = await fetch(done.output[0]!);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    // The SDK polls every few seconds and the video is encoded on completion: more than the
    // suite's 10 s default on a loaded machine.
  }, 60_000);
});
