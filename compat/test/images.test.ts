/**
 * Image edits and variations through the `openai` client's newest major (7.x, on Node 24),
 * unchanged, against a gateway started as `pnpm start` starts it: `images.edit` on gpt-image-1 and
 * dall-e-2 answers the input picture, visibly changed, charged at the model's price; an edit can
 * name an uploaded file by URL or id (the JSON form, sent with the client's own `post`); a
 * non-image, a missing image and another key's file are clear 4xx that cost nothing;
 * `images.createVariation` makes variations of the input.
 */
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedGateway, startGateway } from '../support/gateway.js';
import { decodePng, encodePng, type Picture } from '../support/png.js';

/** White, a black square in the top-left quarter; the right half transparent when asked. */
const squarePng = (size: number, transparentRight = false) =>
  encodePng(size, size, (x, y) => {
    if (transparentRight && x >= size / 2) return [0, 0, 0, 0];
    const inSquare = x >= size / 8 && x < (3 * size) / 8 && y >= size / 8 && y < (3 * size) / 8;
    return inSquare ? [0, 0, 0, 255] : [255, 255, 255, 255];
  });

/** The input's composition kept (the square dark where it was, the ground light) and changed (tinted). */
function expectEditOfSquare(picture: Picture): void {
  expect(Math.max(...picture.at(0.25, 0.25).slice(0, 3))).toBeLessThan(110);
  const ground = picture.at(0.75, 0.4).slice(0, 3);
  expect(Math.max(...ground)).toBeGreaterThan(150);
  expect(Math.min(...ground)).toBeLessThan(215);
}

describe(`openai images on Node ${process.versions.node}`, () => {
  let gw: StartedGateway;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(() => gw?.close());

  async function keyed() {
    const { key } = await gw.createKey({ quota: 10_000_000 });
    return { key, client: new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 }) };
  }

  async function usedCredits(key: string): Promise<number> {
    const res = await fetch(`${gw.url}/v1/dashboard/billing/credit_grants`, {
      headers: { authorization: `Bearer ${key}` },
    });
    return ((await res.json()) as { total_used: number }).total_used;
  }

  async function upload(key: string, png: Buffer): Promise<{ id: string; url: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'in.png');
    form.append('purpose', 'image');
    const res = await fetch(`${gw.url}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    return (await res.json()) as { id: string; url: string };
  }

  it('images.edit on gpt-image-1: the input, visibly changed, charged 0.042', async () => {
    const { key, client } = await keyed();
    const answer = await client.images.edit({
      model: 'gpt-image-1',
      image: await toFile(squarePng(256), 'room.png', { type: 'image/png' }),
      prompt: 'paint it sage green',
    });
    const picture = decodePng(Buffer.from(answer.data![0]!.b64_json!, 'base64'));
    expect([picture.width, picture.height]).toEqual([1024, 1024]);
    expectEditOfSquare(picture);
    expect(answer.usage?.output_tokens).toBe(1056);
    expect(await usedCredits(key)).toBe(0.042);
  });

  it('images.edit on dall-e-2: drawn where the image is transparent, the rest kept, at its price', async () => {
    const { key, client } = await keyed();
    const answer = await client.images.edit({
      model: 'dall-e-2',
      image: await toFile(squarePng(256, true), 'half.png', { type: 'image/png' }),
      prompt: 'a lake',
      size: '256x256',
    });
    const url = answer.data![0]!.url!;
    expect(url.startsWith(`${gw.cdnUrl}/files/file-`)).toBe(true);
    const picture = decodePng(Buffer.from(await (await fetch(url)).arrayBuffer()));
    expect(picture.at(0.25, 0.25).slice(0, 3)).toEqual([0, 0, 0]);
    expect(picture.at(0.4, 0.1).slice(0, 3)).toEqual([255, 255, 255]);
    expect(picture.at(0.75, 0.1).slice(0, 3)).not.toEqual([255, 255, 255]);
    expect(await usedCredits(key)).toBe(0.016);
  });

  it('an edit naming an uploaded file by its URL or its id (the JSON form)', async () => {
    const { key, client } = await keyed();
    const file = await upload(key, squarePng(128));
    for (const reference of [{ image_url: file.url }, { file_id: file.id }]) {
      const answer = await client.post<OpenAI.ImagesResponse>('/images/edits', {
        body: { model: 'gpt-image-1', prompt: 'dusk', quality: 'low', images: [reference] },
      });
      expectEditOfSquare(decodePng(Buffer.from(answer.data![0]!.b64_json!, 'base64')));
    }
    expect(await usedCredits(key)).toBe(0.022);
  });

  it('images.createVariation on dall-e-2', async () => {
    const { key, client } = await keyed();
    const answer = await client.images.createVariation({
      image: await toFile(squarePng(256), 'otter.png', { type: 'image/png' }),
      n: 2,
      size: '256x256',
      response_format: 'b64_json',
    });
    expect(answer.data).toHaveLength(2);
    const first = decodePng(Buffer.from(answer.data![0]!.b64_json!, 'base64'));
    expect(Math.max(...first.at(0.25, 0.25).slice(0, 3))).toBeLessThan(110);
    expect(await usedCredits(key)).toBe(0.032);
  });

  it('a non-image, no image, or another key’s file: a clear 4xx, and nothing charged', async () => {
    const { key, client } = await keyed();
    const notImage = await client.images
      .edit({
        model: 'gpt-image-1',
        image: await toFile(Buffer.from('plain text'), 'notes.png', { type: 'image/png' }),
        prompt: 'x',
      })
      .catch((e: unknown) => e);
    expect(notImage).toBeInstanceOf(OpenAI.BadRequestError);
    expect(notImage).toMatchObject({ status: 400, code: 'invalid_image', param: 'image.0' });

    const missing = await client
      .post('/images/edits', { body: { model: 'gpt-image-1', prompt: 'x', images: [] } })
      .catch((e: unknown) => e);
    expect(missing).toMatchObject({ status: 400, param: 'images' });

    const { key: other } = await gw.createKey();
    const theirs = await upload(other, squarePng(64));
    const foreign = await client
      .post('/images/edits', {
        body: { model: 'gpt-image-1', prompt: 'x', images: [{ file_id: theirs.id }] },
      })
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(OpenAI.NotFoundError);
    expect(foreign).toMatchObject({ status: 404, code: 'file_not_found' });
    expect(await usedCredits(key)).toBe(0);
  });
});
