/**
 * Streamed tool calls through the official clients, on both endpoints and both model styles (the
 * other style translated): the SDKs' own accumulators must rebuild a complete call — its name and
 * arguments that parse — from the deltas, as they do against the vendors.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../support/index.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];
const weather = {
  type: 'object' as const,
  properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
  required: ['city', 'days'],
};
const ask = 'Use get_weather and get_time for Paris.';

describe('streamed tool calls through the SDKs', () => {
  let gw: TestGateway;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    gw = await startTestGateway();
    const { key } = await gw.createKey();
    openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it.each(MODELS)('openai: parallel calls stream and accumulate on %s', async (model) => {
    const runner = openai.chat.completions.stream({
      model,
      max_tokens: 100,
      messages: [{ role: 'user', content: ask }],
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: weather } },
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } },
      ],
      stream_options: { include_usage: true },
    });
    let argumentDeltas = 0;
    runner.on('tool_calls.function.arguments.delta', () => {
      argumentDeltas++;
    });
    const final = await runner.finalChatCompletion();
    const choice = final.choices[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    const calls = choice.message.tool_calls ?? [];
    expect(calls.map((c) => (c.type === 'function' ? c.function.name : ''))).toEqual([
      'get_weather',
      'get_time',
    ]);
    const first = calls[0]!;
    if (first.type !== 'function') throw new Error('expected a function call');
    const args = JSON.parse(first.function.arguments) as { city: unknown; days: unknown };
    expect(typeof args.city).toBe('string');
    expect(Number.isInteger(args.days)).toBe(true);
    expect(new Set(calls.map((c) => c.id)).size).toBe(2);
    expect(argumentDeltas).toBeGreaterThan(1);
    expect(final.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('anthropic: tool_use streams and accumulates on %s', async (model) => {
    const stream = anthropic.messages.stream({
      model,
      max_tokens: 100,
      messages: [{ role: 'user', content: ask }],
      tools: [{ name: 'get_weather', input_schema: weather }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
    const snapshots: unknown[] = [];
    stream.on('inputJson', (_partial, snapshot) => {
      snapshots.push(snapshot);
    });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    const use = message.content.find((b) => b.type === 'tool_use');
    expect(use).toMatchObject({ name: 'get_weather', id: expect.any(String) });
    const input = (use as Anthropic.ToolUseBlock).input as { city: unknown; days: unknown };
    expect(typeof input.city).toBe('string');
    expect(Number.isInteger(input.days)).toBe(true);
    expect(snapshots.length).toBeGreaterThan(1);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('a tool result sent back gets a text answer on %s', async (model) => {
    const first = await openai.chat.completions.create({
      model,
      max_tokens: 50,
      messages: [{ role: 'user', content: ask }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather } }],
    });
    const call = first.choices[0]!.message.tool_calls![0]!;
    const stream = await openai.chat.completions.create({
      model,
      max_tokens: 10,
      stream: true,
      messages: [
        { role: 'user', content: ask },
        first.choices[0]!.message,
        { role: 'tool', tool_call_id: call.id, content: '{"celsius":18}' },
      ],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: weather } }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text.length).toBeGreaterThan(0);
  });
});
