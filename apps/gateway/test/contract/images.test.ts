/**
 * Contract of POST /v1/images/generations against a demo-mode gateway (the OpenAI images upstream
 * is the in-process simulator): success bodies parsed with the generated zod schema, images served
 * by the CDN listener, exact billing against the ledger, refunds, and every refusal in the spec's
 * error shape with a status the spec declares — on PGlite and on PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  zCreditSummary,
  zFileObject,
  zImagesResponse,
  zModelList,
  zUsageRecordList,
} from '@modelgate/core/zod';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/billing/ledger-check.js';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { expectError, expectOk, type Json } from './support.js';

const OP = 'POST /v1/images/generations';
const limited = { limited: true };

/** Width and height from a PNG's IHDR chunk (bytes 16–23), after checking its signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe.each(eachDatabase())('image generation contract on $name', (database) => {
  let gw: TestGateway;
  let dataDir: string;
  let key: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mg-images-'));
    gw = await startTestGateway({ database, config: { dataDir } });
    ({ key } = await gw.createKey({ rpm: 100_000 }));
  });
  afterEach(() => gw.simulator?.faults.clear());
  afterAll(async () => {
    await gw?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const generate = (json: Json, k = key) =>
    gw.fetch('/v1/images/generations', { method: 'POST', key: k, json });

  /** used units of a key, exact: the balance route returns this instance's lease first. */
  async function usedUnits(k: string): Promise<number> {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key: k });
    const summary = zCreditSummary.parse(await res.json());
    return Math.round(summary.total_used * 1_000_000);
  }

  /** The ledger's difference for one key, after this instance's queued writes. */
  async function ledgerDifference(keyId: number): Promise<number> {
    await gw.services.billing.returnIdleLeases();
    const row = (await checkLedger(gw.services.db)).find((r) => r.keyId === keyId);
    return row!.difference;
  }

  async function recordsOf(k: string): Promise<Json[]> {
    await gw.services.billing.flushSettlements();
    const res = await gw.fetch('/v1/usage/records?kind=image', { key: k });
    return zUsageRecordList.parse(await res.json()).data;
  }

  it('lists the image models with their table and prices', async () => {
    const list = zModelList.parse(await (await gw.fetch('/v1/models', { key })).json());
    const images = list.data.filter((m) => m.type === 'image');
    expect(images.map((m) => m.id).sort()).toEqual([
      'dall-e-2',
      'dall-e-3',
      'flux-kontext-pro',
      'gemini-2.5-flash-image',
      'gpt-image-1',
      'seedream-4-0',
    ]);
    const dalle3 = images.find((m) => m.id === 'dall-e-3')!;
    expect(dalle3.image).toMatchObject({
      sizes: ['1024x1024', '1792x1024', '1024x1792'],
      max_images: 1,
      default_response_format: 'url',
      styles: ['vivid', 'natural'],
      output_options: false,
      price_per_image: { standard: { '1024x1024': 0.04 }, hd: { '1792x1024': 0.12 } },
      operations: ['generate'],
      max_input_images: 0,
    });
    expect(images.find((m) => m.id === 'dall-e-2')!.image).toMatchObject({
      operations: ['generate', 'edit', 'variation'],
      max_input_images: 1,
      mask: true,
      stream: false,
    });
    expect(list.data.filter((m) => m.type === 'text').map((m) => m.id)).not.toContain('dall-e-3');
  });

  it('url: the image is a file of the key, served by the CDN listener, and deletable', async () => {
    const res = await generate({ model: 'dall-e-3', prompt: 'a lighthouse', size: '1792x1024' });
    const body = await expectOk(res, OP, zImagesResponse, limited);
    expect(body.data).toHaveLength(1);
    const [image] = body.data;
    expect(image!.revised_prompt).toContain('a lighthouse');
    expect(image!.b64_json).toBeUndefined();
    const url = image!.url!;
    expect(url).toMatch(new RegExp(`^${gw.cdnUrl}/files/file-[A-Za-z0-9]{32}\\.png$`));
    const served = await fetch(url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(pngSize(Buffer.from(await served.arrayBuffer()))).toEqual({ width: 1792, height: 1024 });

    const fileId = url.slice(url.lastIndexOf('/') + 1, -'.png'.length);
    const file = zFileObject.parse(await (await gw.fetch(`/v1/files/${fileId}`, { key })).json());
    expect(file).toMatchObject({
      url,
      mime_type: 'image/png',
      purpose: 'image',
      filename: 'generated-1.png',
    });
    const { key: other } = await gw.createKey();
    expect((await gw.fetch(`/v1/files/${fileId}`, { key: other })).status).toBe(404);
    expect((await gw.fetch(`/v1/files/${fileId}`, { method: 'DELETE', key })).status).toBe(200);
    expect((await fetch(url)).status).toBe(404);
  });

  it('url from gpt-image-1 too (upstream answers base64 only): stored by its content type', async () => {
    const json = {
      model: 'gpt-image-1',
      prompt: 'x',
      response_format: 'url',
      output_format: 'webp',
    };
    const body = await expectOk(await generate(json), OP, zImagesResponse, limited);
    expect(body.output_format).toBe('webp');
    const url = body.data[0]!.url!;
    expect(url).toMatch(/\/files\/file-[A-Za-z0-9]{32}\.webp$/);
    const served = await fetch(url);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
  });

  it('a generated image is usable as the first frame of a video', async () => {
    const res = await generate({ model: 'dall-e-2', prompt: 'a paper boat', size: '512x512' });
    const { data } = await expectOk(res, OP, zImagesResponse, limited);
    const video = await gw.fetch('/v1/video/generations', {
      method: 'POST',
      key,
      json: { model: 'kling-v3', prompt: 'the boat drifts', image_url: data[0]!.url },
    });
    expect(video.status, await video.clone().text()).toBe(200);
    expect(((await video.json()) as Json).status).toBe('pending');
  });

  it('b64_json: gpt-image-1 by default, with what it made and its token usage', async () => {
    const res = await generate({ model: 'gpt-image-1', prompt: 'a red fox', n: 2, quality: 'low' });
    const body = await expectOk(res, OP, zImagesResponse, limited);
    expect(body.data).toHaveLength(2);
    for (const image of body.data) {
      expect(image.url).toBeUndefined();
      expect(pngSize(Buffer.from(image.b64_json!, 'base64'))).toEqual({
        width: 1024,
        height: 1024,
      });
    }
    expect(body).toMatchObject({
      size: '1024x1024',
      quality: 'low',
      background: 'opaque',
      output_format: 'png',
    });
    expect(body.usage!.output_tokens).toBe(2 * 272);
    const asked = await generate({ model: 'dall-e-2', prompt: 'x', response_format: 'b64_json' });
    const inline = await expectOk(asked, OP, zImagesResponse, limited);
    expect(pngSize(Buffer.from(inline.data[0]!.b64_json!, 'base64')).width).toBe(1024);
  });

  it('bills exactly the price per image, records a usage row of kind image, and the ledger balances', async () => {
    const { key: payer, id } = await gw.createKey({ quota: 10_000_000 });
    const hd = await generate(
      { model: 'dall-e-3', prompt: 'x', size: '1024x1792', quality: 'hd' },
      payer,
    );
    expect(hd.status).toBe(200);
    const requestId = hd.headers.get('x-request-id');
    await hd.arrayBuffer();
    expect(await usedUnits(payer)).toBe(120_000);
    // gpt-image-1 at auto reserves the dearest (0.25 each) and is charged at what it made:
    // the simulator draws auto as medium 1024x1024, 0.042 an image.
    const auto = await generate({ model: 'gpt-image-1', prompt: 'x', n: 3 }, payer);
    const made = await expectOk(auto, OP, zImagesResponse);
    expect(made).toMatchObject({ size: '1024x1024', quality: 'medium' });
    expect(await usedUnits(payer)).toBe(120_000 + 3 * 42_000);

    const records = await recordsOf(payer);
    expect(records.map((r) => [r.model, r.units, r.kind])).toEqual([
      ['gpt-image-1', 126_000, 'image'],
      ['dall-e-3', 120_000, 'image'],
    ]);
    expect(records[1]).toMatchObject({ request_id: requestId, input_tokens: null, cost: 0.12 });
    expect(records[0]!.output_tokens).toBe(3 * 1056);
    expect(await ledgerDifference(id)).toBe(0);
    const report = await gw.fetch('/v1/usage?group_by=kind', { key: payer });
    const totals = ((await report.json()) as Json).data.flatMap((b: Json) => b.results);
    expect(totals).toContainEqual(
      expect.objectContaining({ kind: 'image', requests: 2, units: 246_000 }),
    );
  });

  it('refunds in full when the upstream fails, and when it refuses the prompt', async () => {
    const { key: payer, id } = await gw.createKey({ quota: 10_000_000 });
    gw.simulator!.faults.add({ kind: 'status', status: 500, match: { path: '/openai/v1/images' } });
    await expectError(await generate({ model: 'dall-e-3', prompt: 'x' }, payer), OP, {
      status: 502,
      code: 'upstream_error',
    });
    gw.simulator!.faults.clear();
    gw.simulator!.faults.add({
      kind: 'status',
      status: 400,
      count: 1,
      message: 'Your request was rejected as a result of our safety system.',
      match: { path: '/openai/v1/images' },
    });
    const refused = await expectError(
      await generate({ model: 'gpt-image-1', prompt: 'x' }, payer),
      OP,
      {
        status: 400,
        code: 'upstream_invalid_request',
      },
    );
    expect(refused.message).toContain('safety system');
    expect(await usedUnits(payer)).toBe(0);
    expect(await recordsOf(payer)).toEqual([]);
    expect(await ledgerDifference(id)).toBe(0);
  });

  it('429 with the upstream Retry-After when every deployment is rate limited, refunded', async () => {
    const { key: payer } = await gw.createKey({ quota: 10_000_000, rpm: 1_000 });
    const fault = { kind: 'status' as const, status: 429, retryAfter: 7, count: 1 };
    gw.simulator!.faults.add({ ...fault, match: { path: '/openai/v1/images' } });
    const res = await generate({ model: 'dall-e-2', prompt: 'x' }, payer);
    expect(res.headers.get('retry-after')).toBe('7');
    await expectError(res, OP, { status: 429, code: 'upstream_rate_limited', ...limited });
    expect(await usedUnits(payer)).toBe(0);
  });

  describe('400 before anything is reserved', () => {
    let refused: string;
    let upstreamCalls: number;
    const imageCalls = () =>
      gw.simulator!.stats().routes['POST /openai/v1/images/generations'] ?? 0;
    beforeAll(async () => {
      ({ key: refused } = await gw.createKey({ quota: 10_000_000, rpm: 1_000 }));
      upstreamCalls = imageCalls();
    });

    it.each([
      [
        'a size the model does not draw',
        { model: 'dall-e-3', size: '256x256' },
        'size',
        'unsupported_value',
      ],
      ['n above the model’s', { model: 'dall-e-3', n: 2 }, 'n', 'unsupported_value'],
      ['n above any model’s', { model: 'dall-e-2', n: 11 }, 'n', 'out_of_range'],
      [
        'a prompt too long for the model',
        { model: 'dall-e-2', prompt: 'x'.repeat(1001) },
        'prompt',
        'unsupported_value',
      ],
      ['an empty prompt', { model: 'dall-e-2', prompt: '' }, 'prompt', 'out_of_range'],
      [
        'a quality of another model',
        { model: 'gpt-image-1', quality: 'hd' },
        'quality',
        'unsupported_value',
      ],
      [
        'style on a model without styles',
        { model: 'gpt-image-1', style: 'vivid' },
        'style',
        'unsupported_value',
      ],
      [
        'an output option on DALL·E',
        { model: 'dall-e-3', background: 'transparent' },
        'background',
        'unsupported_value',
      ],
      [
        'compression of a PNG',
        { model: 'gpt-image-1', output_compression: 50 },
        'output_compression',
        'unsupported_value',
      ],
      [
        'a transparent JPEG',
        { model: 'gpt-image-1', output_format: 'jpeg', background: 'transparent' },
        'background',
        'unsupported_value',
      ],
      [
        'a size no model draws',
        { model: 'gpt-image-1', size: '1000x1000' },
        'size',
        'invalid_value',
      ],
      ['streaming', { model: 'gpt-image-1', stream: true }, 'stream', 'unknown_field'],
      ['no prompt', { model: 'gpt-image-1', prompt: undefined }, 'prompt', 'missing_field'],
    ])('%s', async (_what, fields, param, code) => {
      const res = await generate({ prompt: 'x', ...fields }, refused);
      const error = await expectError(res, OP, { status: 400, param, code, ...limited });
      expect(error.message.length).toBeGreaterThan(10);
    });

    it('costs nothing and never reaches the upstream', async () => {
      expect(await usedUnits(refused)).toBe(0);
      expect(imageCalls()).toBe(upstreamCalls);
    });
  });

  it('names what the model takes in a 400', async () => {
    const error = await expectError(
      await generate({ model: 'dall-e-3', prompt: 'x', size: '256x256' }),
      OP,
      {
        status: 400,
        param: 'size',
      },
    );
    expect(error.message).toBe(
      'dall-e-3 supports size 1024x1024, 1792x1024, 1024x1792 (got 256x256).',
    );
  });

  it('404 for a model that is not an image model, 403 for one outside the key’s models', async () => {
    for (const model of ['dall-e-9', 'gpt-4o-mini']) {
      await expectError(await generate({ model, prompt: 'x' }), OP, {
        status: 404,
        param: 'model',
        code: 'model_not_found',
        ...limited,
      });
    }
    const { key: narrow } = await gw.createKey({ models: ['dall-e-2'] });
    await expectError(await generate({ model: 'dall-e-3', prompt: 'x' }, narrow), OP, {
      status: 403,
      param: 'model',
      code: 'model_not_allowed',
    });
    expect((await generate({ model: 'dall-e-2', prompt: 'x' }, narrow)).status).toBe(200);
    const models = zModelList.parse(await (await gw.fetch('/v1/models', { key: narrow })).json());
    expect(models.data.map((m) => m.id)).toEqual(['dall-e-2']);
  });

  it('402 when the balance cannot cover n images at the worst price', async () => {
    // gpt-image-1 at auto reserves 0.25 an image: 0.3 credits cover one image, not two.
    const { key: poor } = await gw.createKey({ quota: 300_000 });
    await expectError(await generate({ model: 'gpt-image-1', prompt: 'x', n: 2 }, poor), OP, {
      status: 402,
      code: 'insufficient_quota',
    });
    expect((await generate({ model: 'gpt-image-1', prompt: 'x' }, poor)).status).toBe(200);
  });

  it('the official openai client generates images unchanged', async () => {
    const { key: sdkKey } = await gw.createKey();
    const openai = new OpenAI({ apiKey: sdkKey, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const byUrl = await openai.images.generate({
      model: 'dall-e-3',
      prompt: 'a cat',
      quality: 'hd',
      style: 'vivid',
    });
    expect(byUrl.data![0]!.url).toMatch(new RegExp(`^${gw.cdnUrl}/files/`));
    const inline = await openai.images.generate({
      model: 'gpt-image-1',
      prompt: 'a cat',
      size: '1536x1024',
    });
    expect(pngSize(Buffer.from(inline.data![0]!.b64_json!, 'base64'))).toEqual({
      width: 1536,
      height: 1024,
    });
    expect(inline.usage!.output_tokens).toBeGreaterThan(0);
    await expect(
      openai.images.generate({ model: 'dall-e-3', prompt: 'x', n: 2 }),
    ).rejects.toMatchObject({
      status: 400,
      code: 'unsupported_value',
      param: 'n',
    });
  });
});
