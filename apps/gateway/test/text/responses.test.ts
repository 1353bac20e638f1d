/**
 * The Responses API through the gateway, driven by the official `openai` client, on an
 * OpenAI-kind and an Anthropic-kind model (both through the chat pivot): create plain and
 * streamed, function tools across turns with `previous_response_id`, the state's scoping to the
 * key, retrieve / delete / input items, hosted tools refused, the token estimate and compaction.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'The weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  strict: false,
};

describe.each(eachDatabase())('the Responses API on $name', (database) => {
  let gw: TestGateway;
  let openai: OpenAI;
  let other: OpenAI;
  beforeAll(async () => {
    gw = await startTestGateway({ database });
    openai = new OpenAI({
      apiKey: (await gw.createKey()).key,
      baseURL: `${gw.url}/v1`,
      maxRetries: 0,
    });
    other = new OpenAI({
      apiKey: (await gw.createKey()).key,
      baseURL: `${gw.url}/v1`,
      maxRetries: 0,
    });
  });
  afterAll(() => gw?.close());

  it.each(MODELS)('create answers a message with usage on %s', async (model) => {
    const response = await openai.responses.create({
      model,
      instructions: 'Be brief.',
      input: 'Hello',
      max_output_tokens: 50,
      metadata: { run: 'test' },
    });
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.output_text.length).toBeGreaterThan(0);
    expect(response.usage!.input_tokens).toBeGreaterThan(0);
    expect(response.usage!.output_tokens).toBeGreaterThan(0);
    const kept = await openai.responses.retrieve(response.id);
    expect(kept.output_text).toBe(response.output_text);
    expect((await other.responses.retrieve(response.id).catch((e) => e)).status).toBe(404);
    await openai.responses.delete(response.id);
    expect((await openai.responses.retrieve(response.id).catch((e) => e)).status).toBe(404);
  });

  it.each(MODELS)('streams the numbered event sequence on %s', async (model) => {
    const stream = await openai.responses.create({ model, input: 'Hello', stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('response.created');
    expect(types).toContain('response.output_text.delta');
    expect(types).toContain('response.content_part.done');
    const last = events.at(-1)!;
    expect(last.type).toBe('response.completed');
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []));
    if (last.type !== 'response.completed') throw new Error('not completed');
    expect(last.response.output_text).toBe(text.join(''));
    // Kept before `response.completed` was sent: retrievable at once.
    expect((await openai.responses.retrieve(last.response.id)).status).toBe('completed');
  });

  it.each(MODELS)('a function call, its output and previous_response_id on %s', async (model) => {
    const first = await openai.responses.create({
      model,
      input: 'Weather in Paris?',
      tools: [weather],
    });
    const call = first.output.find((i) => i.type === 'function_call');
    if (call?.type !== 'function_call') throw new Error('no function call');
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments)).toHaveProperty('city');
    const second = await openai.responses.create({
      model,
      previous_response_id: first.id,
      tools: [weather],
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'Sunny, 21 C' }],
    });
    expect(second.output.map((i) => i.type)).toEqual(['message']);
    expect(second.previous_response_id).toBe(first.id);
    const items = await openai.responses.inputItems.list(second.id);
    expect(items.data.map((i) => i.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
    ]);
    const foreign = await other.responses
      .create({ model, previous_response_id: first.id, input: 'Hi' })
      .catch((e) => e);
    expect(foreign.status).toBe(404);
  });

  it('refuses a hosted tool, naming it', async () => {
    const err = await openai.responses
      .create({ model: 'claude-haiku-4-5', input: 'Hi', tools: [{ type: 'web_search' }] })
      .catch((e) => e);
    expect(err.status).toBe(400);
    expect(err.message).toContain('web_search');
  });

  it('estimates input tokens and compacts a conversation', async () => {
    const res = await fetch(`${gw.url}/v1/responses/input_tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${openai.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', input: 'Hello there, how are you today?' }),
    });
    expect(res.status).toBe(200);
    const count = await res.json();
    expect(count.object).toBe('response.input_tokens');
    expect(count.input_tokens).toBeGreaterThan(5);
    const compacted = await openai.responses.compact({
      model: 'claude-haiku-4-5',
      input: [
        { role: 'user', content: 'Plan a trip' },
        { role: 'assistant', content: 'Where to?' },
      ],
    });
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output.at(-1)!.type).toBe('compaction');
    const next = await openai.responses.create({
      model: 'claude-haiku-4-5',
      input: [
        ...(compacted.output as OpenAI.Responses.ResponseInputItem[]),
        { role: 'user', content: 'Go on' },
      ],
    });
    expect(next.status).toBe('completed');
  });
});
