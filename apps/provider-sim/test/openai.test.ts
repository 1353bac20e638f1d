import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/index.js';
import { parseSse, postJson } from './helpers.js';

let sim: Simulator;
let base: string;
const auth = { authorization: 'Bearer sk-test' };

beforeAll(async () => {
  sim = await startSimulator();
  base = `${sim.url}/openai/v1`;
});
afterAll(() => sim.close());

const chat = (body: Record<string, unknown>, headers: Record<string, string> = auth) =>
  postJson(
    `${base}/chat/completions`,
    { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi there' }], ...body },
    headers,
  );

describe('OpenAI chat completions (§1)', () => {
  it('answers a non-streamed completion with usage and a request id', async () => {
    const res = await chat({});
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    const body = await res.json();
    expect(body.object).toBe('chat.completion');
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.model).toBe('gpt-4o-mini');
    expect(body.choices[0].message.role).toBe('assistant');
    expect(body.choices[0].message.content.length).toBeGreaterThan(0);
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage.completion_tokens).toBe(32);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('is deterministic per prompt and differs between prompts', async () => {
    const a = await (await chat({})).json();
    const b = await (await chat({})).json();
    const c = await (
      await chat({ messages: [{ role: 'user', content: 'Something else' }] })
    ).json();
    expect(a.choices[0].message.content).toBe(b.choices[0].message.content);
    expect(c.choices[0].message.content).not.toBe(a.choices[0].message.content);
  });

  it('cuts at max_tokens with finish_reason length', async () => {
    const body = await (await chat({ max_completion_tokens: 5 })).json();
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.usage.completion_tokens).toBe(5);
    const legacy = await (await chat({ max_tokens: 3 })).json();
    expect(legacy.usage.completion_tokens).toBe(3);
  });

  it('honours stop sequences', async () => {
    const full = (await (await chat({})).json()).choices[0].message.content as string;
    const words = full.split(' ');
    const stopWord = ` ${words[4]}`;
    const cut = await (await chat({ stop: [stopWord] })).json();
    expect(cut.choices[0].finish_reason).toBe('stop');
    expect(cut.choices[0].message.content).toBe(full.slice(0, full.indexOf(stopWord)));
  });

  it('streams role first, one token per chunk, finish chunk, usage chunk, [DONE]', async () => {
    const res = await chat({
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 6,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.every((e) => e.event === null)).toBe(true);
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks[0].choices[0].delta).toMatchObject({ role: 'assistant', content: '' });
    const tokens = chunks.slice(1, -2);
    expect(tokens).toHaveLength(6);
    for (const c of tokens) {
      expect(c.object).toBe('chat.completion.chunk');
      expect(c.usage).toBeNull();
      expect(c.choices[0].finish_reason).toBeNull();
    }
    expect(chunks.at(-2).choices[0]).toMatchObject({ delta: {}, finish_reason: 'length' });
    const usage = chunks.at(-1);
    expect(usage.choices).toEqual([]);
    expect(usage.usage.completion_tokens).toBe(6);
  });

  it('omits the usage chunk without include_usage', async () => {
    const events = parseSse(await (await chat({ stream: true })).text());
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.every((c) => c.choices.length === 1 && !('usage' in c))).toBe(true);
    expect(chunks.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('refuses missing and wrong keys with 401 invalid_api_key', async () => {
    const missing = await chat({}, {});
    expect(missing.status).toBe(401);
    expect((await missing.json()).error.type).toBe('invalid_request_error');
    const strict = await startSimulator({ requireKey: 'sk-right' });
    try {
      const wrong = await postJson(
        `${strict.url}/openai/v1/chat/completions`,
        { model: 'm', messages: [] },
        { authorization: 'Bearer sk-wrong' },
      );
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).error.code).toBe('invalid_api_key');
    } finally {
      await strict.close();
    }
  });

  it('validates the body with param names', async () => {
    const noMessages = await postJson(`${base}/chat/completions`, { model: 'gpt-4o' }, auth);
    expect(noMessages.status).toBe(400);
    expect((await noMessages.json()).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages',
    });
    const hot = await chat({ temperature: 2.5 });
    expect((await hot.json()).error.param).toBe('temperature');
    const stops = await chat({ stop: ['a', 'b', 'c', 'd', 'e'] });
    expect((await stops.json()).error.param).toBe('stop');
    const opts = await chat({ stream_options: { include_usage: true } });
    expect((await opts.json()).error.param).toBe('stream_options');
  });

  it('answers 404 model_not_found for unknown- models', async () => {
    const res = await chat({ model: 'unknown-model' });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('model_not_found');
  });
});

describe('OpenAI legacy completions and models (§1)', () => {
  it('completes a prompt with the 16-token default', async () => {
    const res = await postJson(
      `${base}/completions`,
      { model: 'gpt-3.5-turbo-instruct', prompt: 'Say this' },
      auth,
    );
    const body = await res.json();
    expect(body.object).toBe('text_completion');
    expect(body.choices[0].finish_reason).toBe('length');
    expect(body.usage.completion_tokens).toBe(16);
  });

  it('streams text_completion chunks ending with [DONE]', async () => {
    const res = await postJson(
      `${base}/completions`,
      { model: 'x', prompt: 'Say this', max_tokens: 4, stream: true },
      auth,
    );
    const events = parseSse(await res.text());
    expect(events.at(-1)!.data).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data));
    expect(chunks.every((c) => c.object === 'text_completion')).toBe(true);
    expect(
      chunks
        .slice(0, 4)
        .map((c) => c.choices[0].text)
        .join('').length,
    ).toBeGreaterThan(0);
  });

  it('lists models and gets one', async () => {
    const list = await (await fetch(`${base}/models`, { headers: auth })).json();
    expect(list.object).toBe('list');
    expect(list.data[0]).toMatchObject({ object: 'model' });
    const one = await (await fetch(`${base}/models/gpt-4o`, { headers: auth })).json();
    expect(one).toMatchObject({ id: 'gpt-4o', object: 'model' });
    expect((await fetch(`${base}/models/unknown-x`, { headers: auth })).status).toBe(404);
  });

  it('lists like a real account: chat models, snapshots, fine-tunes and non-chat models', async () => {
    const list = await (await fetch(`${base}/models`, { headers: auth })).json();
    const byId = new Map(list.data.map((m: { id: string }) => [m.id, m]));
    expect(byId.get('gpt-4.1-2025-04-14')).toEqual({
      id: 'gpt-4.1-2025-04-14',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'system',
    });
    expect(byId.get('ft:gpt-4o-mini-2024-07-18:sim-org::sim0001')).toMatchObject({
      owned_by: 'sim-org',
    });
    expect(byId.has('text-embedding-3-small')).toBe(true);
    expect((await fetch(`${base}/models`)).status).toBe(401);
  });
});

describe('a configured OpenAI model list', () => {
  it('answers the configured ids, and an id added while running', async () => {
    const own = await startSimulator({ textModels: { openai: ['gpt-a', 'gpt-b'] } });
    try {
      const ids = async () =>
        (
          (await (await fetch(`${own.url}/openai/v1/models`, { headers: auth })).json()) as {
            data: Array<{ id: string }>;
          }
        ).data.map((m) => m.id);
      expect(await ids()).toEqual(['gpt-a', 'gpt-b']);
      own.textModels.openai.push('gpt-c');
      expect(await ids()).toEqual(['gpt-a', 'gpt-b', 'gpt-c']);
    } finally {
      await own.close();
    }
  });
});
