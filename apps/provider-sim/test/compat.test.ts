// What real clients send beyond the basics, as the real APIs treat it: fields an API does not know
// are refused, `response_format` answers JSON (matching the schema for json_schema), and images
// are checked, counted in the answer, and cannot be downloaded from a loopback address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { parseSse, postJson } from './helpers.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const openai = { authorization: 'Bearer sk-test' };
const anthropic = { 'x-api-key': 'sk-test', 'anthropic-version': '2023-06-01' };
const chatUrl = () => `${sim.url}/openai/v1/chat/completions`;
const messagesUrl = () => `${sim.url}/anthropic/v1/messages`;
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

type Chat = { choices: Array<{ message: { content: string } }> };
type Message = { content: Array<{ type: string; text?: string }> };

describe('unknown fields', () => {
  it('OpenAI refuses an argument it does not know, naming it, and takes the ones it knows', async () => {
    const base = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };
    const bad = await postJson(chatUrl(), { ...base, frobnicate: 1 }, openai);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { param: string } }).error.param).toBe('frobnicate');
    const ok = await postJson(chatUrl(), { ...base, logprobs: true, service_tier: 'auto' }, openai);
    expect(ok.status).toBe(200);
  });

  it('Anthropic refuses extra inputs and takes thinking', async () => {
    const base = {
      model: 'claude-haiku-4-5',
      max_tokens: 5,
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const bad = await postJson(messagesUrl(), { ...base, frobnicate: 1 }, anthropic);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('frobnicate: Extra inputs are not permitted');
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    expect((await postJson(messagesUrl(), { ...base, thinking }, anthropic)).status).toBe(200);
  });
});

describe('response_format (OpenAI)', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 3 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 2 },
      score: { type: 'number' },
    },
    required: ['name', 'tags', 'score'],
  };
  const body = {
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'JSON please' }],
    response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
  };

  it('json_schema: the answer is a value of the schema, streamed or not', async () => {
    const res = await postJson(chatUrl(), body, openai);
    const value = JSON.parse(((await res.json()) as Chat).choices[0]!.message.content) as {
      name: string;
      tags: string[];
      score: number;
    };
    expect(value.name.length).toBeGreaterThanOrEqual(3);
    expect(value.tags).toEqual(['a', 'a']);
    expect(typeof value.score).toBe('number');
    const stream = await postJson(chatUrl(), { ...body, stream: true }, openai);
    const text = parseSse(await stream.text())
      .filter((e) => e.data !== '[DONE]')
      .map((e) => JSON.parse(e.data) as { choices: Array<{ delta: { content?: string } }> })
      .map((c) => c.choices[0]?.delta.content ?? '')
      .join('');
    expect(JSON.parse(text)).toEqual(value);
  });

  it('json_object: a JSON object', async () => {
    const res = await postJson(
      chatUrl(),
      { ...body, response_format: { type: 'json_object' } },
      openai,
    );
    const value: unknown = JSON.parse(((await res.json()) as Chat).choices[0]!.message.content);
    expect(value).toEqual({ answer: expect.any(String) });
  });
});

describe('a system prompt asking for JSON (Anthropic)', () => {
  const send = (system: string) =>
    postJson(
      messagesUrl(),
      {
        model: 'claude-haiku-4-5',
        max_tokens: 50,
        system,
        messages: [{ role: 'user', content: 'Hi' }],
      },
      anthropic,
    );
  const text = async (res: Response) => ((await res.json()) as Message).content[0]!.text!;

  it('answers a value of the quoted JSON Schema, or an object', async () => {
    const schema = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] };
    const quoted = await send(
      `Answer with JSON only, matching this JSON Schema: ${JSON.stringify(schema)}`,
    );
    expect(JSON.parse(await text(quoted))).toEqual({ ok: true });
    const plain = await send('Answer with one JSON object and nothing else.');
    expect(JSON.parse(await text(plain))).toEqual({ answer: expect.any(String) });
    const prose = await text(await send('Be brief.'));
    expect(prose.startsWith('{')).toBe(false);
  });
});

describe('images', () => {
  it('OpenAI: counts image parts; a loopback URL cannot be downloaded', async () => {
    const content = [
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
    ];
    const res = await postJson(
      chatUrl(),
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content }] },
      openai,
    );
    expect(((await res.json()) as Chat).choices[0]!.message.content).toMatch(/^I see 2 images\. /);
    const local = [{ type: 'image_url', image_url: { url: 'http://127.0.0.1:9/a.png' } }];
    const refused = await postJson(
      chatUrl(),
      { model: 'gpt-4o-mini', messages: [{ role: 'user', content: local }] },
      openai,
    );
    expect(refused.status).toBe(400);
  });

  it('Anthropic: counts image blocks; checks base64 media types and loopback URLs', async () => {
    const send = (source: unknown) =>
      postJson(
        messagesUrl(),
        {
          model: 'claude-haiku-4-5',
          max_tokens: 8,
          messages: [
            {
              role: 'user',
              content: [
                { type: 'image', source },
                { type: 'text', text: '?' },
              ],
            },
          ],
        },
        anthropic,
      );
    const ok = await send({ type: 'base64', media_type: 'image/png', data: PIXEL });
    expect(((await ok.json()) as Message).content[0]!.text).toMatch(/^I see 1 image\. /);
    expect((await send({ type: 'base64', media_type: 'image/tiff', data: PIXEL })).status).toBe(
      400,
    );
    expect((await send({ type: 'url', url: 'http://localhost:8081/files/x.png' })).status).toBe(
      400,
    );
    expect((await send({ type: 'url', url: 'https://example.com/a.png' })).status).toBe(200);
  });
});
