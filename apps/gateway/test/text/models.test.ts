/**
 * GET /v1/models lists what is routable and nothing else: every listed model answers, an unknown
 * name is a 404 model_not_found before anything is reserved or sent upstream, a key's `models`
 * must name models that exist, and video models whose provider has no credentials are not listed.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

type ModelList = { data: Array<{ id: string; type: string }> };

describe('models that exist', () => {
  let gw: TestGateway;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey());
    openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  const upstreamCalls = () => gw.simulator!.stats().total;
  const used = async (k: string) => {
    const res = await gw.fetch('/v1/dashboard/billing/credit_grants', { key: k });
    return ((await res.json()) as { total_used: number }).total_used;
  };

  it('every listed text model answers', async () => {
    const list = (await (await gw.fetch('/v1/models', { key })).json()) as ModelList;
    const text = list.data.filter((m) => m.type === 'text').map((m) => m.id);
    expect(text).toEqual(expect.arrayContaining(['gpt-4o-mini', 'gpt-5', 'claude-haiku-4-5']));
    for (const model of text) {
      const completion = await openai.chat.completions.create({
        model,
        max_tokens: 2,
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(completion.choices[0]!.message.content, model).toBeTruthy();
    }
  });

  it.each(['totally-made-up', 'gpt-5-turbo-imaginary'])(
    '%s is a 404 model_not_found on every endpoint, with nothing sent or billed',
    async (model) => {
      const { key: own } = await gw.createKey();
      const before = upstreamCalls();
      const client = new OpenAI({ apiKey: own, baseURL: `${gw.url}/v1`, maxRetries: 0 });
      const chat = await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      expect(chat).toBeInstanceOf(OpenAI.NotFoundError);
      expect((chat as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
      const legacy = await client.completions
        .create({ model, prompt: 'Hi' })
        .catch((e: unknown) => e);
      expect(legacy).toBeInstanceOf(OpenAI.NotFoundError);
      const messages = await anthropic.messages
        .create({ model, max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      expect(messages).toBeInstanceOf(Anthropic.NotFoundError);
      expect(upstreamCalls()).toBe(before);
      expect(await used(own)).toBe(0);
    },
  );

  it('POST /v1/token refuses models that do not exist, naming them', async () => {
    const res = await gw.fetch('/v1/token', {
      method: 'POST',
      key: gw.adminKey,
      json: { name: 'n', quota: 1000, models: ['gpt-4o-mini', 'nope-1', 'nope-2'] },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { param: string; code: string; message: string } };
    expect(body.error).toMatchObject({ param: 'models', code: 'model_not_found' });
    expect(body.error.message).toContain('nope-1, nope-2');
    expect(body.error.message).not.toContain('gpt-4o-mini');
  });

  it('POST /v1/token accepts listed text and video models', async () => {
    const list = (await (await gw.fetch('/v1/models', { key })).json()) as ModelList;
    const ids = [list.data.find((m) => m.type === 'text')!.id];
    const video = list.data.find((m) => m.type === 'video');
    if (video) ids.push(video.id);
    const res = await gw.fetch('/v1/token', {
      method: 'POST',
      key: gw.adminKey,
      json: { name: 'ok', quota: 1000, models: ids },
    });
    expect(res.status).toBe(200);
  });
});

describe('a gateway without provider credentials', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ simulator: false });
  });
  afterAll(() => gw?.close());

  it('lists no model, video ones included', async () => {
    const { key } = await gw.createKey();
    const list = (await (await gw.fetch('/v1/models', { key })).json()) as ModelList;
    expect(list.data).toEqual([]);
  });
});
