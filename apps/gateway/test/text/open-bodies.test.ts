/**
 * Text bodies are open: fields the spec names are validated strictly, the others go to an
 * upstream of the same format as sent and are dropped (and listed in x-modelgate-dropped-params)
 * when the request is translated. The simulator, like the real APIs, refuses fields it does not
 * know, so a field that reaches it shows up as an upstream 400.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const DROPPED = 'x-modelgate-dropped-params';
const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-haiku-4-5';

describe('open text bodies', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey());
  });
  afterAll(() => gw?.close());

  const chat = (extra: Record<string, unknown>, model = GPT) =>
    gw.fetch('/v1/chat/completions', {
      method: 'POST',
      key,
      json: { model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5, ...extra },
    });
  const messages = (extra: Record<string, unknown>, model = CLAUDE) =>
    gw.fetch('/v1/messages', {
      method: 'POST',
      key,
      json: { model, messages: [{ role: 'user', content: 'Hi' }], max_tokens: 5, ...extra },
    });

  it('chat: a field the spec does not name reaches an OpenAI-format upstream as sent', async () => {
    // The upstream knows `logprobs` and `service_tier`: accepted, nothing dropped.
    const known = await chat({ logprobs: true, service_tier: 'auto' });
    expect(known.status).toBe(200);
    expect(known.headers.get(DROPPED)).toBeNull();
    // The upstream does not know `frobnicate`: its refusal proves the field was forwarded.
    const unknown = await chat({ frobnicate: 1 });
    expect(unknown.status).toBe(400);
    const body = (await unknown.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('upstream_invalid_request');
    expect(body.error.message).toContain('frobnicate');
  });

  it('chat → a messages-format model: unnamed and unmappable fields are dropped and listed', async () => {
    const res = await chat(
      {
        frobnicate: 1,
        logprobs: true,
        seed: 7,
        tools: [{ type: 'function', function: { name: 'f', strict: true }, extra: 1 }],
        tool_choice: 'none',
      },
      CLAUDE,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get(DROPPED)!.split(',').sort()).toEqual(
      ['frobnicate', 'logprobs', 'seed', 'tools.*.extra', 'tools.*.function.strict'].sort(),
    );
  });

  it('named fields stay strict: a bad type is still a 400 naming the field', async () => {
    const res = await chat({ frobnicate: 1, seed: 'seven' });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { param: string; code: string } };
    expect(body.error).toMatchObject({ param: 'seed', code: 'invalid_type' });
  });

  it('messages: thinking passes to a messages-format upstream, and becomes reasoning_effort for an OpenAI one', async () => {
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    const same = await messages({ thinking });
    expect(same.status).toBe(200);
    expect(same.headers.get(DROPPED)).toBeNull();
    const cross = await messages({ thinking, top_k: 5 }, GPT);
    expect(cross.status).toBe(200);
    expect(cross.headers.get(DROPPED)).toBe('top_k');
  });

  it('completions: echo reaches an OpenAI upstream; dropped for a messages-format model', async () => {
    const body = { prompt: 'Say', max_tokens: 3, echo: true };
    const same = await gw.fetch('/v1/completions', {
      method: 'POST',
      key,
      json: { model: GPT, ...body },
    });
    expect(same.status).toBe(200);
    const completion = (await same.json()) as { choices: Array<{ text: string }> };
    expect(completion.choices[0]!.text.startsWith('Say')).toBe(true); // the upstream echoed it
    const cross = await gw.fetch('/v1/completions', {
      method: 'POST',
      key,
      json: { model: CLAUDE, ...body },
    });
    expect(cross.status).toBe(200);
    expect(cross.headers.get(DROPPED)).toBe('echo');
  });

  it.each([CLAUDE, GPT])(
    'anthropic SDK: a streamed tool with eager_input_streaming works on %s',
    async (model) => {
      const anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
      const { data, response } = await anthropic.messages
        .stream({
          model,
          max_tokens: 64,
          messages: [{ role: 'user', content: 'Weather in Paris? use get_weather' }],
          tools: [
            {
              name: 'get_weather',
              input_schema: {
                type: 'object',
                properties: { city: { type: 'string' } },
                required: ['city'],
              },
              // Sent by the SDK's tool helpers; not in our spec, a real Anthropic field.
              eager_input_streaming: true,
            } as Anthropic.Tool,
          ],
        })
        .withResponse();
      const message = await data.finalMessage();
      const use = message.content.find((b) => b.type === 'tool_use');
      expect(use).toMatchObject({ name: 'get_weather', input: { city: expect.any(String) } });
      const dropped = response.headers.get(DROPPED);
      expect(dropped).toBe(model === GPT ? 'tools.*.eager_input_streaming' : null);
    },
  );

  it('openai SDK: an unnamed field on a messages-format model is listed, not refused', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const { data, response } = await openai.chat.completions
      .create({
        model: CLAUDE,
        messages: [{ role: 'user', content: 'Hi' }],
        max_tokens: 5,
        logprobs: true,
        top_logprobs: 2,
        metadata: { purpose: 'test' },
      })
      .withResponse();
    expect(data.choices[0]!.message.content).toBeTruthy();
    expect(response.headers.get(DROPPED)).toBe('logprobs,top_logprobs,metadata');
  });
});
