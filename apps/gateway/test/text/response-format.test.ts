/**
 * `response_format` through the official OpenAI client: an OpenAI-format model gets it as sent,
 * a messages-format model gets a forced tool whose input comes back as the message text — the
 * client sees JSON matching its schema either way, streamed or not.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];

const weather = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    celsius: { type: 'number' },
    sky: { type: 'string', enum: ['clear', 'cloudy', 'rain'] },
    windy: { type: 'boolean' },
    hours: { type: 'array', items: { type: 'integer' } },
  },
  required: ['city', 'celsius', 'sky', 'windy', 'hours'],
  additionalProperties: false,
};
const format: OpenAI.ResponseFormatJSONSchema = {
  type: 'json_schema',
  json_schema: { name: 'weather', schema: weather, strict: true },
};

/** What the schema above asks for, checked by hand. */
function expectWeather(text: string | null | undefined): void {
  const value = JSON.parse(text ?? '') as Record<string, unknown>;
  expect(Object.keys(value).sort()).toEqual(['celsius', 'city', 'hours', 'sky', 'windy']);
  expect(typeof value.city).toBe('string');
  expect(typeof value.celsius).toBe('number');
  expect(['clear', 'cloudy', 'rain']).toContain(value.sky);
  expect(typeof value.windy).toBe('boolean');
  expect(Array.isArray(value.hours)).toBe(true);
  for (const hour of value.hours as unknown[]) expect(Number.isInteger(hour)).toBe(true);
}

describe('response_format', () => {
  let gw: TestGateway;
  let openai: OpenAI;
  beforeAll(async () => {
    gw = await startTestGateway();
    const { key } = await gw.createKey();
    openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  const ask = [{ role: 'user' as const, content: 'The weather in Paris, as JSON.' }];

  it.each(MODELS)('json_schema: the answer is JSON matching the schema on %s', async (model) => {
    const completion = await openai.chat.completions.create({
      model,
      messages: ask,
      max_tokens: 200,
      response_format: format,
    });
    const choice = completion.choices[0]!;
    expectWeather(choice.message.content);
    expect(choice.message.tool_calls ?? []).toEqual([]);
    expect(choice.finish_reason).toBe('stop');
  });

  it.each(MODELS)(
    'json_schema, streamed: the deltas join into matching JSON on %s',
    async (model) => {
      const stream = await openai.chat.completions.create({
        model,
        messages: ask,
        max_tokens: 200,
        response_format: format,
        stream: true,
      });
      let text = '';
      let finish: string | null = null;
      for await (const chunk of stream) {
        expect(chunk.choices[0]?.delta.tool_calls).toBeUndefined();
        text += chunk.choices[0]?.delta.content ?? '';
        finish = chunk.choices[0]?.finish_reason ?? finish;
      }
      expectWeather(text);
      expect(finish).toBe('stop');
    },
  );

  it.each(MODELS)('json_object: the answer is a JSON object on %s', async (model) => {
    const completion = await openai.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Say hello as JSON.' }],
      max_tokens: 50,
      response_format: { type: 'json_object' },
    });
    const value: unknown = JSON.parse(completion.choices[0]!.message.content ?? '');
    expect(value).toBeTypeOf('object');
    expect(Array.isArray(value)).toBe(false);
  });

  it.each([false, true])(
    'with tools of its own, a messages-format model is asked in the system prompt (stream: %s)',
    async (stream) => {
      const body = {
        model: 'claude-haiku-4-5',
        messages: ask,
        max_tokens: 200,
        response_format: format,
        tools: [
          {
            type: 'function' as const,
            function: { name: 'get_weather', parameters: { type: 'object' } },
          },
        ],
        tool_choice: 'none' as const,
      };
      if (!stream) {
        const completion = await openai.chat.completions.create(body);
        expectWeather(completion.choices[0]!.message.content);
        return;
      }
      let text = '';
      for await (const chunk of await openai.chat.completions.create({ ...body, stream })) {
        text += chunk.choices[0]?.delta.content ?? '';
      }
      expectWeather(text);
    },
  );

  it('the SDK parse helper reads the answer of a messages-format model', async () => {
    const parsed = await openai.chat.completions.parse({
      model: 'claude-haiku-4-5',
      messages: ask,
      max_tokens: 200,
      response_format: format,
    });
    expectWeather(JSON.stringify(parsed.choices[0]!.message.parsed));
  });

  it('a bad response_format is refused by the gateway, naming the field', async () => {
    const err = await openai.chat.completions
      .create({
        model: 'claude-haiku-4-5',
        messages: ask,
        // @ts-expect-error: not a format
        response_format: { type: 'xml' },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe('response_format.type');
  });
});
