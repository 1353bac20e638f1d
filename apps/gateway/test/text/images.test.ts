/**
 * Images through the official clients, on a model of each format (the other format translated):
 * chat `image_url` parts and messages `image` blocks, by web URL, inline data, and the CDN URL of
 * a file uploaded with POST /v1/files. The simulator says how many images it was shown, and, like a
 * provider on the internet, cannot download from a loopback address — so the uploaded file's
 * answer shows the gateway sent its bytes, not its (local) URL.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { PNG_1X1, upload } from '../support/video-gateway.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];
const WEB_URL = 'https://example.com/cat.png';
const DATA_URL = `data:image/png;base64,${PNG_1X1.toString('base64')}`;

describe('image inputs', () => {
  let gw: TestGateway;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let fileUrl: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey());
    openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
    const res = await upload(gw, key, PNG_1X1, 'pixel.png');
    expect(res.status).toBe(200);
    fileUrl = ((await res.json()) as { url: string }).url;
  });
  afterAll(() => gw?.close());

  const chatWith = (model: string, ...urls: string[]) =>
    openai.chat.completions.create({
      model,
      max_tokens: 8,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            ...urls.map((url) => ({
              type: 'image_url' as const,
              image_url: { url, detail: 'low' as const },
            })),
          ],
        },
      ],
    });

  it.each(MODELS)('chat: a web URL and a data URL reach %s', async (model) => {
    const completion = await chatWith(model, WEB_URL, DATA_URL);
    expect(completion.choices[0]!.message.content).toMatch(/^I see 2 images\. /);
  });

  it.each(MODELS)('chat: the URL of an uploaded file works on %s', async (model) => {
    const completion = await chatWith(model, fileUrl);
    expect(completion.choices[0]!.message.content).toMatch(/^I see 1 image\. /);
  });

  it.each(MODELS)('chat, streamed: images reach %s', async (model) => {
    const stream = await openai.chat.completions.create({
      model,
      max_tokens: 8,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: fileUrl } }] }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toMatch(/^I see 1 image\. /);
  });

  it.each(MODELS)('messages: url, base64 and uploaded-file images reach %s', async (model) => {
    const message = await anthropic.messages.create({
      model,
      max_tokens: 8,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'url', url: WEB_URL } },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: PNG_1X1.toString('base64') },
            },
            { type: 'image', source: { type: 'url', url: fileUrl } },
            { type: 'text', text: 'Describe them.' },
          ],
        },
      ],
    });
    const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text).toMatch(/^I see 3 images\. /);
  });

  it('the URL of a deleted file is a 400 naming the part', async () => {
    const res = await upload(gw, key, Buffer.concat([PNG_1X1, Buffer.from('gone')]), 'gone.png');
    const file = (await res.json()) as { id: string; url: string };
    expect((await gw.fetch(`/v1/files/${file.id}`, { key, method: 'DELETE' })).status).toBe(200);
    const err = await chatWith('claude-haiku-4-5', file.url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const bad = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect(bad.code).toBe('invalid_image_url');
    expect(bad.param).toBe('messages.0.content.1.image_url.url');
  });

  it('an image part without a URL is refused by the gateway', async () => {
    const res = await gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: {
        model: 'claude-haiku-4-5',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }],
      },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { param: string } };
    expect(body.error.param).toBe('messages.0.content.0.image_url.url');
  });
});
