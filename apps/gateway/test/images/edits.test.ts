/**
 * Image edits and variations through the official `openai` client (6.x, unchanged) against a
 * demo-mode gateway (the simulator upstream): the answer is visibly the input image, changed, and
 * charged at the model's price per image (usage rows, the ledger's difference 0); an edit may name
 * an uploaded or a generated image by its URL or its id; refusals (not an image, no image, another
 * key's file) are clear 4xx and cost nothing — on PGlite and on PostgreSQL.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zCreditSummary, zImagesResponse, zUsageRecordList } from '@modelgate/core/zod';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedger } from '../../src/billing/ledger-check.js';
import { expectError, expectOk, type Json } from '../contract/support.js';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';
import { decodePng, expectEditedSquare, pixelAt, squarePng } from './pictures.js';

const EDIT = 'POST /v1/images/edits';
const VARIATION = 'POST /v1/images/variations';

describe.each(eachDatabase())('image edits and variations on $name', (database) => {
  let gw: TestGateway;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mg-edits-'));
    gw = await startTestGateway({ database, config: { dataDir } });
  });
  afterAll(async () => {
    await gw?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const client = (key: string) =>
    new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });

  async function usedUnits(key: string): Promise<number> {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
    return Math.round(zCreditSummary.parse(await res.json()).total_used * 1_000_000);
  }

  async function records(key: string): Promise<Json[]> {
    await gw.services.billing.flushSettlements();
    const res = await gw.fetch('/v1/usage/records?kind=image', { key });
    return zUsageRecordList.parse(await res.json()).data;
  }

  async function ledgerDifference(keyId: number): Promise<number> {
    await gw.services.billing.returnIdleLeases();
    return (await checkLedger(gw.services.db)).find((r) => r.keyId === keyId)!.difference;
  }

  async function upload(key: string, png: Buffer): Promise<{ id: string; url: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'input.png');
    form.append('purpose', 'image');
    const res = await gw.fetch('/v1/files', { method: 'POST', key, body: form });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string; url: string };
  }

  it('images.edit on gpt-image-1: the input, visibly changed, charged at the price per image', async () => {
    const { key, id } = await gw.createKey({ quota: 10_000_000 });
    const image = await toFile(squarePng(512), 'room.png', { type: 'image/png' });
    const answer = await client(key).images.edit({
      model: 'gpt-image-1',
      image,
      prompt: 'paint it sage green',
    });
    expect(answer.data).toHaveLength(1);
    expect(answer).toMatchObject({ size: '1024x1024', quality: 'medium', output_format: 'png' });
    expect(answer.usage!.input_tokens_details?.image_tokens).toBeGreaterThan(0);
    const edited = expectEditedSquare(Buffer.from(answer.data![0]!.b64_json!, 'base64'));
    expect([edited.width, edited.height]).toEqual([1024, 1024]);
    // gpt-image-1 at auto reserves 0.25 and is charged what it made: medium 1024x1024, 0.042.
    expect(await usedUnits(key)).toBe(42_000);
    const [record] = await records(key);
    expect(record).toMatchObject({ kind: 'image', model: 'gpt-image-1', units: 42_000 });
    expect(record!.input_tokens).toBe(answer.usage!.input_tokens);
    expect(await ledgerDifference(id)).toBe(0);
  });

  it('images.edit on dall-e-2 draws where the image is transparent and keeps the rest', async () => {
    const { key, id } = await gw.createKey({ quota: 10_000_000 });
    const image = await toFile(squarePng(256, { transparentRight: true }), 'half.png', {
      type: 'image/png',
    });
    const answer = await client(key).images.edit({
      model: 'dall-e-2',
      image,
      prompt: 'a lake',
      size: '512x512',
      n: 2,
    });
    expect(answer.data).toHaveLength(2);
    for (const entry of answer.data!) {
      expect(entry.url).toMatch(new RegExp(`^${gw.cdnUrl}/files/file-[A-Za-z0-9]+\\.png$`));
      const served = await fetch(entry.url!);
      expect(served.headers.get('content-type')).toBe('image/png');
      const out = decodePng(Buffer.from(await served.arrayBuffer()))!;
      expect([out.width, out.height]).toEqual([512, 512]);
      expect(pixelAt(out, 0.25, 0.25).slice(0, 3)).toEqual([0, 0, 0]);
      expect(pixelAt(out, 0.4, 0.1).slice(0, 3)).toEqual([255, 255, 255]);
      const filled = pixelAt(out, 0.75, 0.1);
      expect(filled[3]).toBe(255);
      expect(filled.slice(0, 3)).not.toEqual([255, 255, 255]);
    }
    // Each image of a different tint.
    expect(answer.data![0]!.url).not.toBe(answer.data![1]!.url);
    expect(await usedUnits(key)).toBe(2 * 18_000);
    expect(await ledgerDifference(id)).toBe(0);
  });

  it('an edit names an uploaded image by its URL or its id (the JSON form)', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const file = await upload(key, squarePng(256));
    for (const reference of [{ image_url: file.url }, { file_id: file.id }]) {
      const res = await gw.fetch('/v1/images/edits', {
        method: 'POST',
        key,
        json: { model: 'gpt-image-1', prompt: 'make it dusk', images: [reference], quality: 'low' },
      });
      const body = await expectOk(res, EDIT, zImagesResponse);
      expectEditedSquare(Buffer.from(body.data[0]!.b64_json!, 'base64'));
    }
    expect(await usedUnits(key)).toBe(2 * 11_000);
  });

  it('a generated image is the input of an edit (its CDN URL)', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const generated = await client(key).images.generate({ model: 'dall-e-2', prompt: 'a boat' });
    const res = await gw.fetch('/v1/images/edits', {
      method: 'POST',
      key,
      json: {
        model: 'gpt-image-1',
        prompt: 'add a sail',
        images: [{ image_url: generated.data![0]!.url }],
        response_format: 'url',
      },
    });
    const body = await expectOk(res, EDIT, zImagesResponse);
    expect(body.data[0]!.url).toMatch(/\/files\/file-[A-Za-z0-9]+\.png$/);
  });

  it('images.createVariation on dall-e-2: the input kept, n images, charged', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const image = await toFile(squarePng(256), 'otter.png', { type: 'image/png' });
    const answer = await client(key).images.createVariation({
      image,
      n: 2,
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(answer.data).toHaveLength(2);
    const [first, second] = answer.data!.map((d) => decodePng(Buffer.from(d.b64_json!, 'base64'))!);
    // The square where it was, and mirrored in the second.
    expect(Math.max(...pixelAt(first!, 0.25, 0.25).slice(0, 3))).toBeLessThan(110);
    expect(Math.max(...pixelAt(second!, 0.75, 0.25).slice(0, 3))).toBeLessThan(110);
    expect(await usedUnits(key)).toBe(2 * 16_000);
  });

  describe('refusals cost nothing', () => {
    let key: string;
    let keyId: number;
    let otherFile: { id: string; url: string };
    beforeAll(async () => {
      ({ key, id: keyId } = await gw.createKey({ quota: 10_000_000 }));
      const { key: other } = await gw.createKey();
      otherFile = await upload(other, squarePng(64));
    });

    it('an image that is not an image: 400 invalid_image', async () => {
      const text = await toFile(Buffer.from('just some text, not a picture'), 'notes.png', {
        type: 'image/png',
      });
      const err = await client(key)
        .images.edit({ model: 'gpt-image-1', image: text, prompt: 'x' })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_image', param: 'image.0' });
    });

    it('no image: 400 missing_field', async () => {
      const form = new FormData();
      form.append('model', 'gpt-image-1');
      form.append('prompt', 'x');
      const res = await gw.fetch('/v1/images/edits', { method: 'POST', key, body: form });
      await expectError(res, EDIT, { status: 400, code: 'missing_field', param: 'image' });
      const json = await gw.fetch('/v1/images/edits', {
        method: 'POST',
        key,
        json: { model: 'gpt-image-1', prompt: 'x', images: [] },
      });
      await expectError(json, EDIT, { status: 400, param: 'images' });
    });

    it("another key's file, by id or by URL: 404 file_not_found", async () => {
      for (const reference of [{ file_id: otherFile.id }, { image_url: otherFile.url }]) {
        const res = await gw.fetch('/v1/images/edits', {
          method: 'POST',
          key,
          json: { model: 'gpt-image-1', prompt: 'x', images: [reference] },
        });
        const error = await expectError(res, EDIT, { status: 404, code: 'file_not_found' });
        expect(error.param).toMatch(/^images\.0\./);
      }
    });

    it('dall-e-2 refuses an image that is not square, or has no transparency and no mask', async () => {
      const { createRaster, rasterToPng } = await import('@modelgate/provider-sim');
      const wide = rasterToPng(createRaster(64, 32, [0, 0, 0, 255]), true);
      for (const png of [wide, squarePng(64)]) {
        const image = await toFile(png, 'in.png', { type: 'image/png' });
        await expect(
          client(key).images.edit({ model: 'dall-e-2', image, prompt: 'x' }),
        ).rejects.toMatchObject({ status: 400, code: 'invalid_image', param: 'image.0' });
      }
    });

    it('a model that does not edit, or a variation on one that does not vary: 400 on model', async () => {
      const image = await toFile(squarePng(64), 'in.png', { type: 'image/png' });
      await expect(
        client(key).images.edit({ model: 'dall-e-3', image, prompt: 'x' }),
      ).rejects.toMatchObject({ status: 400, code: 'unsupported_value', param: 'model' });
      await expect(
        client(key).images.createVariation({ model: 'gpt-image-1', image }),
      ).rejects.toMatchObject({ status: 400, code: 'unsupported_value', param: 'model' });
    });

    it('an unknown multipart field: 400 unknown_field, refused as it arrives', async () => {
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(squarePng(64))]), 'a.png');
      form.append('model', 'gpt-image-1');
      form.append('prompt', 'x');
      form.append('style', 'vivid');
      const res = await gw.fetch('/v1/images/edits', { method: 'POST', key, body: form });
      await expectError(res, EDIT, { status: 400, code: 'unknown_field', param: 'style' });
    });

    it('a variation sent as JSON: 415', async () => {
      const res = await gw.fetch('/v1/images/variations', {
        method: 'POST',
        key,
        json: { model: 'dall-e-2' },
      });
      await expectError(res, VARIATION, { status: 415 });
    });

    it('and none of them was charged', async () => {
      expect(await usedUnits(key)).toBe(0);
      expect(await records(key)).toEqual([]);
      expect(await ledgerDifference(keyId)).toBe(0);
    });
  });
});

describe('streamed edits (gpt-image-1)', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.close());

  async function usedUnits(key: string): Promise<number> {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key });
    return Math.round(zCreditSummary.parse(await res.json()).total_used * 1_000_000);
  }

  it('the openai client reads partial images, then each finished one; charged per image finished', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const image = await toFile(squarePng(256), 'room.png', { type: 'image/png' });
    const stream = await openai.images.edit({
      model: 'gpt-image-1',
      image,
      prompt: 'paint it sage green',
      stream: true,
      partial_images: 2,
      n: 2,
    });
    const types: string[] = [];
    const finished: Buffer[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'image_edit.completed') {
        finished.push(Buffer.from(event.b64_json, 'base64'));
        expect(event.usage.output_tokens).toBe(1056);
      }
    }
    expect(types).toEqual([
      'image_edit.partial_image',
      'image_edit.partial_image',
      'image_edit.completed',
      'image_edit.partial_image',
      'image_edit.partial_image',
      'image_edit.completed',
    ]);
    for (const png of finished) expectEditedSquare(png);
    expect(await usedUnits(key)).toBe(2 * 42_000);
  });

  it('a stream cut by the upstream is charged for the images finished before it, with an error event', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const form = new FormData();
    form.append(
      'image',
      new Blob([new Uint8Array(squarePng(128))], { type: 'image/png' }),
      'a.png',
    );
    form.append('model', 'gpt-image-1');
    form.append('prompt', 'x');
    form.append('stream', 'true');
    form.append('n', '3');
    gw.simulator!.faults.add({
      kind: 'stream-error',
      afterChunks: 1,
      message: 'The server had an error while processing your request.',
      count: 1,
      match: { path: '/openai/v1/images/edits' },
    });
    const res = await gw.fetch('/v1/images/edits', { method: 'POST', key, body: form });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text.match(/event: image_edit\.completed/g)).toHaveLength(1);
    expect(text).toMatch(
      /event: error\ndata: \{"type":"error","error":\{"message":"[^"]*server had an error/,
    );
    expect(await usedUnits(key)).toBe(42_000);
  });

  it('refused where it cannot be: dall-e-2, or with response_format url', async () => {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    const send = (fields: Record<string, string>) => {
      const form = new FormData();
      form.append(
        'image',
        new Blob([new Uint8Array(squarePng(64, { transparentRight: true }))]),
        'a.png',
      );
      form.append('prompt', 'x');
      form.append('stream', 'true');
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      return gw.fetch('/v1/images/edits', { method: 'POST', key, body: form });
    };
    await expectError(await send({ model: 'dall-e-2' }), EDIT, { status: 400, param: 'stream' });
    await expectError(await send({ model: 'gpt-image-1', response_format: 'url' }), EDIT, {
      status: 400,
      param: 'response_format',
    });
    expect(await usedUnits(key)).toBe(0);
  });
});
