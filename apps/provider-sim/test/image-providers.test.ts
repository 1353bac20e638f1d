// The image endpoints beyond OpenAI's generations, each in its provider's wire protocol: OpenAI
// edits and variations (multipart), Gemini's generateContent for image models, Seedream's image
// generations and FLUX Kontext's submit-then-poll. Edits keep the input's composition (a black
// square stays where it was) and visibly change it (tint, words drawn in the lower part).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRaster,
  decodePng,
  rasterToPng,
  type Simulator,
  startSimulator,
} from '../src/index.js';
import { parseSse, postJson } from './helpers.js';

/** A 256² white PNG with a black square in its top-left quarter, optionally transparent on the right. */
function squarePng(transparentRight = false): Buffer {
  const raster = createRaster(256, 256, [255, 255, 255, 255]);
  for (let y = 32; y < 96; y++)
    for (let x = 32; x < 96; x++) raster.pixels.set([0, 0, 0, 255], (y * 256 + x) * 4);
  if (transparentRight) {
    for (let y = 0; y < 256; y++)
      for (let x = 128; x < 256; x++) raster.pixels.set([0, 0, 0, 0], (y * 256 + x) * 4);
  }
  return rasterToPng(raster, !transparentRight);
}

function pixel(png: Buffer, fx: number, fy: number): number[] {
  const r = decodePng(png)!;
  const i = (Math.floor(fy * r.height) * r.width + Math.floor(fx * r.width)) * 4;
  return [...r.pixels.subarray(i, i + 4)];
}

function expectEdited(png: Buffer): void {
  expect(Math.max(...pixel(png, 0.25, 0.25).slice(0, 3))).toBeLessThan(110);
  const ground = pixel(png, 0.75, 0.4).slice(0, 3);
  expect(Math.max(...ground)).toBeGreaterThan(150);
  expect(Math.min(...ground)).toBeLessThan(215);
}

describe('image endpoints', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(() => sim.close());

  const form = (fields: Record<string, string | Buffer | Buffer[]>) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'string') body.append(name, item);
        else body.append(name, new Blob([new Uint8Array(item)], { type: 'image/png' }), 'a.png');
      }
    }
    return body;
  };
  const edit = (fields: Record<string, string | Buffer | Buffer[]>) =>
    fetch(`${sim.url}/openai/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-x' },
      body: form(fields),
    });

  it('OpenAI edits: the GPT image models edit several images; dall-e-2 draws where it is transparent', async () => {
    const res = await edit({
      model: 'gpt-image-1',
      prompt: 'sage green',
      'image[]': [squarePng(), squarePng()],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ size: '1024x1024', quality: 'medium', output_format: 'png' });
    expect(body.usage.input_tokens_details.image_tokens).toBe(2 * (65 + 129));
    expectEdited(Buffer.from(body.data[0].b64_json, 'base64'));
    const dalle = await (
      await edit({
        model: 'dall-e-2',
        prompt: 'a lake',
        image: squarePng(true),
        response_format: 'b64_json',
      })
    ).json();
    const out = Buffer.from(dalle.data[0].b64_json, 'base64');
    expect(pixel(out, 0.25, 0.25).slice(0, 3)).toEqual([0, 0, 0]);
    expect(pixel(out, 0.4, 0.1).slice(0, 3)).toEqual([255, 255, 255]);
    expect(pixel(out, 0.75, 0.1).slice(0, 3)).not.toEqual([255, 255, 255]);
  });

  it('OpenAI edits refuse as OpenAI does', async () => {
    const rgb = await edit({ model: 'dall-e-2', prompt: 'x', image: squarePng() });
    expect((await rgb.json()).error.message).toBe(
      "Invalid input image - format must be in ['RGBA', 'LA', 'L'], got RGB.",
    );
    const three = await edit({ model: 'dall-e-3', prompt: 'x', image: squarePng() });
    expect(three.status).toBe(400);
    const unknown = await edit({
      model: 'dall-e-2',
      prompt: 'x',
      image: squarePng(true),
      style: 'vivid',
    });
    expect((await unknown.json()).error).toMatchObject({
      code: 'unknown_parameter',
      param: 'style',
    });
    const json = await postJson(
      `${sim.url}/openai/v1/images/edits`,
      { prompt: 'x' },
      { authorization: 'Bearer sk-x' },
    );
    expect(json.status).toBe(400);
  });

  it('OpenAI streamed edits: partial images, then the finished one with its usage', async () => {
    const res = await edit({
      model: 'gpt-image-1',
      prompt: 'x',
      image: squarePng(),
      stream: 'true',
      partial_images: '2',
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual([
      'image_edit.partial_image',
      'image_edit.partial_image',
      'image_edit.completed',
    ]);
    const completed = JSON.parse(events[2]!.data);
    expect(completed.usage.output_tokens).toBe(1056);
    expectEdited(Buffer.from(completed.b64_json, 'base64'));
  });

  it('OpenAI variations: dall-e-2 only, the input kept (mirrored for every other image)', async () => {
    const res = await fetch(`${sim.url}/openai/v1/images/variations`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-x' },
      body: form({ image: squarePng(), n: '2', size: '256x256', response_format: 'b64_json' }),
    });
    const { data } = await res.json();
    expect(
      Math.max(...pixel(Buffer.from(data[0].b64_json, 'base64'), 0.25, 0.25).slice(0, 3)),
    ).toBeLessThan(110);
    expect(
      Math.max(...pixel(Buffer.from(data[1].b64_json, 'base64'), 0.75, 0.25).slice(0, 3)),
    ).toBeLessThan(110);
  });

  it('Gemini generateContent: an inline image part at the aspect ratio asked; an edit keeps its input', async () => {
    const send = (body: unknown) =>
      postJson(`${sim.url}/gemini/v1beta/models/gemini-2.5-flash-image:generateContent`, body, {
        'x-goog-api-key': 'k',
      });
    const made = await (
      await send({
        contents: [{ parts: [{ text: 'a fox' }] }],
        generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9' } },
      })
    ).json();
    const part = made.candidates[0].content.parts.find(
      (p: { inlineData?: unknown }) => p.inlineData,
    );
    const picture = decodePng(Buffer.from(part.inlineData.data, 'base64'))!;
    expect([picture.width, picture.height]).toEqual([1344, 768]);
    expect(made.usageMetadata.candidatesTokenCount).toBe(1290);
    const edited = await (
      await send({
        contents: [
          {
            parts: [
              { text: 'sage green' },
              { inline_data: { mime_type: 'image/png', data: squarePng().toString('base64') } },
            ],
          },
        ],
      })
    ).json();
    expectEdited(Buffer.from(edited.candidates[0].content.parts[1].inlineData.data, 'base64'));
    const refused = await (
      await send({ contents: [{ parts: [{ text: 'something forbidden' }] }] })
    ).json();
    expect(refused.candidates[0]).toMatchObject({
      finishReason: 'IMAGE_SAFETY',
      content: { parts: [] },
    });
  });

  it('Seedream: sizes as levels or pixels, input images in image, a sequential set', async () => {
    const send = (body: unknown) =>
      postJson(`${sim.url}/byteplus/api/v3/images/generations`, body, {
        authorization: 'Bearer k',
      });
    const set = await (
      await send({
        model: 'seedream-4-0-250828',
        prompt: 'sage green',
        image: [`data:image/png;base64,${squarePng().toString('base64')}`],
        size: '1K',
        sequential_image_generation: 'auto',
        sequential_image_generation_options: { max_images: 2 },
        response_format: 'b64_json',
        watermark: false,
      })
    ).json();
    expect(set.data).toHaveLength(2);
    expect(set.data[0].size).toBe('1024x1024');
    expect(set.usage.generated_images).toBe(2);
    expectEdited(Buffer.from(set.data[0].b64_json, 'base64'));
    const tooSmall = await send({ model: 'seedream-4-0-250828', prompt: 'x', size: '512x512' });
    expect((await tooSmall.json()).error).toMatchObject({
      code: 'InvalidParameter',
      param: 'size',
    });
  });

  it('FLUX Kontext: submit, poll Pending then Ready, download the sample without the key', async () => {
    const submit = await postJson(
      `${sim.url}/bfl/v1/flux-kontext-pro`,
      { prompt: 'sage green', input_image: squarePng().toString('base64'), aspect_ratio: '1:1' },
      { 'x-key': 'k' },
    );
    const { polling_url } = await submit.json();
    let task = await (await fetch(polling_url, { headers: { 'x-key': 'k' } })).json();
    expect(task.status).toBe('Pending');
    while (task.status === 'Pending') {
      await new Promise((r) => setTimeout(r, 100));
      task = await (await fetch(polling_url, { headers: { 'x-key': 'k' } })).json();
    }
    expect(task.status).toBe('Ready');
    expectEdited(Buffer.from(await (await fetch(task.result.sample)).arrayBuffer()));
    const noKey = await postJson(`${sim.url}/bfl/v1/flux-kontext-pro`, { prompt: 'x' });
    expect(noKey.status).toBe(403);
  });
});
