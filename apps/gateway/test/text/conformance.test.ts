/**
 * Every text response and stream event, passed through or translated, matches the spec's schemas
 * (the zod schemas generated from spec/openapi.yaml).
 */
import {
  zChatCompletion,
  zChatCompletionChunk,
  zCompletion,
  zErrorResponse,
  zMessage,
  zMessageStreamEvent,
  zMessagesErrorResponse,
  zModelList,
} from '@modelgate/core/zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { startTestGateway, type TestGateway } from '../support/index.js';
import { PushSseParser as SseParser } from '../support/sse.js';

const MODELS = ['gpt-4o-mini', 'claude-haiku-4-5'];

function conforms(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  if (!result.success) throw new Error(`${JSON.stringify(value)}\n${result.error.message}`);
}

async function events(res: Response) {
  const parser = new SseParser();
  return [...parser.push(await res.text()), ...parser.flush()];
}

describe('text responses conform to the spec', () => {
  let gw: TestGateway;
  let key: string;
  beforeAll(async () => {
    gw = await startTestGateway();
    ({ key } = await gw.createKey());
  });
  afterAll(() => gw?.close());

  const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
    gw.fetch(path, { method: 'POST', key, json, headers });

  it.each(MODELS)('chat on %s: completion and chunks', async (model) => {
    const messages = [{ role: 'user', content: 'Hello' }];
    conforms(
      zChatCompletion,
      await (await post('/v1/chat/completions', { model, messages, max_tokens: 8 })).json(),
    );
    const streamed = await events(
      await post('/v1/chat/completions', {
        model,
        messages,
        max_tokens: 8,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(streamed.at(-1)!.data).toBe('[DONE]');
    for (const e of streamed.slice(0, -1)) conforms(zChatCompletionChunk, JSON.parse(e.data));
  });

  it.each(MODELS)('legacy completions on %s', async (model) => {
    conforms(
      zCompletion,
      await (await post('/v1/completions', { model, prompt: 'Hi', max_tokens: 8 })).json(),
    );
    const streamed = await events(
      await post('/v1/completions', { model, prompt: 'Hi', max_tokens: 8, stream: true }),
    );
    for (const e of streamed.slice(0, -1)) conforms(zCompletion, JSON.parse(e.data));
  });

  it.each(MODELS)('messages on %s: message and events', async (model) => {
    const body = { model, max_tokens: 8, messages: [{ role: 'user', content: 'Hello' }] };
    conforms(zMessage, await (await post('/v1/messages', body)).json());
    const streamed = await events(await post('/v1/messages', { ...body, stream: true }));
    for (const e of streamed) conforms(zMessageStreamEvent, JSON.parse(e.data));
  });

  it('errors and the model list', async () => {
    conforms(zErrorResponse, await (await post('/v1/chat/completions', { model: 'x' })).json());
    conforms(zMessagesErrorResponse, await (await post('/v1/messages', { model: 'x' })).json());
    conforms(zModelList, await (await gw.fetch('/v1/models', { key })).json());
  });
});
