import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, signKlingJwt, startSimulator } from '../src/index.js';
import { inspectMp4, pollUntil, postJson } from './helpers.js';

let sim: Simulator;
/** Tasks that stay queued for a long time: for pending and cancel checks without races. */
let slow: Simulator;
const bearer = { authorization: 'Bearer sk-video' };
const IMAGE = 'https://cdn.example.com/a.jpg';

beforeAll(async () => {
  sim = await startSimulator({ video: { processingMs: 120 } });
  slow = await startSimulator({ video: { processingMs: 60_000 } });
});
afterEach(() => sim.faults.clear());
afterAll(async () => {
  await sim.close();
  await slow.close();
});

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the assertions
async function json(res: Response): Promise<any> {
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}
const get = (path: string, headers: Record<string, string> = bearer) =>
  fetch(`${sim.url}${path}`, { headers });

async function expectMp4(
  url: string,
  size: { width: number; height: number; duration: number },
  headers: Record<string, string> = {},
) {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('video/mp4');
  const bytes = new Uint8Array(await res.arrayBuffer());
  const info = inspectMp4(bytes);
  expect(info.boxes[0]).toBe('ftyp');
  expect(info.boxes).toEqual(['ftyp', 'moov', 'mdat']);
  expect(info).toMatchObject(size);
  expect(bytes.length).toBeLessThan(64 * 1024);
}

describe('xAI (§3)', () => {
  it('submits, polls 202 pending then done, downloads', async () => {
    const submit = await postJson(
      `${sim.url}/xai/v1/videos/generations`,
      {
        model: 'grok-imagine-video',
        prompt: 'A boat',
        duration: 6,
        aspect_ratio: '16:9',
        resolution: '720p',
      },
      bearer,
    );
    expect(submit.status).toBe(200);
    const { request_id } = await json(submit);
    const pendingId = (
      await json(
        await postJson(`${slow.url}/xai/v1/videos/generations`, { prompt: 'A boat' }, bearer),
      )
    ).request_id;
    const first = await fetch(`${slow.url}/xai/v1/videos/${pendingId}`, { headers: bearer });
    expect(first.status).toBe(202);
    expect(await json(first)).toMatchObject({ status: 'pending', progress: expect.any(Number) });
    const done = await pollUntil(
      async () => json(await get(`/xai/v1/videos/${request_id}`)),
      (b) => b?.status === 'done',
    );
    expect(done.video).toMatchObject({ duration: 6, respect_moderation: true });
    expect(done.usage.cost_in_usd_ticks).toBeGreaterThan(0);
    await expectMp4(done.video.url, { width: 1280, height: 720, duration: 6 });
  });

  it('validates in its flat error shape and fails tasks on a task-fail fault', async () => {
    const bad = await postJson(
      `${sim.url}/xai/v1/videos/generations`,
      { prompt: 'x', duration: 20 },
      bearer,
    );
    expect(bad.status).toBe(400);
    expect(await json(bad)).toMatchObject({
      code: expect.any(String),
      error: expect.stringContaining('duration'),
    });
    expect((await postJson(`${sim.url}/xai/v1/videos/generations`, { prompt: 'x' })).status).toBe(
      401,
    );
    sim.faults.add({ kind: 'task-fail', match: { path: '/xai' }, count: 1, message: 'boom' });
    const { request_id } = await json(
      await postJson(`${sim.url}/xai/v1/videos/generations`, { prompt: 'x' }, bearer),
    );
    const failed = await pollUntil(
      async () => json(await get(`/xai/v1/videos/${request_id}`)),
      (b) => b?.status !== 'pending',
    );
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: 'internal_error', message: 'boom' },
    });
  });
});

describe('Gemini Veo (§4)', () => {
  const key = { 'x-goog-api-key': 'g-key' };
  it('runs an operation and downloads the uri with the key', async () => {
    const submit = await postJson(
      `${sim.url}/gemini/v1beta/models/veo-3.1-generate-preview:predictLongRunning`,
      {
        instances: [
          {
            prompt: 'A lighthouse',
            image: { bytesBase64Encoded: 'iVBORw0KGgo=', mimeType: 'image/png' },
          },
        ],
        parameters: { aspectRatio: '9:16', durationSeconds: 4, resolution: '1080p' },
      },
      key,
    );
    expect(submit.status).toBe(200);
    const { name } = await json(submit);
    expect(name).toMatch(/^models\/veo-3\.1-generate-preview\/operations\//);
    const op = await pollUntil(
      async () => json(await get(`/gemini/v1beta/${name}`, key)),
      (b) => b.done === true,
    );
    const uri = op.response.generateVideoResponse.generatedSamples[0].video.uri as string;
    expect((await fetch(uri)).status).toBe(403);
    await expectMp4(uri, { width: 1080, height: 1920, duration: 4 }, key);
  });

  it('refuses SDK-forbidden parameters and URL images', async () => {
    const url = `${sim.url}/gemini/v1beta/models/veo-3.1-generate-preview:predictLongRunning`;
    const seed = await postJson(
      url,
      { instances: [{ prompt: 'x' }], parameters: { seed: 1 } },
      key,
    );
    expect(seed.status).toBe(400);
    expect((await json(seed)).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(
      (await postJson(url, { instances: [{ prompt: 'x', image: { gcsUri: 'gs://a' } }] }, key))
        .status,
    ).toBe(400);
    expect(
      (
        await postJson(
          url,
          { instances: [{ prompt: 'x' }], parameters: { durationSeconds: 5 } },
          key,
        )
      ).status,
    ).toBe(400);
  });
});

describe('Kling (§5)', () => {
  const jwt = () => ({
    authorization: `Bearer ${signKlingJwt('sim-access-key', 'sim-secret-key')}`,
  });
  it('verifies the JWT and runs text2video', async () => {
    const body = {
      model_name: 'kling-v3',
      prompt: 'A calm woman smiles',
      mode: 'std',
      aspect_ratio: '16:9',
      duration: '5',
    };
    const wrong = await postJson(`${sim.url}/kling/v1/videos/text2video`, body, {
      authorization: `Bearer ${signKlingJwt('sim-access-key', 'other')}`,
    });
    expect(wrong.status).toBe(401);
    expect((await json(wrong)).code).toBe(1002);
    const expired = signKlingJwt(
      'sim-access-key',
      'sim-secret-key',
      Math.floor(Date.now() / 1000) - 4000,
    );
    expect(
      (
        await json(
          await postJson(`${sim.url}/kling/v1/videos/text2video`, body, {
            authorization: `Bearer ${expired}`,
          }),
        )
      ).code,
    ).toBe(1004);
    const submit = await json(await postJson(`${sim.url}/kling/v1/videos/text2video`, body, jwt()));
    expect(submit).toMatchObject({
      code: 0,
      message: 'SUCCEED',
      data: { task_status: 'submitted' },
    });
    expect(submit.data.created_at).toBeGreaterThan(1e12);
    const id = submit.data.task_id;
    expect((await get(`/kling/v1/videos/image2video/${id}`, jwt())).status).toBe(404);
    const done = await pollUntil(
      async () => json(await get(`/kling/v1/videos/text2video/${id}`, jwt())),
      (b) => ['succeed', 'failed'].includes(b.data.task_status),
    );
    expect(done.data.task_status).toBe('succeed');
    const video = done.data.task_result.videos[0];
    expect(typeof video.duration).toBe('string');
    await expectMp4(video.url, { width: 1280, height: 720, duration: 5 });
  });

  it('finds a task by its external_task_id and refuses to reuse one', async () => {
    const body = {
      model_name: 'kling-v3',
      prompt: 'x',
      duration: '5',
      external_task_id: 'vt_ref1',
    };
    // The answer is lost (as when the caller crashes mid-request), yet the task exists.
    sim.faults.add({ kind: 'lose-response', count: 1, match: { path: '/kling/v1/videos' } });
    const lost = fetch(`${sim.url}/kling/v1/videos/text2video`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...jwt() },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(300),
    });
    await expect(lost).rejects.toMatchObject({ name: 'TimeoutError' });
    const found = await json(await get('/kling/v1/videos/text2video/vt_ref1', jwt()));
    expect(found.data).toMatchObject({ task_info: { external_task_id: 'vt_ref1' } });
    expect(found.data.task_id).toMatch(/^\d{18}$/);
    expect((await get('/kling/v1/videos/image2video/vt_ref1', jwt())).status).toBe(404);
    const again = await postJson(`${sim.url}/kling/v1/videos/text2video`, body, jwt());
    expect(again.status).toBe(400);
    expect((await json(again)).code).toBe(1201);
    expect((await get('/kling/v1/videos/text2video/vt_unknown', jwt())).status).toBe(404);
  });

  it('refuses data: prefixes in image2video', async () => {
    const res = await postJson(
      `${sim.url}/kling/v1/videos/image2video`,
      { model_name: 'kling-v3', image: 'data:image/png;base64,AAAA' },
      jwt(),
    );
    expect(res.status).toBe(400);
  });
});

describe('BytePlus Seedance (§6)', () => {
  it('runs a task with inline flags, and cancels a queued one', async () => {
    const body = {
      model: 'seedance-1-5-pro-251215',
      content: [
        { type: 'text', text: 'A dog runs --resolution 480p --duration 4' },
        { type: 'image_url', image_url: { url: IMAGE }, role: 'first_frame' },
      ],
      ratio: '16:9',
    };
    const { id } = await json(
      await postJson(`${sim.url}/byteplus/api/v3/contents/generations/tasks`, body, bearer),
    );
    expect(id).toMatch(/^cgt-/);
    const done = await pollUntil(
      async () => json(await get(`/byteplus/api/v3/contents/generations/tasks/${id}`)),
      (b) => !['queued', 'running'].includes(b.status),
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      resolution: '480p',
      duration: 4,
      error: null,
    });
    expect(done.usage.completion_tokens).toBeGreaterThan(0);
    await expectMp4(done.content.video_url, { width: 854, height: 480, duration: 4 });

    const queued = await json(
      await postJson(`${slow.url}/byteplus/api/v3/contents/generations/tasks`, body, bearer),
    );
    const tasks = `${slow.url}/byteplus/api/v3/contents/generations/tasks/${queued.id}`;
    expect((await json(await fetch(tasks, { headers: bearer }))).status).toBe('queued');
    const del = await fetch(tasks, { method: 'DELETE', headers: bearer });
    expect(await json(del)).toEqual({});
    expect((await json(await fetch(tasks, { headers: bearer }))).status).toBe('cancelled');
  });

  it('answers 5xx while polling under a status fault, in its error shape', async () => {
    const { id } = await json(
      await postJson(
        `${sim.url}/byteplus/api/v3/contents/generations/tasks`,
        { model: 'm', content: [{ type: 'text', text: 'x' }] },
        bearer,
      ),
    );
    sim.faults.add({
      kind: 'status',
      status: 503,
      count: 1,
      match: { path: '/byteplus/api/v3/contents/generations/tasks/' },
    });
    const res = await get(`/byteplus/api/v3/contents/generations/tasks/${id}`);
    expect(res.status).toBe(503);
    expect((await json(res)).error).toMatchObject({ code: 'ServiceUnavailable' });
    expect((await get(`/byteplus/api/v3/contents/generations/tasks/${id}`)).status).toBe(200);
  });
});

describe('MiniMax Hailuo (§7)', () => {
  it('query → file retrieve → download_url', async () => {
    const submit = await json(
      await postJson(
        `${sim.url}/minimax/v1/video_generation`,
        {
          model: 'MiniMax-Hailuo-2.3',
          prompt: '[Push in] A cat',
          duration: 6,
          resolution: '1080P',
        },
        bearer,
      ),
    );
    expect(submit.base_resp.status_code).toBe(0);
    const done = await pollUntil(
      async () => json(await get(`/minimax/v1/query/video_generation?task_id=${submit.task_id}`)),
      (b) => ['Success', 'Fail'].includes(b.status),
    );
    expect(done).toMatchObject({ status: 'Success', video_width: 1920, video_height: 1080 });
    const file = await json(await get(`/minimax/v1/files/retrieve?file_id=${done.file_id}`));
    expect(file.file).toMatchObject({ purpose: 'video_generation', filename: 'output.mp4' });
    await expectMp4(file.file.download_url, { width: 1920, height: 1080, duration: 6 });
  });

  it('reports business errors in base_resp with HTTP 200', async () => {
    const res = await postJson(
      `${sim.url}/minimax/v1/video_generation`,
      { model: 'MiniMax-Hailuo-2.3', prompt: 'x', duration: 10, resolution: '1080P' },
      bearer,
    );
    expect(res.status).toBe(200);
    expect((await json(res)).base_resp.status_code).toBe(2013);
    const auth = await postJson(`${sim.url}/minimax/v1/video_generation`, {
      model: 'MiniMax-Hailuo-2.3',
      prompt: 'x',
    });
    expect((await json(auth)).base_resp.status_code).toBe(1004);
  });
});

describe('DashScope Wan (§8)', () => {
  it('requires the async header, then runs to SUCCEEDED', async () => {
    const body = {
      model: 'wan2.6-t2v',
      input: { prompt: 'A fox detective' },
      parameters: { size: '1280*720', duration: 5, seed: 42 },
    };
    const url = `${sim.url}/dashscope/api/v1/services/aigc/video-generation/video-synthesis`;
    expect((await postJson(url, body, bearer)).status).toBe(403);
    const submit = await json(
      await postJson(url, body, { ...bearer, 'X-DashScope-Async': 'enable' }),
    );
    expect(submit.output).toMatchObject({ task_status: 'PENDING' });
    const done = await pollUntil(
      async () => json(await get(`/dashscope/api/v1/tasks/${submit.output.task_id}`)),
      (b) => !['PENDING', 'RUNNING'].includes(b.output.task_status),
    );
    expect(done.output.task_status).toBe('SUCCEEDED');
    expect(done.usage).toMatchObject({ video_duration: 5, video_count: 1 });
    await expectMp4(done.output.video_url, { width: 1280, height: 720, duration: 5 });
    expect((await json(await get('/dashscope/api/v1/tasks/nope'))).output.task_status).toBe(
      'UNKNOWN',
    );
  });

  it('cancels a PENDING task', async () => {
    const url = `${slow.url}/dashscope/api/v1/services/aigc/video-generation/video-synthesis`;
    const body = {
      model: 'wan2.6-i2v',
      input: { img_url: IMAGE },
      parameters: { resolution: '720P' },
    };
    const submit = await json(
      await postJson(url, body, { ...bearer, 'X-DashScope-Async': 'enable' }),
    );
    const id = submit.output.task_id;
    expect(
      (await postJson(`${slow.url}/dashscope/api/v1/tasks/${id}/cancel`, {}, bearer)).status,
    ).toBe(200);
    const task = await json(
      await fetch(`${slow.url}/dashscope/api/v1/tasks/${id}`, { headers: bearer }),
    );
    expect(task.output.task_status).toBe('CANCELED');
  });
});

describe('Vidu (§9)', () => {
  const token = { authorization: 'Token vidu-key' };
  it('uses Token auth and answers creations', async () => {
    const body = {
      model: 'viduq2-pro',
      images: [IMAGE],
      prompt: 'Astronaut walks',
      duration: 5,
      resolution: '1080p',
      payload: 'p1',
    };
    expect((await postJson(`${sim.url}/vidu/ent/v2/img2video`, body, bearer)).status).toBe(401);
    const submit = await json(await postJson(`${sim.url}/vidu/ent/v2/img2video`, body, token));
    expect(submit).toMatchObject({ state: 'created', model: 'viduq2-pro', payload: 'p1' });
    const done = await pollUntil(
      async () => json(await get(`/vidu/ent/v2/tasks/${submit.task_id}/creations`, token)),
      (b) => ['success', 'failed'].includes(b.state),
    );
    expect(done.state).toBe('success');
    await expectMp4(done.creations[0].url, { width: 1920, height: 1080, duration: 5 });
  });

  it('cancels a queued task', async () => {
    const submit = await json(
      await postJson(
        `${slow.url}/vidu/ent/v2/text2video`,
        { model: 'viduq2', prompt: 'Fog' },
        token,
      ),
    );
    const cancel = await postJson(
      `${slow.url}/vidu/ent/v2/tasks/${submit.task_id}/cancel`,
      { id: submit.task_id },
      token,
    );
    expect(await json(cancel)).toEqual({});
    const state = await json(
      await fetch(`${slow.url}/vidu/ent/v2/tasks/${submit.task_id}/creations`, { headers: token }),
    );
    expect(state).toMatchObject({ state: 'failed', creations: [] });
  });

  it('refuses plain viduq2 on img2video', async () => {
    const res = await postJson(
      `${sim.url}/vidu/ent/v2/img2video`,
      { model: 'viduq2', images: [IMAGE] },
      token,
    );
    expect(res.status).toBe(400);
    expect(await json(res)).toMatchObject({ code: 400, reason: 'BadRequest' });
  });
});

describe('Runway (§10)', () => {
  const headers = { ...bearer, 'X-Runway-Version': '2024-11-06' };
  it('requires the version header and an HTTPS image, then runs', async () => {
    const body = {
      model: 'gen4_turbo',
      promptImage: IMAGE,
      promptText: 'Slow push-in',
      ratio: '720:1280',
      duration: 5,
      seed: 42,
    };
    expect((await postJson(`${sim.url}/runway/v1/image_to_video`, body, bearer)).status).toBe(400);
    expect(
      (
        await postJson(
          `${sim.url}/runway/v1/image_to_video`,
          { ...body, promptImage: 'http://127.0.0.1/a.jpg' },
          headers,
        )
      ).status,
    ).toBe(400);
    const { id } = await json(await postJson(`${sim.url}/runway/v1/image_to_video`, body, headers));
    const done = await pollUntil(
      async () => json(await get(`/runway/v1/tasks/${id}`, headers)),
      (b) => ['SUCCEEDED', 'FAILED'].includes(b.status),
    );
    expect(done.status).toBe('SUCCEEDED');
    // @runwayml/sdk 4.14+ requires the cost of an ended task (and the estimate before).
    expect(done.cost).toEqual({ credits: 25 });
    expect(done.estimatedCost).toBeUndefined();
    await expectMp4(done.output[0], { width: 720, height: 1280, duration: 5 });
    const del = await fetch(`${sim.url}/runway/v1/tasks/${id}`, { method: 'DELETE', headers });
    expect(del.status).toBe(204);
    expect((await get(`/runway/v1/tasks/${id}`, headers)).status).toBe(404);
  });

  it('cancels a pending task', async () => {
    const { id } = await json(
      await postJson(
        `${slow.url}/runway/v1/image_to_video`,
        { model: 'gen4_turbo', promptImage: IMAGE, ratio: '1280:720' },
        headers,
      ),
    );
    const task = `${slow.url}/runway/v1/tasks/${id}`;
    const pending = await json(await fetch(task, { headers }));
    expect(pending).toMatchObject({ status: 'PENDING', estimatedCost: { credits: 25 } });
    expect((await fetch(task, { method: 'DELETE', headers })).status).toBe(204);
    const cancelled = await json(await fetch(task, { headers }));
    expect(cancelled).toMatchObject({ status: 'CANCELLED', cost: { credits: 0 } });
  });
});

describe('Luma (§11)', () => {
  it('creates (201), dreams, completes, and the asset 404s under a result-404 fault', async () => {
    const body = {
      model: 'ray-2',
      prompt: 'A serene lake',
      aspect_ratio: '1:1',
      duration: '9s',
      resolution: '540p',
    };
    const created = await postJson(
      `${sim.url}/luma/dream-machine/v1/generations/video`,
      body,
      bearer,
    );
    expect(created.status).toBe(201);
    const gen = await json(created);
    expect(gen).toMatchObject({ generation_type: 'video', state: 'queued', assets: null });
    const done = await pollUntil(
      async () => json(await get(`/luma/dream-machine/v1/generations/${gen.id}`)),
      (b) => ['completed', 'failed'].includes(b.state),
    );
    expect(done.state).toBe('completed');
    await expectMp4(done.assets.video, { width: 540, height: 540, duration: 9 });

    sim.faults.add({ kind: 'result-404', match: { path: '/luma' }, count: 1 });
    const second = await json(
      await postJson(`${sim.url}/luma/dream-machine/v1/generations`, body, bearer),
    );
    const finished = await pollUntil(
      async () => json(await get(`/luma/dream-machine/v1/generations/${second.id}`)),
      (b) => b.state === 'completed',
    );
    expect((await fetch(finished.assets.video)).status).toBe(404);
  });

  it('answers {detail} on a bad key', async () => {
    const strict = await startSimulator({ requireKey: 'right' });
    try {
      const res = await postJson(
        `${strict.url}/luma/dream-machine/v1/generations/video`,
        { model: 'ray-2', prompt: 'x' },
        { authorization: 'Bearer wrong' },
      );
      expect(res.status).toBe(401);
      expect(await json(res)).toEqual({ detail: 'Invalid API key is provided' });
    } finally {
      await strict.close();
    }
  });
});
