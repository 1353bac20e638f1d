import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { postJson } from './helpers.js';
import { decodePng, jpegSize, webpSize } from './image-files.js';

let sim: Simulator;
let base: string;
const auth = { authorization: 'Bearer sk-images' };

beforeAll(async () => {
  sim = await startSimulator();
  base = `${sim.url}/openai/v1`;
});
afterEach(() => sim.faults.clear());
afterAll(() => sim.close());

async function generate(
  body: Record<string, unknown>,
  headers: Record<string, string> = auth,
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field by the assertions
): Promise<[number, any]> {
  const res = await postJson(`${base}/images/generations`, body, headers);
  return [res.status, await res.json()];
}

const bytesOf = (b64: string) => Buffer.from(b64, 'base64');

describe('OpenAI image generations (§12)', () => {
  it('gpt-image-1: base64 PNGs drawn from the prompt, the size and quality made, and usage', async () => {
    const [status, body] = await generate({ model: 'gpt-image-1', prompt: 'a red fox', n: 2 });
    expect(status).toBe(200);
    expect(body.created).toBeGreaterThan(1_700_000_000);
    expect(body).toMatchObject({
      size: '1024x1024',
      quality: 'medium',
      background: 'opaque',
      output_format: 'png',
    });
    expect(body.data).toHaveLength(2);
    const [first, second] = body.data.map((d: { b64_json: string }) =>
      decodePng(bytesOf(d.b64_json)),
    );
    expect([first.width, first.height, first.channels]).toEqual([1024, 1024, 3]);
    // A background and a centred square of the opposite colour; each image of n differs.
    const ground = first.pixel(0, 0);
    expect(first.pixel(512, 512)).toEqual(ground.map((c: number) => 255 - c));
    expect(second.pixel(0, 0)).not.toEqual(ground);
    expect(body.data[0].url).toBeUndefined();
    const { usage } = body;
    expect(usage.output_tokens).toBe(2 * 1056);
    expect(usage.input_tokens).toBeGreaterThan(0);
    expect(usage.input_tokens_details).toEqual({
      image_tokens: 0,
      text_tokens: usage.input_tokens,
    });
    expect(usage.total_tokens).toBe(usage.input_tokens + usage.output_tokens);
  });

  it('is deterministic per prompt', async () => {
    const request = { model: 'gpt-image-1', prompt: 'same prompt', quality: 'low' };
    const [, a] = await generate(request);
    const [, b] = await generate(request);
    const [, c] = await generate({ ...request, prompt: 'another prompt' });
    expect(a.data[0].b64_json).toBe(b.data[0].b64_json);
    expect(c.data[0].b64_json).not.toBe(a.data[0].b64_json);
    expect(a.usage.output_tokens).toBe(272);
  });

  it('gpt-image-1: draws the size asked, and JPEG, WebP and transparent PNG when asked', async () => {
    const [, wide] = await generate({
      model: 'gpt-image-1',
      prompt: 'x',
      size: '1536x1024',
      quality: 'high',
    });
    expect(decodePng(bytesOf(wide.data[0].b64_json))).toMatchObject({ width: 1536, height: 1024 });
    expect(wide.usage.output_tokens).toBe(6208);
    const [, jpeg] = await generate({
      model: 'gpt-image-1',
      prompt: 'x',
      size: '1024x1536',
      output_format: 'jpeg',
      output_compression: 50,
    });
    expect(jpeg.output_format).toBe('jpeg');
    expect(jpegSize(bytesOf(jpeg.data[0].b64_json))).toEqual({ width: 1024, height: 1536 });
    const [, webp] = await generate({
      model: 'gpt-image-1',
      prompt: 'x',
      output_format: 'webp',
      background: 'transparent',
    });
    expect(webpSize(bytesOf(webp.data[0].b64_json))).toEqual({
      width: 1024,
      height: 1024,
      alpha: true,
    });
    expect(webp.background).toBe('transparent');
    const [, clear] = await generate({
      model: 'gpt-image-1',
      prompt: 'x',
      background: 'transparent',
    });
    const png = decodePng(bytesOf(clear.data[0].b64_json));
    expect(png.channels).toBe(4);
    expect(png.pixel(0, 0)[3]).toBe(0);
    expect(png.pixel(512, 512)[3]).toBe(255);
  });

  it('dall-e-3: a URL the simulator serves, with a revised prompt; b64_json when asked', async () => {
    const [status, body] = await generate({
      model: 'dall-e-3',
      prompt: 'a lighthouse',
      size: '1792x1024',
      quality: 'hd',
      style: 'natural',
    });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['created', 'data']);
    const [image] = body.data;
    expect(image.revised_prompt).toContain('a lighthouse');
    expect(image.url).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/openai\/v1\/sim-media\/images\/[0-9a-f]+-1792x1024\.png$/,
    );
    const served = await fetch(image.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(decodePng(Buffer.from(await served.arrayBuffer()))).toMatchObject({
      width: 1792,
      height: 1024,
    });
    const [, inline] = await generate({
      model: 'dall-e-3',
      prompt: 'a lighthouse',
      size: '1792x1024',
      response_format: 'b64_json',
    });
    expect(inline.data[0].url).toBeUndefined();
    expect(decodePng(bytesOf(inline.data[0].b64_json))).toMatchObject({
      width: 1792,
      height: 1024,
    });
    expect((await fetch(`${base}/sim-media/images/nope.png`)).status).toBe(404);
  });

  it('dall-e-2 is the model when none is named, with up to 10 URLs', async () => {
    const [status, body] = await generate({ prompt: 'tiny', n: 3, size: '256x256' });
    expect(status).toBe(200);
    expect(body.data).toHaveLength(3);
    expect(body.data[0].url).toMatch(/-256x256\.png$/);
    expect(body.data[0].revised_prompt).toBeUndefined();
  });

  it.each([
    [
      { model: 'gpt-image-1', prompt: 'x', response_format: 'url' },
      400,
      'response_format',
      'unknown_parameter',
      "Unknown parameter: 'response_format'.",
    ],
    [
      { model: 'gpt-image-1', prompt: 'x', style: 'vivid' },
      400,
      'style',
      'unknown_parameter',
      "Unknown parameter: 'style'.",
    ],
    [
      { model: 'dall-e-2', prompt: 'x', background: 'opaque' },
      400,
      'background',
      'unknown_parameter',
      "Unknown parameter: 'background'.",
    ],
    [
      { model: 'gpt-image-1', prompt: 'x', size: '1792x1024' },
      400,
      'size',
      'invalid_value',
      "Invalid value: '1792x1024'. Supported values are: 'auto', '1024x1024', '1536x1024', and '1024x1536'.",
    ],
    [
      { model: 'dall-e-3', prompt: 'x', size: '256x256' },
      400,
      null,
      'invalid_size',
      'The size is not supported by this model.',
    ],
    [
      { model: 'dall-e-3', prompt: 'x', n: 2 },
      400,
      'n',
      'invalid_value',
      'You must provide n=1 for this model.',
    ],
    [
      { model: 'dall-e-2', prompt: 'x', n: 11 },
      400,
      'n',
      'above_max_value',
      "Invalid 'n': expected a value <= 10, but got 11 instead.",
    ],
    [
      { model: 'dall-e-2', prompt: 'x', quality: 'hd' },
      400,
      'quality',
      'invalid_value',
      "Invalid value: 'hd'. Supported values are: 'standard' and 'auto'.",
    ],
    [
      { model: 'dall-e-2', prompt: 'x'.repeat(1001) },
      400,
      'prompt',
      'string_above_max_length',
      "Invalid 'prompt': string too long. Expected a string with maximum length 1000, but got a string with length 1001 instead.",
    ],
    [
      { model: 'dall-e-3' },
      400,
      'prompt',
      'missing_required_parameter',
      "Missing required parameter: 'prompt'.",
    ],
    [
      { model: 'gpt-image-1', prompt: 'x', output_compression: 50 },
      400,
      'output_compression',
      'invalid_value',
      'Compression less than 100 is not supported for the png output format.',
    ],
    [
      { model: 'gpt-image-1', prompt: 'x', output_format: 'jpeg', background: 'transparent' },
      400,
      'background',
      'invalid_value',
      'Transparent background is not supported for the jpeg output format.',
    ],
    [
      { model: 'gpt-4o-mini', prompt: 'x' },
      400,
      'model',
      'invalid_value',
      "Invalid value for 'model': 'gpt-4o-mini'.",
    ],
    [
      { model: 'unknown-image', prompt: 'x' },
      404,
      null,
      'model_not_found',
      'The model `unknown-image` does not exist or you do not have access to it.',
    ],
  ])('refuses %j as the real API does', async (body, status, param, code, message) => {
    const [got, answer] = await generate(body);
    expect(got).toBe(status);
    expect(answer).toEqual({ error: { message, type: 'invalid_request_error', param, code } });
  });

  it('wants a key, and answers faults in OpenAI’s error shape', async () => {
    const [status, body] = await generate({ model: 'dall-e-3', prompt: 'x' }, {});
    expect(status).toBe(401);
    expect(body.error.type).toBe('invalid_request_error');
    sim.faults.add({ kind: 'status', status: 500, count: 1, match: { path: '/openai/v1/images' } });
    const [failed, error] = await generate({ model: 'dall-e-3', prompt: 'x' });
    expect(failed).toBe(500);
    expect(error.error.type).toBe('server_error');
    expect(sim.stats().routes['POST /openai/v1/images/generations']).toBeGreaterThan(0);
  });
});
