/**
 * The image providers beyond OpenAI, end to end against the simulator, each through its own wire
 * protocol (docs/providers.md §13–§15): Gemini's `generateContent`, Seedream's image generations
 * and FLUX Kontext's submit-then-poll. Each generates, edits an uploaded image (the answer is that
 * image, changed), is charged its price per image, and a prompt its upstream refuses is a 400 that
 * costs nothing.
 */
import { zCreditSummary, zImagesResponse } from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../contract/support.js';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { decodePng, expectEditedSquare, squarePng } from './pictures.js';

const GENERATE = 'POST /v1/images/generations';
const EDIT = 'POST /v1/images/edits';

const PROVIDERS = [
  {
    model: 'gemini-2.5-flash-image',
    route: 'POST /gemini/v1beta/models/{model}:generateContent',
    price: 39_000,
    size: '1344x768',
    made: [1344, 768],
  },
  {
    model: 'seedream-4-0',
    route: 'POST /byteplus/api/v3/images/generations',
    price: 30_000,
    size: '2560x1440',
    made: [2560, 1440],
  },
  {
    model: 'flux-kontext-pro',
    route: 'POST /bfl/v1/flux-kontext-pro',
    price: 40_000,
    size: '1248x832',
    made: [1248, 832],
  },
] as const;

describe('image providers beyond OpenAI, against the simulator', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  async function usedUnits(key: string): Promise<number> {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
    return Math.round(zCreditSummary.parse(await res.json()).total_used * 1_000_000);
  }

  async function upload(key: string, png: Buffer): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'in.png');
    form.append('purpose', 'image');
    const res = await gw.fetch('/v1/files', { method: 'POST', key, body: form });
    return ((await res.json()) as { id: string }).id;
  }

  describe.each(PROVIDERS)('$model', ({ model, route, price, size, made }) => {
    it('generates at the size asked, stored on the CDN, charged its price', async () => {
      const { key } = await gw.createKey({ quota: 10_000_000 });
      const calls = gw.simulator!.stats().routes[route] ?? 0;
      const res = await gw.fetch('/v1/images/generations', {
        method: 'POST',
        key,
        json: { model, prompt: 'a lighthouse at dusk', size },
      });
      const body = await expectOk(res, GENERATE, zImagesResponse);
      expect(body.size).toBe(size);
      const served = await fetch(body.data[0]!.url!);
      const picture = decodePng(Buffer.from(await served.arrayBuffer()))!;
      expect([picture.width, picture.height]).toEqual(made);
      expect(gw.simulator!.stats().routes[route]).toBe(calls + 1);
      expect(await usedUnits(key)).toBe(price);
    });

    it('edits an uploaded image: the answer is that image, changed', async () => {
      const { key } = await gw.createKey({ quota: 10_000_000 });
      const fileId = await upload(key, squarePng(512));
      const res = await gw.fetch('/v1/images/edits', {
        method: 'POST',
        key,
        json: {
          model,
          prompt: 'paint it sage green',
          images: [{ file_id: fileId }],
          response_format: 'b64_json',
        },
      });
      const body = await expectOk(res, EDIT, zImagesResponse);
      const edited = expectEditedSquare(Buffer.from(body.data[0]!.b64_json!, 'base64'));
      // auto: a square input makes a square picture.
      expect(edited.width).toBe(edited.height);
      expect(await usedUnits(key)).toBe(price);
    });

    it('a prompt its upstream refuses is a 400 that costs nothing', async () => {
      const { key } = await gw.createKey({ quota: 10_000_000 });
      const res = await gw.fetch('/v1/images/generations', {
        method: 'POST',
        key,
        json: { model, prompt: 'something forbidden' },
      });
      await expectError(res, GENERATE, { status: 400, code: 'upstream_invalid_request' });
      expect(await usedUnits(key)).toBe(0);
    });
  });

  it('lists each with its sizes, price and operations', async () => {
    const { key } = await gw.createKey();
    const list = (await (await gw.fetch('/v1/models', { key })).json()) as {
      data: { id: string; owned_by: string; image?: Record<string, unknown> }[];
    };
    const seedream = list.data.find((m) => m.id === 'seedream-4-0')!;
    expect(seedream.owned_by).toBe('bytedance');
    expect(seedream.image).toMatchObject({
      operations: ['generate', 'edit'],
      max_input_images: 10,
      default_size: 'auto',
      price_per_image: { standard: { '2048x2048': 0.03 } },
    });
    expect(list.data.find((m) => m.id === 'gemini-2.5-flash-image')!.image).toMatchObject({
      sizes: expect.arrayContaining(['auto', '1344x768', '1536x672']),
      max_input_images: 3,
    });
  });

  it('a model takes only its own sizes and as many input images as it edits', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const fileId = await upload(key, squarePng(64));
    const tooMany = await gw.fetch('/v1/images/edits', {
      method: 'POST',
      key,
      json: {
        model: 'gemini-2.5-flash-image',
        prompt: 'x',
        images: Array.from({ length: 4 }, () => ({ file_id: fileId })),
      },
    });
    await expectError(tooMany, EDIT, { status: 400, code: 'unsupported_value', param: 'images' });
    const size = await gw.fetch('/v1/images/generations', {
      method: 'POST',
      key,
      json: { model: 'flux-kontext-pro', prompt: 'x', size: '2048x2048' },
    });
    await expectError(size, GENERATE, { status: 400, code: 'unsupported_value', param: 'size' });
    expect(await usedUnits(key)).toBe(0);
  });
});
