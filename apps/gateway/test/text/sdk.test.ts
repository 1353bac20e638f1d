/**
 * The official vendor SDKs, pointed at a running gateway, work unchanged — on an OpenAI-kind and
 * an Anthropic-kind model both (the other kind goes through translation).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eachDatabase, startTestGateway, type TestGateway } from '../support/index.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];

describe.each(eachDatabase())('vendor SDKs against the gateway on $name', (database) => {
  let gw: TestGateway;
  let openai: OpenAI;
  let anthropic: Anthropic;
  beforeAll(async () => {
    gw = await startTestGateway({ database });
    const { key } = await gw.createKey();
    openai = new OpenAI({ apiKey: key, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gw.url, maxRetries: 0 });
  });
  afterAll(() => gw?.close());

  it.each(MODELS)('openai: chat.completions.create on %s', async (model) => {
    const completion = await openai.chat.completions.create({
      model,
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
      max_tokens: 10,
    });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0]!.message.content).toBeTruthy();
    expect(completion.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('openai: streaming chat with include_usage on %s', async (model) => {
    const stream = await openai.chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Hello' }],
      max_tokens: 10,
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined = null;
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text.length).toBeGreaterThan(0);
    expect(['stop', 'length']).toContain(finish);
    expect(usage!.completion_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('openai: stream helper accumulates on %s', async (model) => {
    const runner = openai.chat.completions.stream({
      model,
      messages: [{ role: 'user', content: 'Hi' }],
      max_tokens: 8,
    });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]!.message.content!.length).toBeGreaterThan(0);
  });

  it.each(MODELS)('openai: legacy completions on %s', async (model) => {
    const completion = await openai.completions.create({
      model,
      prompt: 'Say this is a test',
      max_tokens: 7,
    });
    expect(completion.object).toBe('text_completion');
    expect(completion.choices[0]!.text.length).toBeGreaterThan(0);
    const stream = await openai.completions.create({
      model,
      prompt: 'Say this',
      max_tokens: 7,
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text.length).toBeGreaterThan(0);
  });

  it('openai: models.list', async () => {
    const ids: string[] = [];
    for await (const model of openai.models.list()) ids.push(model.id);
    expect(ids).toEqual(expect.arrayContaining(MODELS));
  });

  it.each(MODELS)('anthropic: messages.create on %s', async (model) => {
    const message = await anthropic.messages.create({
      model,
      max_tokens: 12,
      system: 'Be brief.',
      messages: [{ role: 'user', content: 'Hello' }],
    });
    expect(message.type).toBe('message');
    expect(message.content[0]!.type).toBe('text');
    expect(message.usage.output_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('anthropic: messages.stream accumulates on %s', async (model) => {
    const stream = anthropic.messages.stream({
      model,
      max_tokens: 12,
      messages: [{ role: 'user', content: 'Hello' }],
    });
    let deltas = '';
    stream.on('text', (t) => {
      deltas += t;
    });
    const message = await stream.finalMessage();
    const text = message.content.map((b) => (b.type === 'text' ? b.text : '')).join('');
    expect(text).toBe(deltas);
    expect(text.length).toBeGreaterThan(0);
    expect(['end_turn', 'max_tokens']).toContain(message.stop_reason);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it.each(MODELS)('anthropic: raw stream events on %s', async (model) => {
    const stream = await anthropic.messages.create({
      model,
      max_tokens: 8,
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types[0]).toBe('message_start');
    expect(types.at(-1)).toBe('message_stop');
    expect(types).toContain('content_block_delta');
  });

  it('errors arrive as SDK error classes with status', async () => {
    const err = await openai.chat.completions
      .create({
        model: 'no-such-model-xyz',
        messages: [{ role: 'user', content: 'x' }],
        temperature: 3,
      })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const notFound = await anthropic.messages
      .create({
        model: 'grok-imagine-video',
        max_tokens: 5,
        messages: [{ role: 'user', content: 'x' }],
      })
      .catch((e) => e);
    expect(notFound).toBeInstanceOf(Anthropic.NotFoundError);
    expect(notFound.error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});
